import Foundation
import XCTest
@testable import Rulebench

/// The scenario language as a rules author reaches for it: `exists`/`absent`,
/// broken invariants, errors of undo and redo, declared options, `create`,
/// internal actions, and the SET-like flow written without workarounds.
final class ScenarioLanguageTests: XCTestCase {
    private let sets = "../packs/sets"
    private let counter = ScenarioFixtures.counterRules

    private func run(_ rules: String, setup: String = "", _ steps: String) throws -> ScenarioReport {
        try ScenarioFixtures.run("scenario: inline\nrules: \(rules)\n" + setup + "steps:\n" + steps)
    }

    private func problem(_ report: ScenarioReport) -> String {
        report.problem?.description ?? ""
    }

    // MARK: The SET-like flow

    func testTheSetFlowDealClaimNoSetLeftGameOverPasses() throws {
        let url = ScenarioFixtures.passing.appendingPathComponent("sets-game-over.yaml")
        let report = ScenarioFixtures.runner.run(fileAt: url)
        XCTAssertEqual(report.status, .passed, TextReport.render(report))
        let scenario = try ScenarioParser.parse(contentsOf: url)
        let all = scenario.steps.map(\.expectations)
        XCTAssertTrue(all.contains { $0.legal?.value == LegalExpectation.none }, "the game-over step says legal: none")
        XCTAssertTrue(all.contains { !$0.exists.isEmpty } && all.contains { !$0.absent.isEmpty })
    }

    // MARK: exists / absent

    func testExistsAndAbsentNameThePathThatFails() throws {
        let passing = try run(sets, setup: "setup: { options: { shuffle: false } }\n", """
              - do: deal
                expect: { exists: [table.1, table.3], absent: table.4 }
            """)
        XCTAssertEqual(passing.status, .passed, TextReport.render(passing))
        let failing = try run(sets, setup: "setup: { options: { shuffle: false } }\n", """
              - do: deal
                expect: { exists: [table.4], absent: [table.1] }
            """)
        XCTAssertEqual(failing.status, .failed)
        let checks = failing.failure?.mismatches.map(\.check) ?? []
        XCTAssertEqual(checks, ["exists table.4", "absent table.1"])
        XCTAssertEqual(failing.failure?.mismatches.first?.location?.line, 6)
    }

    // MARK: Broken invariants

    func testEveryBrokenInvariantIsReportedAndCanBeExpected() throws {
        let setup = "setup: { state: { score: -1 } }\n"
        let both = try run(sets, setup: setup, "  - expect: { invariants: { broken: [score_is_not_negative, score_counts_claimed_sets] } }\n")
        XCTAssertEqual(both.status, .passed, TextReport.render(both))
        let one = try run(sets, setup: setup, "  - expect: { invariants: { broken: score_is_not_negative } }\n")
        XCTAssertEqual(one.status, .failed)
        XCTAssertEqual(one.failure?.mismatches.first?.actual.hasPrefix("broken: [score_counts_claimed_sets, score_is_not_negative]"), true,
                       one.failure?.mismatches.first?.actual ?? "")
        // Not expected: the implicit check names both.
        let implicit = try run(sets, setup: setup, "  - expect: { state: { score: -1 } }\n")
        let text = TextReport.render(implicit)
        XCTAssertTrue(text.contains("invariant 'score_counts_claimed_sets' failed") && text.contains("invariant 'score_is_not_negative' failed"), text)
    }

    func testADoStepCanExpectTheInvariantItBreaks() throws {
        let report = try run(counter, """
              - do: drain
                expect: { invariants: { broken: count_is_not_negative }, state: { count: 0 } }
            """)
        XCTAssertEqual(report.status, .passed, TextReport.render(report))
        let performed = try run(counter, """
              - do: add
                with: { n: 1 }
                expect: { invariants: { broken: count_is_not_negative } }
            """)
        XCTAssertEqual(performed.failure?.mismatches.first?.actual, "the action was performed")
        XCTAssertNotNil(ScenarioFixtures.parseProblem("scenario: x\nrules: r\nsteps:\n  - do: drain\n    expect: { invariants: { broken: a }, error: x }\n"))
    }

    // MARK: error: on undo and redo

