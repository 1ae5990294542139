import XCTest
@testable import Rulebench

/// `Explorer` walks subtrees inside the kernel: it must count, check and
/// fail exactly as a walk through `Game` does, and leave the game as it was.
final class ExplorerTests: XCTestCase {
    static let walk = EngineFixtures.folder.appendingPathComponent("walk").path

    private func game(_ pack: String, bug: String? = nil, spin: Int64 = 120_000, budget: Int64 = 10_000_000) throws -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        configuration.instructionBudget = budget
        configuration.rulesDirectory = EngineFixtures.repository.appendingPathComponent("rules")
        let options: [String: StateValue] = bug.map { ["bug": .string($0), "spin": .int(spin)] } ?? [:]
        return try Game(pack: pack, options: options, seed: 1, configuration: configuration)
    }

    /// The same walk through Game, one crossing per node (the reference).
    private func countThroughGame(_ game: Game, depth: Int) throws -> [Int] {
        var counts = Array(repeating: 0, count: depth)
        func visit(_ level: Int) throws {
            guard level < depth else { return }
            for call in try game.legalActions() {
                try game.perform(call)
                counts[level] += 1
                try visit(level + 1)
                try game.undo()
            }
        }
        try visit(0)
        return counts
    }

    func testKernelWalksCountWhatGameWalksCount() throws {
        for (pack, depth) in [("cards", 5), ("desert", 2), ("template", 4), (Self.walk, 4),
                              (EngineFixtures.repository.appendingPathComponent("Benchmarks/packs/chess").path, 2)] {
            let reference = try countThroughGame(try game(pack), depth: depth)
            let explored = try game(pack)
            let before = try explored.liveStateHash()
            XCTAssertEqual(try Explorer(game: explored, depth: depth).run().nodes, reference, pack)
            XCTAssertEqual(try explored.liveStateHash(), before, "\(pack): the walk leaves the state as it was")
            XCTAssertEqual(explored.history.cursor, 0)
        }
    }

    func testAnUndoBugIsReportedWithItsPathAndTheStateIsRestored() throws {
        let g = try game(Self.walk, bug: "undo")
        let before = try g.liveStateHash()
        XCTAssertThrowsError(try Explorer(game: g, depth: 3).run()) { error in
            guard let failure = error as? ExplorationFailure, case .undoMismatch(let problems) = failure.error else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(failure.path, [ActionCall("mark", ["n": .int(1)]), ActionCall("mark", ["n": .int(3)])])
            XCTAssertEqual(problems.first?.action, "mark")
            XCTAssertEqual(problems.first?.differences.first?.path, "depth")
        }
        XCTAssertEqual(try g.liveStateHash(), before)
        try g.perform("mark", ["n": .int(1)])   // the game still plays
    }

    func testAnErrorDeepInTheWalkNamesItsPathAndLine() throws {
        let g = try game(Self.walk, bug: "error")
        let before = try g.liveStateHash()
        XCTAssertThrowsError(try Explorer(game: g, depth: 3).run()) { error in
            guard let failure = error as? ExplorationFailure, case .script(let script) = failure.error else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(failure.path, [ActionCall("mark", ["n": .int(1)]), ActionCall("mark", ["n": .int(2)])])
            XCTAssertEqual(script.location?.line, 13)
            XCTAssertTrue(script.message.contains("mark failed here"))
        }
        XCTAssertEqual(try g.liveStateHash(), before)
        XCTAssertEqual(try g.state(at: "depth"), .int(0))
    }

    func testEveryOperationOfAWalkHasItsOwnBudget() throws {
        // Each apply spends 60% of the budget; the walk as a whole spends far more.
        let g = try game(Self.walk, bug: "slow", budget: 200_000)
        XCTAssertEqual(try Explorer(game: g, depth: 2).run().nodes, [3, 9])
        // A budget this large runs operations unhooked under the watchdog;
        // each of these runs past its time allowance, so the walk is run
        // again counted, still with a budget per operation.
        let watched = try game(Self.walk, bug: "slow", spin: 2_400_000, budget: 4_000_000)
        XCTAssertEqual(try Explorer(game: watched, depth: 2).run().nodes, [3, 9])
        // And one operation past its budget fails as a counted call would.
        let over = try game(Self.walk, bug: "slow", spin: 300_000, budget: 200_000)
        XCTAssertThrowsError(try Explorer(game: over, depth: 2).run()) { error in
            guard let failure = error as? ExplorationFailure, case .budgetExceeded(let budget) = failure.error else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(budget.location?.line, 12)
            XCTAssertEqual(failure.path, [ActionCall("mark", ["n": .int(1)])])
        }
    }

    /// An operation that waits without running (here a print whose handler
    /// sleeps; on a loaded machine, a thread waiting for a core) is judged by
    /// its CPU time, not its wall time: even with the watchdog held off, so
    /// that it takes no sample of it, the walk is not run again. Before the
    /// Lua thread read its own CPU clock (the mark, watchdog.c), such an
    /// operation was suspect and its whole kernel call ran twice.
    func testAnOperationThatWaitsDoesNotRunItsWalkAgain() throws {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in Thread.sleep(forTimeInterval: 0.02) }
        configuration.rulesDirectory = EngineFixtures.repository.appendingPathComponent("rules")
        let g = try Game(pack: Self.walk, options: ["bug": .string("nap")], seed: 1, configuration: configuration)
        LuaVM.pauseWatchdog(true)
        defer { LuaVM.pauseWatchdog(false) }
        XCTAssertEqual(try Explorer(game: g, depth: 2).run().nodes, [3, 9])
        XCTAssertEqual(g.kernel.reruns.calls, 0)
        XCTAssertEqual(g.kernel.reruns.operations, 0)
    }
}
