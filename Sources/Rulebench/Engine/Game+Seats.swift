/// Seats and secrets on a game (`Kernel/seats.lua`; docs/lua-api.md,
/// "Seats and secrets"): what a match server calls to let each connection
/// act as its seat and send it exactly its view.
extension Game {
    /// A step performed as a seat: the history's entry (the author's: it
    /// holds the full state hash, which no seat may be sent), whether it is
    /// a players' undo barrier, and each seat's view of the step, to send
    /// to that seat alone.
    public struct SeatedStep: Sendable {
        public let entry: HistoryEntry
        /// Why the step is a players' undo barrier ("generator": it drew
        /// from the random generator; "secret": it touched or showed a
        /// hidden slot), nil when it is not. The same in every seat's view.
        public let barrier: String?
        /// Seat -> its view hash after the step, its redacted plan, its
        /// changes as it may see them, the barrier. Empty when the perform
        /// asked for none (`perform(_:as:views:)`).
        public let views: [String: SeatStepView]
    }

    /// The game's seats, in the pack's order (empty when the pack declares none).
    public func seats() throws(RulebenchError) -> [String] {
        try kernel.seats()
    }

    /// Performs a call as `seat`. A seat may make a call when `turn` lets
    /// it act now and the call is its to make (the action's `seat`; by
    /// default its param `seat` or `player`); otherwise this throws
    /// `.rejected` with the pack's reason and nothing changes. With
    /// `views`, each seat's view of the step is read (from what the step
    /// wrote, once for every seat); without, only the barrier (a replay that
    /// checks hashes and sends nothing). One crossing.
    @discardableResult
    public func perform(_ call: ActionCall, as seat: String, views: Bool = true) throws(RulebenchError) -> SeatedStep {
        let reply = try kernel.perform(call, as: seat, views: views)
        return SeatedStep(entry: performed(call, reply.perform), barrier: reply.barrier, views: reply.views)
    }

    /// The legal calls `seat` may make now (none while it may not act).
    public func legalActions(as seat: String) throws(RulebenchError) -> [ActionCall] {
        try kernel.legal(as: seat)
    }

    /// The legal calls of every seat now, by seat: the pack's legal and
    /// turn run once for all (a server sending each seat its calls after a step).
    public func legalActionsBySeat() throws(RulebenchError) -> [String: [ActionCall]] {
        try kernel.legalBySeat()
    }

    /// Why `seat` may not make `call` now, the pack's reason; nil when it may.
    public func refusal(_ call: ActionCall, as seat: String) throws(RulebenchError) -> String? {
        try kernel.refusal(call, as: seat)
    }

    /// `seat`'s view of the state now, and its hash.
    public func view(as seat: String) throws(RulebenchError) -> SeatView {
        guard !seat.isEmpty else { throw .badInput(InputProblem("a seat's name is not empty (publicView() is the spectators' view)")) }
        return try kernel.view(of: seat)
    }

    /// The spectators' view, the public one: the state with every slot
    /// hidden that `secrets` marks from some seat (a slot shows only when
    /// every seat may see it), and its hash; `seat` is "".
    public func publicView() throws(RulebenchError) -> SeatView {
        try kernel.view(of: "")
    }

    /// The hash of `seat`'s view now (nil: the public view's), the
    /// `SeatView.hash` its view would have, without building the view.
    public func viewHash(as seat: String?) throws(RulebenchError) -> String {
        if seat?.isEmpty == true { throw .badInput(InputProblem("a seat's name is not empty (nil is the spectators' view)")) }
        return try kernel.viewHash(of: seat ?? "")
    }

    /// A player's "undo turn": back to the last checkpoint as `undoTurn`
    /// goes, but never past a step that revealed a secret or drew from the
    /// random generator (a players' barrier, which stays applied). The
    /// author's `undoTurn` and `undo` are unchanged.
    @discardableResult
    public func undoTurn(as seat: String) throws(RulebenchError) -> [UndoOutcome] {
        guard try seats().contains(seat) else {
            throw .badInput(InputProblem("unknown seat '\(seat)'"))
        }
        return try undoTravel(.seatTurn)
    }

    /// `seat`'s scene: the pack's view with every word only slots hidden
    /// from the seat hold replaced (a face-down card's node id "card:?1");
    /// nil when the pack declares no view.
    public func scene(as seat: String) throws(RulebenchError) -> Scene? {
        try kernel.scene(as: seat)
    }

    /// A spectator's scene, the public one: the pack's view with every word
    /// replaced that only slots hold which some seat may not see (a slot
    /// `secrets` marks shows only when every seat may see it); nil when the
    /// pack declares no view.
    public func publicScene() throws(RulebenchError) -> Scene? {
        try kernel.scene(as: "")
    }

    /// The no-leak probe of a step for `seat`: `step` runs from the current
    /// state as it is and with what is hidden from the seat rearranged
    /// (both rolled back); when the seat's views after the two are the
    /// same, its views of the two plans must be too. Nil when they are.
    public func stepProbe(_ seat: String, _ step: ActionCall, salt: Int = 1) throws(RulebenchError) -> SeatLeak? {
        try kernel.stepProbe(seat, step, salt: salt)
    }

    /// The no-leak probe of the current state for `seat`: what is hidden
    /// from it is rearranged (the generator reseeded from `salt`, each
    /// table's hidden slots rotated), and its view, offered calls and
    /// scene must not change. Nil when they did not; the state is as before either way.
    public func leakProbe(_ seat: String, salt: Int = 1) throws(RulebenchError) -> SeatLeak? {
        try kernel.leakProbe(seat, salt: salt)
    }
}