    func testAnUndoThatFailsCanBeExpectedAndAnEmptyErrorMatchesAny() throws {
        let expected = try run(counter, """
              - do: leaky
              - undo: 1
                expect: { error: "did not restore", state: { count: 0 } }
              - undo: 1
                expect: { error: "nothing to undo" }
              - do: boom
                expect: { error: "" }
            """)
        XCTAssertEqual(expected.status, .passed, TextReport.render(expected))
        let unexpected = try run(counter, """
              - do: add
                with: { n: 1 }
              - undo: 1
                expect: { error: "" }
            """)
        XCTAssertEqual(unexpected.failure?.mismatches.first?.check, "error")
        XCTAssertEqual(unexpected.failure?.mismatches.first?.actual, "the step succeeded")
        let wrong = try run(counter, "  - do: leaky\n  - undo: 1\n    expect: { error: \"budget\" }\n")
        XCTAssertEqual(wrong.failure?.mismatches.first?.check, "error")
        let redo = try run(counter, "  - redo: 1\n    expect: { error: \"nothing to redo\" }\n")
        XCTAssertEqual(redo.status, .passed, TextReport.render(redo))
    }

    // MARK: Options and setup.state

    func testAnUnknownOptionIsBadInputAtItsLineWithASuggestion() throws {
        let typo = try run(sets, setup: "setup:\n  options: { shuffle: false, colors: 2 }\n", "  - expect: { legal: [deal] }\n")
        XCTAssertEqual(typo.status, .badInput)
        XCTAssertTrue(problem(typo).contains("inline.yaml:4:30: option 'colors' is not an option of pack 'sets'; did you mean 'colours'?"), problem(typo))
        let type = try run(sets, setup: "setup:\n  options: { colours: two }\n", "  - expect: { legal: [deal] }\n")
        XCTAssertTrue(problem(type).contains("option 'colours' must be an integer like its default 3, not \"two\""), problem(type))
        // The same check guards every command that starts a game (fuzz, explore, play: --option).
        XCTAssertThrowsError(try Game(pack: ScenarioFixtures.folder.appendingPathComponent(sets).path, options: ["player": .int(3)])) { error in
            XCTAssertTrue("\(error)".contains("option 'player' is not an option of pack 'sets'"), "\(error)")
        }
    }

    func testOptionsDeclaredTheOldWayStillWork() throws {
        let game = try Game(pack: ScenarioFixtures.folder.appendingPathComponent(counter).path, options: ["start": .int(4)])
        XCTAssertEqual(try game.state(at: "count"), .int(4))
        XCTAssertEqual(game.pack.optionTypes, ["start": "integer", "explode": "boolean"])
    }

    func testSetupStateRefusesAMissingParentUnlessCreateIsTrue() throws {
        let typo = try run(sets, setup: "setup:\n  state: { scorez.p1: 5 }\n", "  - expect: { state: { score: 0 } }\n")
        XCTAssertEqual(typo.status, .badInput)
        XCTAssertTrue(problem(typo).contains("inline.yaml:4:12: cannot set scorez.p1: scorez does not exist (did you mean 'score'?)"), problem(typo))
        XCTAssertTrue(problem(typo).contains("create: true"), problem(typo))
        let created = try run(sets, setup: "setup:\n  create: true\n  state: { notes.first: hi }\n", "  - expect: { state: { notes.first: hi } }\n")
        XCTAssertEqual(created.status, .passed, TextReport.render(created))
        // A new key in a table that exists needs no create.
        let added = try run(sets, setup: "setup:\n  state: { won.1: { id: x } }\n", "  - expect: { exists: [won.1.id] }\n")
        XCTAssertEqual(added.status, .failed, "the invariant sees the card; the path itself was written")
    }

    // MARK: Internal actions

