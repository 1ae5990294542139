import Foundation
import XCTest
import Rulebench
@testable import RulebenchMatch

/// What the match tests share: a small pack whose calls can fail in every
/// way a call can, desert from the repository, and a store that fails on demand.
extension XCTestCase {
    /// `tally`: two seats counting (every seat may act at any time; a call
    /// is the seat's its `player` names). `add` adds `by` (default 1) to its
    /// player's count; `by` 13 is a Lua error, 99 loops forever (the
    /// budget), a negative one is refused by `check`, 7 is undone wrongly
    /// (an undo the engine cannot prove). `pass` is a checkpoint: it ends
    /// its player's turn.
    func tallyPack(addBody: String = "game.count[a.player] = game.count[a.player] + (a.by or 1)") throws -> URL {
        try temporaryPack([
            "add": """
                return {
                  params = { player = "string", by = "integer?" },
                  legal = function(game, emit) emit{ player = "p1" } emit{ player = "p2" } end,
                  check = function(game, a) if (a.by or 1) < 0 then return "no negative steps" end end,
                  apply = function(game, a)
                    if a.by == 13 then error("unlucky thirteen") end
                    if a.by == 99 then while true do end end
                    \(addBody)
                  end,
                  undo = function(game, a)
                    if a.by == 7 then return end
                    game.count[a.player] = game.count[a.player] - (a.by or 1)
                  end,
                }
                """,
            "pass": """
                return {
                  params = { player = "string" },
                  checkpoint = true,
                  apply = function(game, a) game.passes = game.passes + 1 end,
                }
                """,
        ], manifest: "return { name = 'tally', version = '1.0', seats = { 'p1', 'p2' }, "
            + "setup = function(game) game.count = { p1 = 0, p2 = 0 } game.passes = 0 end }",
           prefix: "tally")
    }

    /// An engine for the tests: rule prints swallowed, a budget a loop reaches quickly, packs under the repository's rules/.
    func matchEngine() -> MatchEngine {
        var configuration = Game.Configuration()
        configuration.instructionBudget = 200_000
        configuration.printHandler = { _ in }
        configuration.rulesDirectory = EngineFixtures.repository.appendingPathComponent("rules")
        return MatchEngine(configuration: configuration)
    }

    func request(_ seat: String, _ id: String, at version: Int, _ action: String = "add", by: Int64? = nil) -> MatchRequest {
        var params: [String: StateValue] = ["player": .string(seat)]
        if let by { params["by"] = .int(by) }
        return MatchRequest(seat: seat, clientCallID: ClientCallID(id)!, expectedVersion: version, action: .perform(ActionCall(action, params)))
    }

    func takeBack(_ seat: String, _ id: String, at version: Int, consent: Set<String> = []) -> MatchRequest {
        MatchRequest(seat: seat, clientCallID: ClientCallID(id)!, expectedVersion: version, action: .takeBack(consent: consent))
    }
}

/// A store that refuses appends while `failing` is set, as a full disk would.
final class FailingStore: MatchStore, @unchecked Sendable {
    let inner: SQLiteMatchStore
    private let lock = NSLock()
    private var _failing = false
    var failing: Bool {
        get { lock.withLock { _failing } }
        set { lock.withLock { _failing = newValue } }
    }

    init(_ inner: SQLiteMatchStore) { self.inner = inner }

    var location: String { inner.location }
    func create(_ setup: MatchSetup) throws(MatchStoreError) -> MatchID { try inner.create(setup) }
    func append(_ record: MatchRecord, to match: MatchID) throws(MatchStoreError) {
        if failing { throw MatchStoreError(.unavailable, "disk full", store: location, match: match, action: "append", next: "") }
        try inner.append(record, to: match)
    }
    func log(of match: MatchID) throws(MatchStoreError) -> MatchLog { try inner.log(of: match) }
    func liveMatches() throws(MatchStoreError) -> [MatchID] { try inner.liveMatches() }
    func finish(_ match: MatchID, result: String) throws(MatchStoreError) { try inner.finish(match, result: result) }
}
