import Rulebench

/// What one audience (a seat, or the spectators) sees of one accepted step:
/// the hash of its view after the step, the step's animation plan and its
/// changes as it may see them. Never the full state's hash, nothing derived from a slot
/// hidden from the audience (see `Match.views(of:spectators:)`).
public struct StepView: Sendable, Equatable {
    /// The hash of the audience's view after the step.
    public let viewHash: String
    /// The plan, redacted for the audience; nil for a takeback (its client
    /// plays its own view of the taken-back step's plan in reverse).
    public let plan: StateValue?
    /// The step's changes as the audience may see them (`SeatChange`); nil
    /// for a takeback (its client undoes its own view of the taken-back step's changes).
    public let changes: [SeatChange]?
    /// Whether the step is an undo barrier (it drew or revealed): its seat cannot take it back.
    public let barrier: Bool

    public init(viewHash: String, plan: StateValue?, changes: [SeatChange]?, barrier: Bool) {
        self.viewHash = viewHash
        self.plan = plan
        self.changes = changes
        self.barrier = barrier
    }
}
