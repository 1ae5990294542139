import XCTest
@testable import Rulebench

/// `Game.countInstructions`, the benchmarks' exact measure: its hook must
/// survive the bridge's own hook handling from call to call.
final class InstructionCountTests: XCTestCase {
    func testCountsEveryCallByFunction() throws {
        var configuration = Game.Configuration()
        configuration.instructionBudget = 0
        configuration.rulesDirectory = EngineFixtures.repository.appendingPathComponent("rules")
        let game = try Game(pack: "template", seed: 1, configuration: configuration)
        let counts = try game.countInstructions {
            for _ in 0..<3 {
                try game.perform(try XCTUnwrap(game.legalActions().first))
                try game.undo()
                try game.redo()
            }
        }
        XCTAssertGreaterThan(counts.values.reduce(0, +), 1000)
        XCTAssertTrue(counts.keys.contains { $0.hasPrefix("rulebench/Kernel/engine.lua:") }, "\(counts.keys.sorted())")
        XCTAssertTrue(counts.keys.contains { $0.hasPrefix("rules/template/actions/") }, "\(counts.keys.sorted())")
    }
}
