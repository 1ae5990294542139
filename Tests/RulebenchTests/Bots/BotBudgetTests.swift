import Foundation
import XCTest
@testable import Rulebench

/// An `alphabeta` bot's work per move is bounded by its budget of states
/// (`Bot.nodeBudget`, `GameValue.nodeBudget`): a search far too deep to
/// finish stops at the budget with the last round it finished, the same
/// move for the same seed, the game back where it was. What keeps a match
/// room's thread (shared with other rooms) from being held by one bot.
final class BotBudgetTests: XCTestCase {
    /// Four in a row on a 4 by 4 board: far more states than a small budget.
    private func board() throws -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        return try Game(pack: TestPaths.repository("rules/tictactoe").path,
                        options: ["cols": .int(4), "rows": .int(4), "k": .int(4)], seed: 0, configuration: configuration)
    }

    func testADeepSearchStopsAtItsBudgetWithTheLastRoundFinished() throws {
        let game = try board()
        let before = game.stateHash
        let result = try GameValue(game: game, maxDepth: 200, nodeBudget: 3000).run(lines: false)
        XCTAssertLessThanOrEqual(result.statistics.nodes, 3000, "the search went past its budget")
        guard case .valued(_, let moves, _, let depth, let proven) = result.outcome else { return XCTFail("\(result.outcome)") }
        XCTAssertEqual(moves.count, 16)
        XCTAssertFalse(proven)
        XCTAssertGreaterThan(depth, 1, "the budget pays for more than the first round")
        XCTAssertLessThan(depth, 200)
        XCTAssertEqual(game.stateHash, before)
        XCTAssertEqual(game.history.cursor, 0)
    }

    func testABudgetedAlphabetaBotAnswersTheSameForTheSameSeed() throws {
        let bot = try XCTUnwrap(Bot(spec: "alphabeta:200:2000"))
        XCTAssertEqual(bot.nodeBudget, 2000)
        XCTAssertEqual(bot.description, "alphabeta:200:2000")
        XCTAssertEqual(Bot(spec: "alphabeta:9")?.nodeBudget, Bot.defaultNodeBudget)
        for wrong in ["alphabeta:9:0", "alphabeta:9:x", "mcts:9:0", "mcts:9:x", "random:1:5", "alphabeta:9:99999999"] { XCTAssertNil(Bot(spec: wrong), wrong) }
        let calls = try board().legalActions(as: "x")
        let first = try bot.choose(calls, in: try board(), seat: "x", seed: 5)
        XCTAssertEqual(try bot.choose(calls, in: try board(), seat: "x", seed: 5), first)
        XCTAssertTrue(calls.contains(first))
    }

    /// `mcts` is bounded by its budget of moves, not only by its playouts:
    /// 100,000 playouts on a 4 by 4 board stop after 1,000 moves performed
    /// (the playout cut short dropped), the game back where it was, and the
    /// same call for the same seed. Old specs keep their meaning.
    func testAnMctsSearchStopsAtItsBudgetOfMoves() throws {
        let game = try board()
        let before = game.stateHash
        let calls = try game.legalActions(as: "x")
        var search = MonteCarloSearch(game: game, seat: "x", playouts: Bot.largestPlayouts, moveBudget: 1000)
        var random = FuzzRandom(seed: 5)
        let first = try search.best(among: calls, random: &random)
        XCTAssertEqual(search.moves, 1000, "the search did not stop at its budget of moves")
        XCTAssertGreaterThan(search.finishedPlayouts, 10)
        XCTAssertLessThanOrEqual(search.finishedPlayouts, 1000 / 7, "every move counted: a game of four in a row lasts 7 moves or more")
        XCTAssertEqual(game.stateHash, before)
        XCTAssertEqual(game.history.cursor, 0)
        XCTAssertTrue(calls.contains(first))

        let bot = try XCTUnwrap(Bot(spec: "mcts:100000:1000"))
        XCTAssertEqual(bot.nodeBudget, 1000)
        XCTAssertEqual(bot.description, "mcts:100000:1000")
        XCTAssertEqual(Bot(spec: "mcts:400")?.description, "mcts:400")
        XCTAssertEqual(Bot(spec: "mcts:400")?.nodeBudget, Bot.defaultMoveBudget)
        XCTAssertEqual(Bot(.mcts(playouts: 9)).nodeBudget, Bot.defaultMoveBudget)
        XCTAssertEqual(try bot.choose(calls, in: game, seat: "x", seed: 5), first)
        XCTAssertEqual(try bot.choose(calls, in: try board(), seat: "x", seed: 5), first)
    }
}
