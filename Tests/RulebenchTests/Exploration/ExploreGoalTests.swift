import Foundation
import XCTest
@testable import Rulebench

/// `explore`'s finished games end at a state with no legal call or where
/// one of the pack's goals holds (docs/cli.md): the counter of
/// Fixtures/solve reaches its target 4 while `inc` and `dbl` are still
/// legal. From 1: depth 2 is 3, 4, 3, 4 (two sequences end at 4), depth 3 is
/// 4, 6, 5, 8 twice (two end at 4, reached by 3 + 1), depth 4 never 4. Every
/// walk counts the same: the kernel's, Swift's levels above it, `--unique`,
/// and the workers of `--jobs 2`.
final class ExploreGoalTests: XCTestCase {
    static let counter = TestPaths.fixtures.appendingPathComponent("solve/counter").path
    static let options: [String: StateValue] = ["start": .int(1), "target": .int(4)]

    private func game() throws -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        return try Game(pack: Self.counter, options: Self.options, seed: 0, configuration: configuration)
    }

    func testAGoalReachedWhileCallsAreLegalEndsAFinishedGame() throws {
        // Depth 3: depth 2's states in the kernel's walk; depth 5: in Swift's levels above it (Explorer.kernelDepth 2).
        for (depth, finished, endings) in [(3, [0, 0, 2], [0, 0, 1]), (5, [0, 0, 2, 2, 0], [0, 0, 1, 1, 0])] {
            let plain = try Explorer(game: try game(), depth: depth).run()
            let unique = try Explorer(game: try game(), depth: depth, distinctBound: 10_000).run()
            XCTAssertEqual(plain.nodes, Array([2, 4, 8, 16, 32].prefix(depth)), "the walk goes on past the goal")
            XCTAssertEqual(plain.finished, finished, "depth \(depth)")
            XCTAssertEqual(plain.endings, endings, "depth \(depth)")
            XCTAssertEqual(unique.finished, finished, "depth \(depth)")
            XCTAssertEqual(unique.endings, endings, "depth \(depth)")
        }
    }

    func testTheCommandCountsTheGoalsFinishedGamesWithAndWithoutWorkers() throws {
        let folder = FileManager.default.temporaryDirectory
        let common = ["explore", Self.counter, "--depth", "5", "--option", "start=1", "--option", "target=4"]
        for extra in [["--jobs", "1"], ["--jobs", "2"], ["--unique"], ["--unique", "--jobs", "2"]] {
            let text = try RulebenchCommand.run(common + extra, in: folder)
            XCTAssertEqual(text.status, 0, text.output)
            let unique = extra.contains("--unique")
            XCTAssertTrue(text.stdout.contains(unique ? "depth 2: 4  (2 distinct); 2 finished (1 distinct)" : "depth 2: 4; 2 finished (1 distinct)"),
                          "\(extra): \(text.stdout)")
            XCTAssertTrue(text.stdout.contains("finished games: 4, ending at 2 distinct positions"), "\(extra): \(text.stdout)")
        }
    }
}
