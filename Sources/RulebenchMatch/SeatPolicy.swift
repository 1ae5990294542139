import Rulebench

/// Who may make which call in a match: the one place seats meet the engine.
///
/// Until the engine knows seats itself (`Game.perform(call, as: seat)`,
/// per-seat views and undo barriers, from the seats-and-secrets work),
/// `ParamSeats` stands in: a call is its seat's when its seat param (desert's
/// `player`) names that seat. Plugging the engine's seats in is a new
/// conformance whose `perform` is `game.perform(call, as: seat)` and whose
/// `barrier` asks the engine whether the step revealed a secret or drew from
/// the generator; `Match` and recovery call nothing else, so nothing else changes.
public protocol SeatPolicy: Sendable {
    /// Performs `call` in `game` on behalf of `seat`, or throws
    /// `.rejected` with the reason when the seat may not make it; the
    /// engine's own checks (params, `check`, budgets, invariants) apply as
    /// always, and on any throw nothing changed.
    func perform(_ call: ActionCall, as seat: String, in game: Game) throws(RulebenchError) -> HistoryEntry

    /// Why the last step in effect (`entry`) may not be taken back (an undo
    /// barrier: it revealed a secret to a seat or drew from the generator),
    /// or nil when it may.
    func barrier(_ entry: HistoryEntry, in game: Game) -> String?
}

/// Seats as a call's param names them: the call `move player=p2 to=b3` is
/// `p2`'s. A call that names no seat (desert's `slide`, which only the game
/// makes as a subaction) is no seat's to send. No step is a barrier: an
/// engine without seats cannot tell a reveal from any other step.
public struct ParamSeats: SeatPolicy {
    /// The param that names the acting seat.
    public let param: String

    public init(param: String = "player") {
        self.param = param
    }

    public func perform(_ call: ActionCall, as seat: String, in game: Game) throws(RulebenchError) -> HistoryEntry {
        guard case .string(let named)? = call.params[param] else {
            throw .rejected(reason: "the call names no seat (its param '\(param)'), so no seat may send it", action: call.name)
        }
        guard named == seat else {
            throw .rejected(reason: "seat \(seat) cannot make a call for \(named)", action: call.name)
        }
        return try game.perform(call)
    }

    public func barrier(_ entry: HistoryEntry, in game: Game) -> String? { nil }
}
