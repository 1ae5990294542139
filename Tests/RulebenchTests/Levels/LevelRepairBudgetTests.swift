import Foundation
import XCTest
@testable import Rulebench

/// `solve --levels`' per-level budget (docs/levels.md): a level whose search
/// runs past `--level-time` ends early, named with the budget it ran out of,
/// left as it was, and the next level is still solved.
final class LevelRepairBudgetTests: XCTestCase {
    static let pipes = TestPaths.repository("Benchmarks/packs/pipes").path

    func testALevelPastItsTimeIsNamedWithTheBudgetAndTheNextIsSolved() throws {
        // Level 1: the pack's default board, 23 turns from the nearest solution, searched breadth-first
        // (goal `connected`): far more than a few batches. Level 2: one turn.
        let file = LevelFile(packReference: Self.pipes, goal: "connected", levels: [
            Level(name: "1", seed: 1, options: ["grid": .string("c59/e5b/612")]),
            Level(name: "2", seed: 2, options: ["grid": .string("18")]),
        ])
        let replay = LevelReplay(file: file, display: "hard.yaml", folder: FileManager.default.temporaryDirectory)
        var ticks = 0.0
        let clock = { () -> Double in   // a second a look: the search is polled between batches
            ticks += 1
            return ticks
        }
        var options = Solver.Options(goal: "connected")
        options.maxDepth = 40
        var changes: [String: LevelRepair.Change] = [:]
        let repaired = try LevelRepair(replay: replay, solverOptions: options, levelSeconds: 5, clock: clock)
            .run(in: try replay.makeGame(), change: { level, change in changes[level.name] = change })
        guard case .unsolved(let why)? = changes["1"] else { return XCTFail("\(changes)") }
        XCTAssertTrue(why.hasPrefix("out of its budget: --level-time 5 s ended its search after "), why)
        XCTAssertEqual(changes["2"], .solved(was: nil, moves: 1))
        XCTAssertNil(repaired.levels[0].solution, "the level out of budget is left as it was")
        XCTAssertEqual(repaired.levels[1].solution?.calls.count, 1)
        XCTAssertLessThan(ticks, 40, "the search ended at its budget, not at its end")
    }
}