    func testAnInternalActionIsNeverLegalAndRefusedAtTopLevel() throws {
        let game = try Game(pack: ScenarioFixtures.folder.appendingPathComponent(sets).path, options: ["shuffle": .bool(false)])
        XCTAssertTrue(game.pack.actions["draw"]?.isInternal ?? false)
        XCTAssertEqual(try game.legalActions().map(\.name), ["deal"])
        XCTAssertThrowsError(try game.perform("draw", [:])) { error in
            guard case RulebenchError.rejected(let reason, _) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("'draw' is an internal action"), reason)
        }
        let entry = try game.perform("deal", [:])
        XCTAssertEqual(entry.subactions.subactionNames, ["draw", "draw", "draw"])
    }

    func testCheckReportsMissingSubactionsAndHelpersThatShouldBeInternal() throws {
        let folder = ScenarioFixtures.repository.appendingPathComponent("Tests/RulebenchTests/Fixtures/authoring/internal")
        let problems = try PackChecker(pack: folder.path).check()
        let text = problems.map(\.description)
        XCTAssertTrue(text.contains { $0.contains("bump.lua:7: error: act:sub of unknown action 'stpe'") && $0.contains("did you mean 'step'") }, "\(text)")
        XCTAssertTrue(text.contains { $0.contains("helper.lua: warning: 'helper' has no legal function and runs as a subaction") }, "\(text)")
        XCTAssertTrue(text.contains { $0.contains("lonely.lua:4: warning: 'lonely' is internal but no action queues it") }, "\(text)")
        XCTAssertTrue(text.contains { $0.contains("lonely.lua:5: warning: 'lonely' is internal, so its legal function is never called") }, "\(text)")
        XCTAssertTrue(text.contains { $0.contains("lonely.lua:6: warning: 'lonely' is internal, so it is never a history entry and `undo turn` never stops at it") }, "\(text)")
        XCTAssertFalse(text.contains { $0.contains("'step'") && $0.contains("warning") }, "\(text)")
        XCTAssertEqual(problems.count, 5, "\(text)")
    }

    func testTheDesertPackKeepsNoPendingCounter() throws {
        let game = try Game(pack: ScenarioFixtures.repository.appendingPathComponent("rules/desert").path)
        XCTAssertNil(try game.state(at: "pending"))
        let helpers = game.pack.actions.values.filter(\.isInternal).map(\.name).sorted()
        XCTAssertTrue(helpers.contains("relocate") && helpers.contains("slide") && helpers.contains("next_turn"), "\(helpers)")
        XCTAssertFalse(try game.legalActions().contains { helpers.contains($0.name) })
    }

    // MARK: Load errors

    func testALoadErrorAboutAFieldNamesItsLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-field-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("actions"), withIntermediateDirectories: true)
        try Data("return { name = \"field\" }\n".utf8).write(to: folder.appendingPathComponent("pack.lua"))
        try Data("-- go\nreturn {\n  apply = function() end,\n  subanimations = \"serial\",\n}\n".utf8)
            .write(to: folder.appendingPathComponent("actions/go.lua"))
        XCTAssertThrowsError(try Game(pack: folder.path)) { error in
            guard case RulebenchError.packLoad(let problem) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(problem.line, 4, "\(problem)")
            XCTAssertTrue(problem.message.contains("subanimations must be \"parallel\", \"sequence\" or \"stagger\", not \"serial\""), "\(problem)")
        }
    }
}

/// Diffs and blame as reports show them.
final class StateDiffTests: XCTestCase {
    func testPathsAreInNaturalOrder() {
        let paths = ["deck.10", "deck.2", "deck.1", "p10", "p9", "deck.11"]
        XCTAssertEqual(paths.sorted(by: StatePath.naturalOrder), ["deck.1", "deck.2", "deck.10", "deck.11", "p9", "p10"])
    }

    func testATableMovedToAnotherSlotIsOneMove() throws {
        let card = StateValue.table([.string("id"): .string("3r"), .string("n"): .int(3)])
        let other = StateValue.table([.string("id"): .string("1g"), .string("n"): .int(1)])
        let before = StateValue.table([.string("deck"): .table([.int(1): card, .int(2): other]), .string("hand"): .table([:])])
        let after = StateValue.table([.string("deck"): .table([.int(1): other]), .string("hand"): .table([.int(1): card])])
        let changes = StateDiff.changes(from: before, to: after)
        XCTAssertEqual(changes.map { "\($0.path): \($0.after)" }, ["deck.1: moved to hand.1, and the table at deck.2 moved here", "deck.2: moved to deck.1", "hand.1: moved from deck.1"])
    }

    func testAListFilledCardByCardShowsEachCardsMove() throws {
        let card = { (id: String) in StateValue.table([.string("id"): .string(id)]) }
        let before = StateValue.table([.string("table"): .table([.int(1): card("a"), .int(2): card("b")]), .string("won"): .table([:])])
        let after = StateValue.table([.string("table"): .table([:]), .string("won"): .table([.int(1): card("a"), .int(2): card("b")])])
        XCTAssertEqual(StateDiff.changes(from: before, to: after).map { "\($0.path): \($0.after)" },
                       ["table.1: moved to won.1", "table.2: moved to won.2", "won.1: moved from table.1", "won.2: moved from table.2"])
    }

    func testTheSameBlameIsMergedWithACount() {
        let at = SourceLocation(file: "rules/x/actions/slide.lua", line: 9)
        let problems = (1...12).map { i in
            UndoProblem(action: "storm > slide", undoFunction: at,
                        differences: [StateChange(path: "deck.\(i)", before: "1", after: "2")])
        }
        let merged = UndoProblem.merged(problems)
        XCTAssertEqual(merged.count, 1)
        XCTAssertEqual(merged[0].times, 12)
        XCTAssertEqual(merged[0].differences.prefix(3).map(\.path), ["deck.1", "deck.2", "deck.3"])
        XCTAssertTrue(merged[0].description.hasPrefix("undo of 'storm > slide' (rules/x/actions/slide.lua:9) did not restore the state (12 times):"))
        XCTAssertEqual(merged[0].description.split(separator: "\n").count, 12)
    }
}
