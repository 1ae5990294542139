import Rulebench

/// One match played together: the authoritative state machine around a
/// `Game`, and the log that makes it durable (docs/multiplayer.md).
///
/// Every request goes through `handle`, in this order:
/// 1. A (seat, client call id) already accepted is answered from the log,
///    never performed again (a call resent after a lost connection).
/// 2. A finished match refuses everything; a request made against another
///    version than the match's is stale: refused with the current version.
/// 3. The call is checked and performed through the seat policy and the
///    engine; a refusal, a Lua error, a budget overrun or a failed invariant
///    is a refusal to that seat, the game unchanged, and the match goes on.
/// 4. The step is appended to the store, which syncs it, and only then is
///    it acknowledged (`.accepted`). If the store fails, the step is taken
///    back out of the game and refused as `.unavailable`: the log and the
///    game never part.
///
/// Invariant: the game is the log replayed. `game.history.cursor` is the
/// number of calls in effect (`inEffect.count`), and the state hash is the
/// last record's (or the setup's).
///
/// Not thread-safe, as `Game` is not: a server gives each match one owner
/// (an actor or a serial queue) and sends it one request at a time.
public final class Match {
    public let id: MatchID
    public let setup: MatchSetup
    /// Every accepted step, in version order (`records[i].version == i + 1`).
    public private(set) var records: [MatchRecord]
    /// Whether the match is over (`finish`): it then refuses every request.
    public private(set) var isFinished = false
    /// Why the match stopped taking requests, when its game could not be
    /// brought back in step with its log (see `restore`); nil while it plays.
    public private(set) var halted: String?

    /// The game, to read (state, legal calls, views): change it only through
    /// `handle`, or the log and the game part.
    public let game: Game
    let store: any MatchStore
    let engine: MatchEngine
    /// The version each (seat, client call id) made.
    private var accepted: [SeatCall: Int] = [:]
    /// The versions of the calls in effect, oldest first: a takeback removes the last.
    var inEffect: [Int] = []
    /// Why each call in effect that is an undo barrier may not be taken back, by version.
    var barriers: [Int: String] = [:]

    /// The version: how many steps the log holds.
    public var version: Int { records.count }

    /// The state hash the log says the game is in.
    public var hash: StateHash { records.last?.hash ?? setup.initialHash }

    /// A match whose game is already `records` replayed (`create`, `resume`);
    /// `barriers` are the replay's, for the calls in effect.
    init(id: MatchID, setup: MatchSetup, records: [MatchRecord], barriers: [Int: String], game: Game, store: any MatchStore,
         engine: MatchEngine) {
        self.id = id
        self.setup = setup
        self.records = []
        self.game = game
        self.store = store
        self.engine = engine
        for record in records { take(record, barrier: barriers[record.version]) }
    }

    /// Creates a match: sets the game up, records the match in the store
    /// (durable when this returns), and returns it at version 0. Its seats
    /// are the game's (the pack's `seats` for these options); `seats`, when
    /// given, must name those. `vetting` sees the seats before anything is
    /// stored and returns why the setup is refused (nil: it is not): a
    /// server's check of what a request names for those seats.
    public static func create(pack: String, options: [String: StateValue] = [:], seed: Int64, seats given: [String]? = nil,
                              takebacks: TakebackPolicy = .currentTurnOnly, store: any MatchStore,
                              engine: MatchEngine, vetting: ([String]) -> String? = { _ in nil }) throws(MatchError) -> Match {
        if let given, let problem = MatchSetup.problem(seats: given) { throw .badSetup(problem) }
        let game: Game, seats: [String]
        do {
            game = try engine.game(pack: pack, options: options, seed: seed)
            seats = try engine.seats.seats(of: game)
        } catch {
            throw .engine(error)
        }
        guard !seats.isEmpty else {
            throw .badSetup("pack \(game.pack.name) declares no seats: a match needs them (seats = { \"p1\", \"p2\" } in its pack.lua)")
        }
        if let problem = MatchSetup.problem(seats: seats) { throw .badSetup("the pack's seats: " + problem) }
        if let given, Set(given) != Set(seats) {
            throw .badSetup("the seats of pack \(game.pack.name) with these options are \(seats.joined(separator: ", ")), "
                            + "not \(given.joined(separator: ", ")) (leave seats out to take the pack's)")
        }
        if let problem = vetting(seats) { throw .badSetup(problem) }
        let setup = MatchSetup(pack: pack, packName: game.pack.name, packVersion: game.pack.version, options: options, seed: seed,
                               seats: seats, takebacks: takebacks, initialHash: game.stateHash)
        do {
            let id = try store.create(setup)
            return Match(id: id, setup: setup, records: [], barriers: [:], game: game, store: store, engine: engine)
        } catch {
            throw .store(error)
        }
    }

    // MARK: Requests

