/// What one seat of a seated game sees of its state: the state with every
/// slot hidden from the seat replaced by `SeatView.hidden` and the random
/// generator left out, and the hash of that view alone (never the full
/// state's hash, which a seat must not learn: it depends on the secrets).
public struct SeatView: Sendable, Equatable {
    /// What a view holds in place of a hidden slot's value.
    public static let hidden = "(hidden)"
    /// The seat.
    public let seat: String
    /// The state as the seat sees it.
    public let state: StateValue
    /// The hash of `state`, the same for every state the seat cannot tell apart.
    public let hash: String
}

/// What one seat sees of a step: its view's hash after the step, the
/// step's animation plan with every word only hidden slots held replaced
/// ("card:sun3" as "card:?1": a card back), the step's changes as the seat
/// may see them, and whether the step is an undo barrier for players.
public struct SeatStepView: Sendable {
    /// The hash of the seat's view after the step.
    public let hash: String
    /// The plan as the seat may see it (the kernel's plan value, redacted).
    public let plan: StateValue
    /// The step's changes as the seat may see them, in path order (the
    /// tables whose hidden slots changed last): see `SeatChange`.
    public let changes: [SeatChange]
    /// Why the step is a players' undo barrier ("generator": it drew from
    /// the random generator; "secret": it touched or showed a hidden slot),
    /// nil when it is not.
    public let barrier: String?

    init(_ reply: KernelReply) throws(RulebenchError) {
        hash = try reply.string("hash")
        plan = try reply.field("plan").value
        changes = try reply.field("changes").list().map { item throws(RulebenchError) in try SeatChange(item) }
        barrier = try reply.optionalString("barrier")
    }
}

/// A leak the no-leak probe found: what is hidden from `seat` was
/// rearranged (the slots named), and what the seat is shown changed.
public struct SeatLeak: Sendable, Equatable {
    /// What changed: the seat's view of the state, the calls offered to
    /// it, its scene, or (a step's probe) the step's plan or its changes
    /// as it sees them.
    public enum Shown: String, Sendable, CaseIterable {
        case view, calls, scene, plan, changes
    }
    public let seat: String
    public let shown: Shown
    /// The paths of the slots rearranged ("_rng" is the generator).
    public let slots: [String]
    /// The `file:line` of the pack's code that put the secret into what the
    /// seat is shown: the `add{...}` of the scene's first node that differs,
    /// the `emit` of the call offered in one state only, the builder of the
    /// plan's first leaf that differs, the write behind the first change
    /// that differs. Nil when the engine could not tell (a view of the
    /// state, or the difference made by `turn` or `secrets`).
    public let line: String?

    public init(seat: String, shown: Shown, slots: [String], line: String? = nil) {
        self.seat = seat
        self.shown = shown
        self.slots = slots
        self.line = line
    }

    /// The leak in a sentence: before `call` (a step's probe) or in the state.
    public func message(before call: ActionCall?) -> String {
        let what: String
        switch shown {
        case .view: what = "its view of the state"
        case .calls: what = "the calls offered to it"
        case .scene: what = "its scene"
        case .plan: what = "its view of the plan of \(call.map { "\($0)" } ?? "the step")"
        case .changes: what = "its view of the changes of \(call.map { "\($0)" } ?? "the step")"
        }
        return "seat \(seat) is shown what is hidden from it: \(what) changed when the hidden slots were rearranged ("
            + slots.joined(separator: ", ") + ")" + (line.map { "; the secret reached it at \($0)" } ?? "")
    }
}
