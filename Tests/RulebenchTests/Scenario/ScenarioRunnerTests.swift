import Foundation
import XCTest
@testable import Rulebench

/// Running scenarios: every expectation kind passing and failing, and the
/// checks every step makes without being asked.
final class ScenarioRunnerTests: XCTestCase {
    private let header = "scenario: inline\nrules: \(ScenarioFixtures.counterRules)\n"

    /// Runs `steps` (YAML lines under `steps:`) on the counter pack.
    private func run(_ steps: String, setup: String = "") throws -> ScenarioReport {
        try ScenarioFixtures.run(header + setup + "steps:\n" + steps)
    }

    /// Asserts the scenario failed at `step` with a mismatch whose check starts with `check`.
    @discardableResult
    private func assertFails(_ steps: String, setup: String = "", step: Int, check: String,
                             file: StaticString = #filePath, line: UInt = #line) throws -> Mismatch? {
        let report = try run(steps, setup: setup)
        XCTAssertEqual(report.status, .failed, "expected a failure naming \(check)", file: file, line: line)
        XCTAssertEqual(report.failure?.step, step, file: file, line: line)
        let mismatch = report.failure?.mismatches.first { $0.check.hasPrefix(check) }
        XCTAssertNotNil(mismatch, "no mismatch named \(check) in \(report.failure?.mismatches.map(\.check) ?? [])", file: file, line: line)
        XCTAssertTrue(TextReport.render(report).contains(check), "the text report names \(check)", file: file, line: line)
        return mismatch
    }

    // MARK: Passing

    func testEveryExpectationKindPassesOnTheCounterPack() throws {
        let url = ScenarioFixtures.passing.appendingPathComponent("every-expectation.yaml")
        let report = ScenarioFixtures.runner.run(fileAt: url)
        XCTAssertEqual(report.status, .passed, TextReport.render(report))
        XCTAssertEqual(report.stepsRun, report.stepCount)
        // The fixture uses every kind of expectation at least once.
        let scenario = try ScenarioParser.parse(contentsOf: url)
        let all = scenario.steps.map(\.expectations)
        XCTAssertTrue(all.contains { !$0.state.isEmpty })
        XCTAssertTrue(all.contains { $0.state.contains { $0.value == nil } }, "a null (absent) state expectation")
        XCTAssertTrue(all.contains { $0.rejected != nil })
        XCTAssertTrue(all.contains { $0.error != nil })
        XCTAssertTrue(all.contains { $0.subactions?.value.contains { $0.subactions != nil } ?? false }, "nested subactions")
        XCTAssertTrue(all.contains { $0.sounds != nil })
        XCTAssertTrue(all.contains { $0.duration != nil && $0.conflicts != nil })
        XCTAssertTrue(all.contains { $0.invariantsHold != nil })
        XCTAssertTrue(all.contains { $0.hash != nil })
        let operations = scenario.steps.map(\.operation)
        XCTAssertTrue(operations.contains(.undoTurn) && operations.contains(.check))
        XCTAssertTrue(operations.contains(.undo(count: 2)) && operations.contains(.redo(count: 1)))
    }

    func testTheTemplateScenariosOfTheRepositoryPass() {
        let folder = ScenarioFixtures.repository.appendingPathComponent("scenarios/template")
        let files = ScenarioFixtures.yamlFiles(in: folder)
        XCTAssertGreaterThanOrEqual(files.count, 2)
        for url in files {
            let report = ScenarioFixtures.runner.run(fileAt: url)
            XCTAssertEqual(report.status, .passed, TextReport.render(report))
        }
    }

    // MARK: Each expectation failing

