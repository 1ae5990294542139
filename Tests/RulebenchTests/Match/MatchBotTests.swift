import XCTest
import Rulebench
@testable import RulebenchMatch

/// The server's seats (`MatchBot`): a pure function of the match at its
/// version, and the greedy bot's preference for the goal's least estimate.
final class MatchBotTests: XCTestCase {
    /// `race`: two seats adding 1, 2 or 3 to their count; the goal `p2 at 10`, with its estimate.
    private func racePack() throws -> URL {
        try temporaryPack([
            "add": """
                return {
                  params = { player = "string", by = "integer" },
                  legal = function(game, emit) for _, p in ipairs({ "p1", "p2" }) do for by = 1, 3 do emit{ player = p, by = by } end end end,
                  apply = function(game, a) game.count[a.player] = game.count[a.player] + a.by end,
                  undo = function(game, a) game.count[a.player] = game.count[a.player] - a.by end,
                }
                """,
        ], manifest: """
            return { name = 'race', version = '1.0', seats = { 'p1', 'p2' },
              setup = function(game) game.count = { p1 = 0, p2 = 0 } end,
              goals = { p2_at_10 = { holds = function(game) return game.count.p2 >= 10 end,
                                     estimate = function(game) return math.max(0, 10 - game.count.p2) / 3 end } } }
            """, prefix: "race")
    }

    func testTheGreedyBotTakesTheCallWithTheLeastEstimateAndLeavesTheGameAsItWas() throws {
        let store = try SQLiteMatchStore(folder: try scratchFolder("bot"))
        let match = try Match.create(pack: try racePack().path, seed: 3, store: store, engine: matchEngine())
        for _ in 0..<3 {
            let before = try match.game.liveStateHash()
            let request = try XCTUnwrap(try MatchBot.greedy.request(in: match, seat: "p2", run: 0))
            XCTAssertEqual(try match.game.liveStateHash(), before, "each call tried was undone")
            XCTAssertEqual(request.clientCallID.text, "bot-v\(match.version)")
            guard case .perform(let call) = request.action else { return XCTFail("not a call") }
            XCTAssertEqual(call.params["player"], .string("p2"), "the bot makes its own seat's calls")
            XCTAssertEqual(call.params["by"], .int(3), "the least estimate of the goal")
            guard case .accepted = match.handle(request) else { return XCTFail("the bot's call was refused") }
        }
        XCTAssertEqual(try match.game.state(at: StatePath(parsing: "count.p2")), .int(9))
    }

    func testTheRandomBotIsAFunctionOfTheMatchAtItsVersion() throws {
        let store = try SQLiteMatchStore(folder: try scratchFolder("bot"))
        let match = try Match.create(pack: try racePack().path, seed: 3, store: store, engine: matchEngine())
        var picks: [ActionCall] = []
        for _ in 0..<6 {
            let request = try XCTUnwrap(try MatchBot.random.request(in: match, seat: "p1", run: 0))
            XCTAssertEqual(try MatchBot.random.request(in: match, seat: "p1", run: 0), request, "the same state, the same request")
            guard case .perform(let call) = request.action, case .accepted = match.handle(request) else { return XCTFail("\(request)") }
            picks.append(call)
        }
        XCTAssertGreaterThan(Set(picks.map { $0.params["by"] }).count, 1, "the picks vary with the version")
    }

    func testABotWaitsForItsTurnInAPackWithTurns() throws {
        let store = try SQLiteMatchStore(folder: try scratchFolder("bot"))
        let match = try Match.create(pack: "desert", options: ["players": .int(2)], seed: 5, store: store, engine: matchEngine())
        XCTAssertNil(try MatchBot.random.request(in: match, seat: "p2", run: 0), "p1's turn: p2's bot waits")
        XCTAssertNotNil(try MatchBot.random.request(in: match, seat: "p1", run: 0))
        let end = try XCTUnwrap(try MatchBot.random.request(in: match, seat: "p1", run: MatchBot.maximumRun))
        guard case .perform(let call) = end.action else { return XCTFail("not a call") }
        XCTAssertEqual(call.name, "end_turn", "a bot past its run ends its turn")
    }
}
