import Rulebench

/// Who may make which call in a match, and what each seat sees of it: the
/// one place seats meet the engine. `Match` and recovery call nothing else
/// to perform a seat's call, so a replay performs exactly as play did.
public protocol SeatPolicy: Sendable {
    /// Performs `call` in `game` on behalf of `seat`, or throws
    /// `.rejected` with the pack's reason when the seat may not make it;
    /// the engine's own checks (params, `check`, budgets, invariants) apply
    /// as always, and on any throw nothing changed. The step holds the
    /// history's entry (the full state hash: the server's alone), its
    /// barrier and, with `views`, each seat's view of it (a replay, which
    /// sends nothing, asks for none).
    func perform(_ call: ActionCall, as seat: String, in game: Game, views: Bool) throws(RulebenchError) -> Game.SeatedStep

    /// Why a step may not be taken back by its seat (an undo barrier: it
    /// revealed a secret to a seat, wrote a hidden slot, or drew from the
    /// generator), or nil when it may.
    func barrier(_ step: Game.SeatedStep) -> String?

    /// The calls `seat` may make now.
    func legalCalls(as seat: String, in game: Game) throws(RulebenchError) -> [ActionCall]

    /// The calls each seat may make now, by seat (one enumeration for all).
    func legalCallsBySeat(in game: Game) throws(RulebenchError) -> [String: [ActionCall]]

    /// The game's seats, in the pack's order.
    func seats(of game: Game) throws(RulebenchError) -> [String]
}

/// Seats as the engine keeps them (the pack's `seats`, `turn`, `secrets`
/// and each action's `seat`; docs/lua-api.md, "Seats and secrets"): a
/// call is performed with `Game.perform(_:as:)`, refused with the pack's
/// reason, and a step is a barrier when the engine says it revealed or drew.
public struct EngineSeats: SeatPolicy {
    public init() {}

    public func perform(_ call: ActionCall, as seat: String, in game: Game, views: Bool) throws(RulebenchError) -> Game.SeatedStep {
        try game.perform(call, as: seat, views: views)
    }

    public func barrier(_ step: Game.SeatedStep) -> String? {
        guard let why = step.barrier else { return nil }
        switch why {
        case "generator": return "the call drew from the random generator: it stands (an undo barrier)"
        case "secret": return "the call touched or showed what a seat may not see: it stands (an undo barrier)"
        default: return "the call is an undo barrier (\(why)): it stands"
        }
    }

    public func legalCalls(as seat: String, in game: Game) throws(RulebenchError) -> [ActionCall] {
        try game.legalActions(as: seat)
    }

    public func legalCallsBySeat(in game: Game) throws(RulebenchError) -> [String: [ActionCall]] {
        try game.legalActionsBySeat()
    }

    public func seats(of game: Game) throws(RulebenchError) -> [String] {
        try game.seats()
    }
}