    /// `legal:` exactly a list (in any order), contains, count, none; and a
    /// rule's `legal` that fails is a mismatch with its message.
    func testLegalExpectations() throws {
        let template = "scenario: legal\nrules: template\nsteps:\n"
        let passing = try ScenarioFixtures.run(template + """
              - expect:
                  legal: [{ do: step, with: { token: p2 } }, { do: dash, with: { token: p1 } },
                          { do: step, with: { token: p1 } }, { do: dash, with: { token: p2 } }]
              - expect: { legal: { contains: [{ do: dash, with: { token: p2 } }] } }
              - expect: { legal: { count: 4 } }
            """)
        XCTAssertEqual(passing.status, .passed, TextReport.render(passing))
        let none = try ScenarioFixtures.run(template + "  - expect: { legal: none }\n")
        let mismatch = try XCTUnwrap(none.failure?.mismatches.first { $0.check == "legal" }, TextReport.render(none))
        XCTAssertEqual(mismatch.expected, "none (the game is over)")
        XCTAssertEqual(mismatch.actual, #"dash token="p1", dash token="p2", step token="p1", step token="p2""#)
        XCTAssertEqual(mismatch.location?.line, 4)
        let missing = try ScenarioFixtures.run(template + "  - expect: { legal: { contains: [fly] } }\n")
        XCTAssertTrue(missing.failure?.mismatches.first?.actual.contains("(missing fly)") == true, TextReport.render(missing))
        let count = try ScenarioFixtures.run(template + "  - expect: { legal: { count: 3 } }\n")
        XCTAssertEqual(count.failure?.mismatches.first?.expected, "3 legal actions", TextReport.render(count))
        XCTAssertEqual(ScenarioFixtures.parseProblem(template + "  - expect: { legal: { count: 1, contains: [] } }\n"),
                       "inline.yaml:4:22: 'legal' takes one of 'contains' (a list of actions) or 'count' (a number)")
        XCTAssertEqual(ScenarioFixtures.parseProblem(template + "  - expect: { legal: some }\n"),
                       "inline.yaml:4:22: 'legal' takes a list of actions, 'none', or { contains: [...] } or { count: N }, not 'some'")
    }

    func testStateFailsWithExpectedAndActual() throws {
        let mismatch = try assertFails("""
              - do: add
                with: { n: 2 }
                expect: { state: { count: 3 } }
            """, step: 1, check: "state count")
        XCTAssertEqual(mismatch?.expected, "3 (integer)")
        XCTAssertEqual(mismatch?.actual, "2 (integer)")
        XCTAssertEqual(mismatch?.location?.line, 6)
    }

    func testStateTellsIntegersFromFloats() throws {
        let mismatch = try assertFails("  - expect: { state: { count: 0.0 } }\n", step: 1, check: "state count")
        XCTAssertEqual(mismatch?.expected, "0.0 (float)")
        XCTAssertEqual(mismatch?.actual, "0 (integer)")
    }

    func testStateNullMeansAbsent() throws {
        let mismatch = try assertFails("  - expect: { state: { count: null } }\n", step: 1, check: "state count")
        XCTAssertEqual(mismatch?.expected, "absent")
        let present = try assertFails("  - expect: { state: { nothing.here: 1 } }\n", step: 1, check: "state nothing.here")
        XCTAssertEqual(present?.actual, "absent")
    }

    func testRejectedFailsWhenTheActionIsPerformed() throws {
        let mismatch = try assertFails("""
              - do: add
                with: { n: 1 }
                expect: { rejected: zero }
            """, step: 1, check: "rejected")
        XCTAssertEqual(mismatch?.actual, "the action was performed")
    }

    func testRejectedFailsWhenTheReasonDiffers() throws {
        let mismatch = try assertFails("""
              - do: add
                with: { n: 0 }
                expect: { rejected: too big }
            """, step: 1, check: "rejected")
        XCTAssertEqual(mismatch?.actual, "rejected: \"adding zero does nothing\"")
    }

    func testErrorFailsWhenTheActionSucceedsOrTheMessageDiffers() throws {
        try assertFails("  - do: turn\n    expect: { error: boom }\n", step: 1, check: "error")
        let mismatch = try assertFails("  - do: boom\n    expect: { error: fizzle }\n", step: 1, check: "error")
        XCTAssertTrue(mismatch?.actual.contains("boom: the fuse was lit") ?? false, mismatch?.actual ?? "")
        XCTAssertTrue(mismatch?.actual.contains("boom.lua:5") ?? false, "the Lua file:line is shown: \(mismatch?.actual ?? "")")
    }

    func testSubactionsFail() throws {
        let mismatch = try assertFails("  - do: nested\n    expect: { subactions: [double, [add], add] }\n", step: 1, check: "subactions")
        XCTAssertEqual(mismatch?.expected, "[double, [add], add]")
        XCTAssertEqual(mismatch?.actual, "[double, [add, add], add]")
        try assertFails("  - do: double\n    expect: { subactions: [add] }\n", step: 1, check: "subactions")
        try assertFails("  - do: double\n    expect: { subactions: [add, [add], add] }\n", step: 1, check: "subactions")
    }

    func testSoundsFail() throws {
        let mismatch = try assertFails("  - do: double\n    expect: { sounds: [pop, click] }\n", step: 1, check: "sounds")
        XCTAssertEqual(mismatch?.actual, "[pop, click, click]")
    }

    func testAnimationDurationAndConflictsFail() throws {
        let duration = try assertFails("  - do: nested\n    expect: { animation: { duration: 0.5 } }\n", step: 1, check: "animation.duration")
        XCTAssertEqual(duration?.actual, "1.0 s")
        let conflicts = try assertFails("  - do: double\n    expect: { animation: { conflicts: 0 } }\n", step: 1, check: "animation.conflicts")
        XCTAssertEqual(conflicts?.actual, "1")
        XCTAssertNotNil(conflicts?.details, "the conflicts are described")
    }

    func testInvariantsHoldFails() throws {
        let mismatch = try assertFails("  - expect: { invariants: hold }\n", setup: "setup: { state: { count: -5 } }\n",
                                       step: 1, check: "invariants")
        XCTAssertEqual(mismatch?.check, "invariants")
        XCTAssertTrue(mismatch?.actual.contains("count_is_not_negative") ?? false)
    }

    func testHashFails() throws {
        let mismatch = try assertFails("  - expect: { hash: \"0000000000000000\" }\n", step: 1, check: "hash")
        XCTAssertEqual(mismatch?.actual.count, 16)
    }

    // MARK: Checks made at every step

    func testAnUnexpectedRejectionFailsTheStep() throws {
        let mismatch = try assertFails("  - do: turn\n  - do: add\n    with: { n: 0 }\n", step: 2, check: "do")
        XCTAssertEqual(mismatch?.actual, "rejected: \"adding zero does nothing\"")
    }

    func testAnUnexpectedScriptErrorFailsTheStepWithItsTraceback() throws {
        let mismatch = try assertFails("  - do: boom\n", step: 1, check: "do")
        XCTAssertTrue(mismatch?.actual.hasPrefix("script error:") ?? false, mismatch?.actual ?? "")
        XCTAssertTrue(mismatch?.details?.contains("boom.lua") ?? false)
    }

    func testInvariantsAreCheckedAfterEveryStep() throws {
        let mismatch = try assertFails("  - expect: { state: { count: -5 } }\n", setup: "setup: { state: { count: -5 } }\n",
                                       step: 1, check: "invariants (checked after every step)")
        XCTAssertTrue(mismatch?.details?.contains("pack.lua") ?? false, "where the invariant is defined")
    }

    func testAFailedActionLeavesTheStateUnchangedAndThatIsChecked() throws {
        let report = try run("  - do: boom\n    expect: { error: fuse }\n  - expect: { state: { count: 0 } }\n")
        XCTAssertEqual(report.status, .passed, TextReport.render(report))
    }

    func testStrictUndoReportsTheSlotsTheUndoMissed() throws {
        let report = try run("  - do: leaky\n  - undo: 1\n")
        XCTAssertEqual(report.status, .failed)
        XCTAssertEqual(report.failure?.step, 2)
        let mismatch = report.failure?.mismatches.first
        XCTAssertTrue(mismatch?.check.hasPrefix("undo restores the state exactly") ?? false)
        XCTAssertTrue(mismatch?.actual.contains("leaky.lua:7") ?? false, "names the undo to blame: \(mismatch?.actual ?? "")")
        XCTAssertEqual(report.failure?.stateDiff.map(\.path), ["log.1"])
        XCTAssertEqual(report.failure?.stateDiff.first?.after, "\"leak\"")
        XCTAssertTrue(TextReport.render(report).contains("log.1: absent -> \"leak\""), TextReport.render(report))
    }

    func testStrictRedoReportsADifferentResult() throws {
        try assertFails("  - do: fickle\n  - undo: 1\n  - redo: 1\n", step: 3, check: "redo reproduces the action")
    }

    func testUndoAndRedoOfMoreThanThereIsFail() throws {
        let undo = try assertFails("  - do: turn\n  - undo: 2\n", step: 2, check: "undo")
        XCTAssertEqual(undo?.actual, "only 1 can be undone")
        let redo = try assertFails("  - redo: 1\n", step: 1, check: "redo")
        XCTAssertEqual(redo?.actual, "nothing to redo")
    }

    func testUndoTurnStopsAtTheLastCheckpoint() throws {
        let report = try run("""
              - do: add
                with: { n: 1 }
              - do: turn
              - do: add
                with: { n: 2 }
              - do: add
                with: { n: 3 }
              - undo: turn
                expect: { state: { count: 1, turn: 1 }, sounds: [click, click] }
              - undo: turn
                expect: { state: { count: 1, turn: 1 } }
              - undo: 2
                expect: { state: { count: 0, turn: 0 } }
            """)
        XCTAssertEqual(report.status, .passed, TextReport.render(report))
    }

    func testAScenarioStopsAtItsFirstFailingStepAndShowsWhatChanged() throws {
        let report = try run("""
              - do: add
                with: { n: 1 }
              - do: add
                with: { n: 2 }
                expect: { state: { count: 4 } }
              - do: add
                with: { n: 3 }
            """)
        XCTAssertEqual(report.stepsRun, 2)
        XCTAssertEqual(report.failure?.location.line, 6)
        XCTAssertEqual(report.failure?.summary, "do: add {n=2}")
        XCTAssertEqual(report.failure?.stateDiff, [StateChange(path: "count", before: "1", after: "3")])
    }

    func testASetupThatFailsInRuleCodeIsAFailureNotBadInput() throws {
        let report = try run("  - do: turn\n", setup: "setup: { options: { explode: true } }\n")
        XCTAssertEqual(report.status, .failed)
        XCTAssertEqual(report.failure?.step, 0)
        XCTAssertTrue(report.failure?.mismatches.first?.actual.contains("setup exploded on purpose") ?? false)
        XCTAssertTrue(TextReport.render(report).contains("setup at inline.yaml:2:8"), TextReport.render(report))
    }

    func testSetupSeedOptionsAndStateReachTheGame() throws {
        let report = try run("  - expect: { state: { count: 7, extra: { a: [1, 2] } } }\n",
                             setup: "setup: { seed: 9, options: { start: 7 }, create: true, state: { extra.a: [1, 2] } }\n")
        XCTAssertEqual(report.status, .passed, TextReport.render(report))
    }

    func testParamsOfEveryTypeArePassed() throws {
        let report = try run("""
              - do: label
                with: { name: box, weight: 2, tags: { x: true } }
                expect: { state: { label: box, weight: 2 } }
            """)
        XCTAssertEqual(report.status, .passed, TextReport.render(report))
    }
}
