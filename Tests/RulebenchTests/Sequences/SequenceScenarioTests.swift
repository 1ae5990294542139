import XCTest
@testable import Rulebench

/// A scenario expects a sequence (`expect: { sequence: ... }`), what its
/// steps say, and its golden transcript (Fixtures/sequences/dry.yaml); a
/// wrong name, text or transcript fails at the expectation's line.
final class SequenceScenarioTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sequence-scenarios-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestPaths.fixtures.appendingPathComponent("sequences/story"), to: scratch.appendingPathComponent("story"))
        for file in ["dry.yaml", "dry.transcript"] {
            try FileManager.default.copyItem(at: TestPaths.fixtures.appendingPathComponent("sequences/\(file)"), to: scratch.appendingPathComponent(file))
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    private func play(edit: (String) -> String = { $0 }, transcript: ((String) -> String)? = nil) throws -> ScenarioReport {
        let file = scratch.appendingPathComponent("dry.yaml")
        try edit(try String(contentsOf: file, encoding: .utf8)).write(to: file, atomically: true, encoding: .utf8)
        if let transcript {
            let golden = scratch.appendingPathComponent("dry.transcript")
            try transcript(try String(contentsOf: golden, encoding: .utf8)).write(to: golden, atomically: true, encoding: .utf8)
        }
        return ScenarioRunner().run(fileAt: file)
    }

    private func failure(_ report: ScenarioReport) -> String {
        report.failure?.mismatches.map(\.description).joined(separator: "\n") ?? "\(String(describing: report.problem))"
    }

    func testTheScenarioPasses() throws {
        let report = try play()
        XCTAssertEqual(report.status, .passed, failure(report))
    }

    func testAnotherNameFailsSayingWhatStarted() throws {
        let report = try play(edit: { $0.replacingOccurrences(of: "name: dry", with: "name: rain") })
        XCTAssertEqual(report.status, .failed)
        XCTAssertTrue(failure(report).contains("starts sequence 'rain'") && failure(report).contains("[dry, bucket]"), failure(report))
        XCTAssertEqual(report.failure?.mismatches.first?.location?.line, 9)
    }

    func testAStepThatStartsNoneFails() throws {
        let report = try play(edit: { $0.replacingOccurrences(of: "  - do: draw\n  - do: draw\n", with: "  - do: draw\n    expect: { sequence: dry }\n  - do: draw\n") })
        XCTAssertEqual(report.status, .failed)
        XCTAssertTrue(failure(report).contains("it starts none"), failure(report))
    }

    func testAStepSayingOtherwiseFails() throws {
        let report = try play(edit: { $0.replacingOccurrences(of: "\"Pray for rain?\"", with: "\"Pray for snow?\"") })
        XCTAssertEqual(report.status, .failed)
        XCTAssertTrue(failure(report).contains("sequence.says"), failure(report))
    }

    func testATranscriptThatDiffersFails() throws {
        let report = try play(transcript: { $0.replacingOccurrences(of: "choice \"Rain\": fill", with: "choice \"Rain\": draw") })
        XCTAssertEqual(report.status, .failed)
        XCTAssertTrue(failure(report).contains("sequence.transcript") && failure(report).contains("choice \"Rain\": fill"), failure(report))
    }

    func testAMissingTranscriptFailsWithTheTextToWrite() throws {
        try FileManager.default.removeItem(at: scratch.appendingPathComponent("dry.transcript"))
        let report = try play()
        XCTAssertEqual(report.status, .failed)
        XCTAssertTrue(failure(report).contains("none yet") && failure(report).contains("step 2\n  center near fade: Pray for rain?"), failure(report))
    }

    func testSequenceIsRefusedOutsideADo() throws {
        let report = try play(edit: { $0.replacingOccurrences(of: "  - undo: 1\n    expect: { state: { water: 0 } }", with: "  - undo: 1\n    expect: { sequence: dry }") })
        XCTAssertEqual(report.status, .badInput)
        XCTAssertTrue("\(String(describing: report.problem))".contains("'sequence' can only be expected of a 'do' step"), "\(String(describing: report.problem))")
    }
}
