/// One change of a step as a seat may see it (`SeatStepView.changes`): a
/// slot whose value in the seat's view differs before and after the step.
/// Derived from the seat's two views alone, never from what the step wrote
/// (which slots a step writes can depend on what is hidden):
/// - a visible slot: its values before and after;
/// - a slot hidden before and after is not listed, unless it appeared or
///   disappeared (`SeatView.hidden` on the side where it exists);
/// - a slot the step revealed: `SeatView.hidden` before, its value after
///   (and the reverse for one it hid);
/// - a table whose hidden slots changed (a face-down deck shuffled,
///   another seat's hand): one change at the table's path with
///   `SeatView.hidden` on both sides: the seat learns that, never what.
public struct SeatChange: Sendable, Equatable {
    /// The slot's path in the state (`hands.p1.2`, `deck`).
    public let path: String
    /// The value before as the seat saw it; nil when the slot was absent.
    public let before: StateValue?
    /// The value after as the seat sees it; nil when the slot is absent.
    public let after: StateValue?

    /// Whether this change says only that hidden slots of a table changed.
    public var isHidden: Bool {
        before == .string(SeatView.hidden) && after == .string(SeatView.hidden)
    }

    init(_ reply: KernelReply) throws(RulebenchError) {
        path = try reply.string("path")
        before = reply.optional("before")?.value
        after = reply.optional("after")?.value
    }
}
