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

    /// Every report form of a run of the fixtures' scenarios (passing and
    /// malformed) and a failing one, durations set to 0. The repository's
    /// own scenarios are compared on one and two workers by
    /// `testTheRepositorysSmallPacksAreLoadedOnceAndDesertSplit`.
    private func rendered(workers: Int) -> [String] {
        let (items, _) = ScenarioFiles.collect([TestPaths.fixtures.appendingPathComponent("scenarios").path, scratch.path])
        let heard = HeardReports()
        let reports = ScenarioRunner().run(items, on: WorkerPool(workers: workers)) { heard.append($0) }
        XCTAssertEqual(heard.files, reports.map(\.file), "completed out of order")
        return render(reports)
    }

    /// The text, JSON and JUnit reports of `reports`, durations set to 0.
    private func render(_ reports: [ScenarioReport]) -> [String] {
        var reports = reports
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
            // Two packs' folders: what is checked is that --jobs reaches the run.
            let result = try RulebenchCommand.run(["run", "scenarios/cards", "scenarios/template", "--json", "--jobs", jobs],
                                                  in: EngineFixtures.repository)
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout.replacing(/"seconds" *: *[0-9.e+-]+/, with: "\"seconds\":0")
        }
        XCTAssertEqual(try json("1"), try json("2"))
    }

    // A worker is handed the scenarios of the folder it is on first: a
    // pack with few scenarios is loaded by one worker whatever the
    // threads' timing, a failure still drops the kept game, and the report
    // is one job's.

    /// A pack `name` with one action, `bump`, in affinity/packs/.
    private func pack(_ name: String) throws -> URL {
        let folder = scratch.appendingPathComponent("affinity/packs/\(name)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("actions"), withIntermediateDirectories: true)
        try Data("return { name = \"\(name)\", version = \"1\", setup = function(game) game.bumps = 0 end }\n".utf8)
            .write(to: folder.appendingPathComponent("pack.lua"))
        try Data("return { apply = function(game) game.bumps = game.bumps + 1 end }\n".utf8)
            .write(to: folder.appendingPathComponent("actions/bump.lua"))
        return folder
    }

    /// Scenarios of a new pack `name` in the folder affinity/name/, one per
    /// entry of `bumps` (the count each expects after one bump: 1 passes).
    private func folder(_ name: String, bumps: [Int]) throws {
        let rules = try pack(name).path
        let folder = scratch.appendingPathComponent("affinity/\(name)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (number, expected) in bumps.enumerated() {
            try Data("scenario: \(name) \(number)\nrules: \(rules)\nsteps:\n  - do: bump\n    expect: { state: { bumps: \(expected) } }\n".utf8)
                .write(to: folder.appendingPathComponent("\(number).yaml"))
        }
    }

    /// A run on `workers` workers: its statuses, its reports (`render`) and
    /// the packs it loaded, by name, counted.
    private func run(_ paths: [String], workers: Int) -> (statuses: [ScenarioReport.Status], reports: [String], loads: [String: Int]) {
        let loads = HeardReports()
        var runner = ScenarioRunner()
        runner.gameMade = { loads.append(file: $0.lastPathComponent) }
        let reports = runner.run(ScenarioFiles.collect(paths).items, on: WorkerPool(workers: workers))
        return (reports.map(\.status), render(reports), Dictionary(loads.files.map { ($0, 1) }, uniquingKeysWith: +))
    }

    func testEachSmallPackIsLoadedByOneWorker() throws {
        try folder("blue", bumps: [1, 1, 1])
        try folder("green", bumps: [1, 1])
        try folder("red", bumps: [1, 9, 1])
        let paths = [scratch.appendingPathComponent("affinity").path]
        let one = run(paths, workers: 1), two = run(paths, workers: 2)
        XCTAssertEqual(two.statuses, [.passed, .passed, .passed, .passed, .passed, .passed, .failed, .passed])
        XCTAssertEqual(two.reports, one.reports)
        // red's failure drops its game: the scenario after it loads red again.
        XCTAssertEqual(two.loads, ["blue": 1, "green": 1, "red": 2], "a pack of three scenarios or fewer was loaded by both workers")
    }

    func testTheRepositorysSmallPacksAreLoadedOnceAndDesertSplit() {
        let scenarios = EngineFixtures.repository.appendingPathComponent("scenarios").path
        let one = run([scenarios], workers: 1), two = run([scenarios], workers: 2)
        XCTAssertEqual(two.reports, one.reports)
        XCTAssertEqual(one.loads, ["cards": 1, "desert": 1, "set": 1, "template": 1, "tictactoe": 1])
        XCTAssertEqual(two.loads.filter { $0.key != "desert" }, ["cards": 1, "set": 1, "template": 1, "tictactoe": 1])
        XCTAssertLessThanOrEqual(two.loads["desert"] ?? 0, 2)
    }
}

/// Files of reports heard from worker threads, behind a lock.
final class HeardReports: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func append(_ report: ScenarioReport) { append(file: report.file) }
    func append(file: String) { lock.withLock { list.append(file) } }
    var files: [String] { lock.withLock { list } }
}
