import Foundation
import XCTest
@testable import Rulebench

/// `run` on two workers: the same reports (text, JSON, JUnit), in the same
/// order, as on one; only the durations differ.
final class ParallelRunTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-jobs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let counter = EngineFixtures.repository.appendingPathComponent("Tests/RulebenchTests/Fixtures/packs/counter").path
        try Data("scenario: fails\nrules: \(counter)\nsteps:\n  - do: turn\n    expect: { state: { count: 5 } }\n".utf8)
            .write(to: scratch.appendingPathComponent("fail.yaml"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Every report form of a run of the repository's scenarios, the
    /// fixtures' (passing and malformed) and a failing one, durations set to 0.
    private func rendered(workers: Int) -> [String] {
        let paths = ["scenarios", "Tests/RulebenchTests/Fixtures/scenarios"].map { EngineFixtures.repository.appendingPathComponent($0).path }
        let (items, _) = ScenarioFiles.collect(paths + [scratch.path])
        let heard = HeardReports()
        var reports = ScenarioRunner().run(items, on: WorkerPool(workers: workers)) { heard.append($0) }
        XCTAssertEqual(heard.files, reports.map(\.file), "completed out of order")
        for index in reports.indices { reports[index].duration = 0 }
        let run = RunReport(scenarios: reports, duration: 0)
        return [TextReport.render(run), JSONReport.render(run), JUnitReport.render(run)]
    }

    func testTwoWorkersGiveTheReportOfOne() {
        let one = rendered(workers: 1), two = rendered(workers: 2)
        XCTAssertTrue(one[0].contains("FAIL") && one[0].contains("BAD") && one[0].contains("PASS"), "the run needs every status: \(one[0])")
        for (form, pair) in zip(["text", "JSON", "JUnit"], zip(one, two)) {
            XCTAssertEqual(pair.0, pair.1, "the \(form) report differs with two workers")
        }
    }

    func testTheCommandsReportIsTheSameWithTwoJobs() throws {
        func json(_ jobs: String) throws -> String {
            let result = try RulebenchCommand.run(["run", "scenarios", "--json", "--jobs", jobs], in: EngineFixtures.repository)
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout.replacing(/"seconds" *: *[0-9.e+-]+/, with: "\"seconds\":0")
        }
        XCTAssertEqual(try json("1"), try json("2"))
    }
}

/// Files of reports heard from worker threads, behind a lock.
final class HeardReports: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func append(_ report: ScenarioReport) { lock.withLock { list.append(report.file) } }
    var files: [String] { lock.withLock { list } }
}