    /// Answers one request (see the type's summary for the order of checks).
    public func handle(_ request: MatchRequest) -> MatchReply {
        if let version = accepted[SeatCall(request.seat, request.clientCallID)] {
            let record = records[version - 1]
            guard request.asks(for: record) else {
                return refuse(.reusedCallID, "client call id \(request.clientCallID) was \(request.seat)'s version \(version) "
                              + "(\(record.summary)); give each call a new id")
            }
            return .answeredAgain(record, current: self.version)
        }
        if let halted { return refuse(.halted, halted) }
        if isFinished { return refuse(.finished, "the match is finished") }
        guard request.expectedVersion == version else { return .stale(current: version) }
        guard setup.seats.contains(request.seat) else {
            return refuse(.unknownSeat, "no seat \(request.seat.prefix(40)) in this match (seats: \(setup.seats.joined(separator: ", ")))")
        }
        switch request.action {
        case .perform(let call): return perform(call, request)
        case .takeBack(let consent): return takeBack(request, consent: consent)
        }
    }

    /// Performs a call, then makes it durable, then acknowledges it.
    private func perform(_ call: ActionCall, _ request: MatchRequest) -> MatchReply {
        let step: Game.SeatedStep
        do {
            step = try engine.seats.perform(call, as: request.seat, in: game, views: true)
        } catch {
            return .refused(MatchRefusal(error, current: version))
        }
        let record = MatchRecord(version: version + 1, seat: request.seat, clientCallID: request.clientCallID,
                                 step: .call(call), hash: step.entry.hash)
        return acknowledge(record, .performed(step), barrier: engine.seats.barrier(step)) { () throws(RulebenchError) in
            try game.undo()
        }
    }

    /// The calls `seat` may make now (none for a seat not the match's, or once it is finished or halted).
    public func legalCalls(as seat: String) throws(RulebenchError) -> [ActionCall] {
        guard setup.seats.contains(seat), !isFinished, halted == nil else { return [] }
        return try engine.seats.legalCalls(as: seat, in: game)
    }

    /// The calls each seat may make now, by seat, enumerated once (none
    /// once the match is finished or halted).
    public func legalCallsBySeat() throws(RulebenchError) -> [String: [ActionCall]] {
        guard !isFinished, halted == nil else { return [:] }
        return try engine.seats.legalCallsBySeat(in: game)
    }

    /// Why the call that made `version` may not be taken back by its seat
    /// (an undo barrier), or nil when it may or is not in effect.
    public func barrier(of version: Int) -> String? { barriers[version] }

    /// Makes a step the engine took durable (the store appends and syncs
    /// it), then acknowledges it. When the store cannot take it, `back`
    /// takes it out of the game again and the request is refused, to be sent again.
    func acknowledge(_ record: MatchRecord, _ detail: MatchReply.Detail, barrier: String? = nil,
                     back: () throws(RulebenchError) -> Void) -> MatchReply {
        do {
            try store.append(record, to: id)
        } catch {
            restore(back)
            // The seat hears what happened, not where the server keeps its files.
            return refuse(.unavailable, "the step could not be stored (\(error.message)); nothing was done: send it again")
        }
        take(record, barrier: barrier)
        return .accepted(record, detail: detail)
    }

    /// Marks the match finished in the store (with the result the server
    /// words); it then refuses every request. Its log is kept.
    public func finish(result: String) throws(MatchStoreError) {
        try store.finish(id, result: result)
        isFinished = true
    }

    // MARK: The log and the game in step

    /// Takes an accepted (durable) record into the log and the maps
    /// (`barrier`: why the call may not be taken back, when it is a barrier).
    func take(_ record: MatchRecord, barrier: String?) {
        records.append(record)
        accepted[SeatCall(record.seat, record.clientCallID)] = record.version
        switch record.step {
        case .call:
            inEffect.append(record.version)
            barriers[record.version] = barrier
        case .takeback(let version):
            inEffect.removeLast()
            barriers[version] = nil
        }
    }

    /// After a step the store did not take (or an undo that was not proven),
    /// brings the game back to the log's last state with `back` (the
    /// inverse of what was done); when that fails or lands elsewhere, plays
    /// the log again from setup, and when even that fails, halts the match.
    func restore(_ back: () throws(RulebenchError) -> Void) {
        do {
            try back()
            if game.stateHash == hash, game.history.cursor == inEffect.count { return }
        } catch {
            // Replayed from the log below.
        }
        do {
            try replayLog()
        } catch {
            halted = "the game could not be brought back in step with the log (\(error)); reload the match from the store"
        }
    }

    func refuse(_ kind: MatchRefusal.Kind, _ reason: String) -> MatchReply {
        .refused(MatchRefusal(kind, reason, current: version))
    }

    /// A seat and one of its client call ids.
    private struct SeatCall: Hashable {
        let seat: String
        let id: ClientCallID
        init(_ seat: String, _ id: ClientCallID) {
            self.seat = seat
            self.id = id
        }
    }
}
