import Foundation
import XCTest
@testable import Rulebench

/// `rulebench generate --jobs N` (docs/levels.md): the workers try candidates
/// ahead, each in a game of its own, and the candidates are decided in the
/// order of their seeds, so the file is the one `--jobs 1` writes; progress
/// goes to standard error; Ctrl-C keeps the levels finished.
final class GenerateJobsTests: XCTestCase {
    static let pipes = TestPaths.repository("Benchmarks/packs/pipes").path
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-generate-jobs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Small boards turned twice: duplicates among the candidates, so the
    /// order in which they are decided shows.
    private func generate(jobs: Int, out: String) throws -> RulebenchCommand.Result {
        try RulebenchCommand.run(["generate", Self.pipes, "--count", "10", "--seed", "7", "--param", "rows=2", "--param", "columns=2",
                                  "--param", "turns=2", "--goal", "solved", "--progress-interval", "0", "--jobs", String(jobs),
                                  "--out", out], in: scratch)
    }

    /// The summary without its time and file.
    private func summary(_ stdout: String) -> String {
        stdout.replacingOccurrences(of: #" in [0-9.]+ s"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #"written to [a-z]+\.yaml"#, with: "written", options: .regularExpression)
    }

    func testJobsTwoWritesTheFileOfJobsOne() throws {
        let one = try generate(jobs: 1, out: "one.yaml")
        XCTAssertEqual(one.status, 0, one.output)
        XCTAssertTrue(one.stdout.contains("duplicate"), "the candidates include duplicates: \(one.stdout)")
        let two = try generate(jobs: 2, out: "two.yaml")
        XCTAssertEqual(two.status, 0, two.output)
        XCTAssertEqual(try String(contentsOf: scratch.appendingPathComponent("two.yaml"), encoding: .utf8),
                       try String(contentsOf: scratch.appendingPathComponent("one.yaml"), encoding: .utf8))
        XCTAssertEqual(summary(two.stdout), summary(one.stdout))
        // Progress on standard error, a line per candidate decided, in order.
        XCTAssertTrue(two.stderr.contains("generate \(Self.pipes): 10/10 levels"), two.stderr)
        XCTAssertTrue(two.stderr.contains("generate \(Self.pipes): 1/10 levels"), two.stderr)
    }

    func testCtrlCWithJobsKeepsTheLevelsFinished() throws {
        let (process, out, err) = try RulebenchCommand.start(["generate", Self.pipes, "--count", "50", "--param", "turns=12", "--jobs", "2",
                                                              "--goal", "solved", "--progress-interval", "0", "--out", "c.yaml"], in: scratch)
        var seen = ""
        while !seen.contains("1/50 levels") {   // a progress line after each candidate: wait for the first level
            let data = err.fileHandleForReading.availableData
            if data.isEmpty { break }
            seen += String(decoding: data, as: UTF8.self)
        }
        XCTAssertTrue(seen.contains("1/50 levels"), seen)
        kill(process.processIdentifier, SIGINT)
        let result = RulebenchCommand.finish(process, out, err)
        XCTAssertEqual(result.status, 130, result.output)
        XCTAssertTrue(result.stdout.contains("interrupted: the "), result.stdout)
        let file = try LevelFile.parse(contentsOf: scratch.appendingPathComponent("c.yaml"))
        XCTAssertGreaterThanOrEqual(file.levels.count, 1)
        XCTAssertLessThan(file.levels.count, 50)
        // The levels finished are the first ones --jobs 1 makes: decided in order, none missing.
        let first = try RulebenchCommand.run(["generate", Self.pipes, "--count", String(file.levels.count), "--param", "turns=12",
                                              "--jobs", "1", "--goal", "solved", "--out", "first.yaml"], in: scratch)
        XCTAssertEqual(first.status, 0, first.output)
        XCTAssertEqual(try LevelFile.parse(contentsOf: scratch.appendingPathComponent("first.yaml")).levels, file.levels)
        let run = try RulebenchCommand.run(["run", "c.yaml"], in: scratch)
        XCTAssertEqual(run.status, 0, run.output)
    }
}
