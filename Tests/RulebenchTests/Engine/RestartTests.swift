import XCTest
@testable import Rulebench

/// `Game.restart` reuses the Lua state: it must give exactly what a new game gives.
final class RestartTests: XCTestCase {
    private func configuration() -> Game.Configuration {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        configuration.rulesDirectory = EngineFixtures.repository.appendingPathComponent("rules")
        return configuration
    }

    func testARestartedGameMatchesANewGame() throws {
        for pack in ["cards", "desert", "template"] {
            let reused = try Game(pack: pack, seed: 1, configuration: configuration())
            _ = try reused.playFirstLegal(steps: 12)
            try reused.restart(seed: 7)
            XCTAssertEqual(reused.history.entries.count, 0)
            XCTAssertEqual(reused.seed, 7)
            let fresh = try Game(pack: pack, seed: 7, configuration: configuration())
            XCTAssertEqual(try reused.playFirstLegal(steps: 20), try fresh.playFirstLegal(steps: 20), pack)
        }
    }

    func testRestartingStartsModuleStateAfresh() throws {
        let pack = EngineFixtures.folder.appendingPathComponent("counter").path
        let game = try Game(pack: pack, seed: 1, configuration: configuration())
        for _ in 0..<3 { try game.perform("bump") }
        XCTAssertEqual(try game.state(at: "seen"), .int(3))
        try game.restart(seed: 1, options: ["start": .int(10)])
        XCTAssertEqual(try game.state(at: "seen"), .int(0), "the module's local starts again")
        try game.perform("bump")
        XCTAssertEqual(try game.state(at: "seen"), .int(1))
        XCTAssertEqual(try game.state(at: "count"), .int(11))
    }

    func testAProgramRunsTheSameInAReusedGame() throws {
        // The fuzzer's executor keeps its games between programs: a program
        // must give the same hashes after another program as on its own.
        var fuzzer = Fuzzer.Options(pack: "desert")
        fuzzer.configuration = configuration()
        let generator = Fuzzer(options: fuzzer)
        let (first, _) = generator.generate(gameSeed: 11, choiceSeed: 1)
        let (second, _) = generator.generate(gameSeed: 12, choiceSeed: 2)
        let reused = generator.executor.execute(second, checkLegality: true)
        let fresh = Fuzzer(options: fuzzer).executor.execute(second, checkLegality: true)
        XCTAssertFalse(first.steps.isEmpty)
        XCTAssertTrue(reused.valid)
        XCTAssertNil(reused.finding)
        XCTAssertEqual(reused.trace, fresh.trace)
        XCTAssertEqual(reused.outcomes, fresh.outcomes)
    }
}
