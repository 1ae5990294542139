import Foundation
import XCTest
@testable import Rulebench

/// The bots (`Bot`): how they are written, `alphabeta` against `random` on
/// tic-tac-toe (it never loses), and `mcts`'s moves a function of its seed.
final class BotTests: XCTestCase {
    private func tictactoe(_ options: [String: StateValue] = [:]) throws -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        return try Game(pack: GameValueTests.tictactoe, options: options, seed: 0, configuration: configuration)
    }

    func testBotsAreWrittenAsKindAndParameter() {
        XCTAssertEqual(Bot(spec: "random")?.kind, .random)
        XCTAssertEqual(Bot(spec: "greedy")?.kind, .greedy)
        XCTAssertEqual(Bot(spec: "alphabeta")?.kind, .alphabeta(depth: Bot.defaultDepth))
        XCTAssertEqual(Bot(spec: "alphabeta:4")?.description, "alphabeta:4")
        XCTAssertEqual(Bot(spec: "mcts:50")?.kind, .mcts(playouts: 50))
        for wrong in ["", "randm", "random:3", "alphabeta:0", "alphabeta:x", "mcts:-1", "mcts:1000000"] {
            XCTAssertNil(Bot(spec: wrong), wrong)
        }
    }

    /// Plays one game from the start: `bots` by seat; returns the result's scores. The game is rewound after.
    private func play(_ game: Game, _ bots: [String: Bot], seed: UInt64) throws -> [String: Int] {
        defer { try? game.rewind() }
        while true {
            if let scores = try game.result() { return scores }
            let seat = try ["x", "o"].first { !(try game.legalActions(as: $0)).isEmpty }
            guard let seat, let bot = bots[seat] else { XCTFail("no seat to move and no result"); return [:] }
            let calls = try game.legalActions(as: seat)
            _ = try game.perform(try bot.choose(calls, in: game, seat: seat, seed: seed &+ UInt64(game.history.cursor)), as: seat)
        }
    }

    func testAlphabetaNeverLosesToRandom() throws {
        let game = try tictactoe()
        let alphabeta = try XCTUnwrap(Bot(spec: "alphabeta:9")), random = Bot(.random)
        var wins = 0
        for index in 0..<200 {
            let seat = index % 2 == 0 ? "x" : "o"
            let other = seat == "x" ? "o" : "x"
            let scores = try play(game, [seat: alphabeta, other: random], seed: UInt64(index) &* 7919)
            XCTAssertGreaterThanOrEqual(scores[seat] ?? -1, 0, "game \(index): alphabeta as \(seat) lost")
            if scores[seat] == 1 { wins += 1 }
        }
        XCTAssertGreaterThan(wins, 100, "against random moves, a perfect player wins most games")
    }

    func testMCTSMakesTheSameMovesForTheSameSeed() throws {
        let mcts = try XCTUnwrap(Bot(spec: "mcts:60"))
        func moves(_ seed: UInt64) throws -> [ActionCall] {
            let game = try tictactoe()
            var line: [ActionCall] = []
            while try game.result() == nil {
                let seat = game.history.cursor % 2 == 0 ? "x" : "o"
                let call = try mcts.choose(try game.legalActions(as: seat), in: game, seat: seat, seed: seed)
                line.append(call)
                _ = try game.perform(call, as: seat)
            }
            return line
        }
        let first = try moves(11)
        XCTAssertEqual(try moves(11), first)
        // It blocks: x in 1 and 2, o to move must take 3.
        let game = try tictactoe(["opening": .string("1,5,2")])
        let before = game.stateHash
        let block = try mcts.choose(try game.legalActions(as: "o"), in: game, seat: "o", seed: 3)
        XCTAssertEqual(block, ActionCall("place", ["cell": .int(3)]))
        XCTAssertEqual(game.stateHash, before, "every playout was undone")
        XCTAssertEqual(game.history.cursor, 0)
    }
}
