import XCTest
@testable import Rulebench

/// The fuzzer fills every sequence's texts in the states of each run: a text
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
        XCTAssertTrue(report.finding.message.contains("spill"), report.finding.message)
        XCTAssertTrue(report.finding.blame?.contains("sequences/") == true, "\(String(describing: report.finding.blame))")
    }
}
