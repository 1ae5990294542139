import XCTest
@testable import Rulebench

/// The fuzzer fills every sequence's texts in each state of a run's history: a text
/// reading a slot a few moves deep removes (Fixtures/sequences/story: draw,
/// draw, spill drops `bucket`, which two sequences read) is a finding.
final class SequenceFuzzTests: XCTestCase {
    func testATextReadingAMissingSlotAFewMovesDeepIsAFinding() throws {
        var options = Fuzzer.Options(pack: TestPaths.fixtures.appendingPathComponent("sequences/story").path)
        options.seed = 1
        options.runs = 20
        options.depth = 6
        options.configuration.printHandler = { _ in }
        let report = try XCTUnwrap(Fuzzer(options: options).run().reports.first)
        XCTAssertEqual(report.finding.property, .sequenceTextsRead)
        XCTAssertTrue(report.finding.message.contains("reads {bucket.size}"), report.finding.message)
        XCTAssertEqual(report.shrunk.steps.map { "\($0)" }.last?.contains("spill"), true, "\(report.shrunk.steps)")
        let reproduction = Reproduction.scenario(for: report, packReference: "story", origin: FindingOrigin(command: "rulebench fuzz"))
        XCTAssertTrue(reproduction.contains("expect: { exists: [bucket.size] }"), reproduction)
        XCTAssertEqual(report.freshStart, .fails, "the reproduction fails when run alone")
        XCTAssertTrue(report.finding.blame?.contains("sequences/") == true, "\(String(describing: report.finding.blame))")
    }
}

/// "Every state it reaches": a state the run left behind (undone, then
/// replaced by another branch) is looked at too, and so is the state after setup.
final class SequenceFuzzBranchTests: XCTestCase {
    private let story = TestPaths.fixtures.appendingPathComponent("sequences/story").path

    private func run(_ steps: [FuzzStep], options setup: [String: StateValue] = [:]) -> FuzzExecutor.Result {
        var options = Fuzzer.Options(pack: story)
        options.setupOptions = setup
        options.configuration.printHandler = { _ in }
        let executor = Fuzzer(options: options).executor
        var program = FuzzProgram(pack: story, seed: 1, options: setup)
        program.steps = steps
        return executor.execute(program, checkLegality: true)
    }

    /// draw, draw, spill, then undo the spill and draw no more: the history the
    /// run leaves holds the bucket in every state, the state after the spill did not.
    func testAStateOnAnUndoneBranchIsLookedAt() throws {
        let draw = ActionCall("draw", [:]), spill = ActionCall("spill", [:])
        let finding = try XCTUnwrap(run([.perform(draw), .perform(draw), .perform(spill), .undo(1)]).finding)
        XCTAssertEqual(finding.property, .sequenceTextsRead)
        XCTAssertEqual(finding.stepIndex, 2, finding.message)
        XCTAssertTrue(finding.message.contains("after step 3 (spill"), finding.message)
        XCTAssertTrue(finding.message.contains("reads {bucket.size}"), finding.message)
        XCTAssertNil(run([.perform(draw), .perform(draw), .undo(1), .redo(1)]).finding, "the bucket is there in every state")
    }

    /// A slot missing right after setup is found before any step, at step -1.
    func testASlotMissingAfterSetupIsFoundThere() throws {
        let finding = try XCTUnwrap(run([.perform(ActionCall("draw", [:]))], options: ["bucket": .bool(false)]).finding)
        XCTAssertEqual(finding.property, .sequenceTextsRead)
        XCTAssertEqual(finding.stepIndex, -1)
        XCTAssertTrue(finding.message.hasPrefix("after setup"), finding.message)
    }
}
