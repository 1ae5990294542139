import XCTest
@testable import Rulebench

/// The kernel's collector (core.lua: generational, minor multiplier
/// GC_MINOR 100, major GC_MAJOR 200) trades memory for fewer collections;
/// what it may cost is bounded. A game that performs and undoes makes
/// garbage at every operation while what it keeps stays the same; its heap
/// must come back within (1 + 1) x (1 + 2) = 6 times what a full collection leaves,
/// the most those multipliers let it reach, however long it plays. A
/// collector stopped, or set far lazier, fails this.
final class KernelCollectorTests: XCTestCase {
    func testHeapStaysWithinTheCollectorsBoundWhilePlaying() throws {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        configuration.rulesDirectory = EngineFixtures.repository.appendingPathComponent("rules")
        let game = try Game(pack: "desert", seed: 5, configuration: configuration)
        let calls = try game.legalActions()
        XCTAssertFalse(calls.isEmpty)
        _ = try game.kernel.call(.gc)
        let live = game.memoryUsed
        var peak = live, made = 0
        for round in 0..<1_500 {
            let before = game.memoryUsed
            _ = try game.perform(calls[round % calls.count])
            _ = try game.undo()
            let after = game.memoryUsed
            made += max(0, after - before)
            peak = max(peak, after)
        }
        XCTAssertGreaterThan(made, live * 6, "the loop makes more garbage than the bound, so a stopped collector fails")
        XCTAssertLessThanOrEqual(peak, live * 6 + (1 << 20), "peak \(peak) bytes against \(live) live")
    }
}
