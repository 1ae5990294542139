import Foundation
import XCTest
@testable import Rulebench

/// `rulebench generate --jobs N` (docs/levels.md): the workers try candidates
/// ahead, each in a game of its own, and the candidates are decided in the
/// order of their seeds, so the file is the one `--jobs 1` writes; progress
/// goes to standard error. (Ctrl-C with --jobs 2: `LevelTests.testCtrlCKeepsTheLevelsFinished`.)
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
}
