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
