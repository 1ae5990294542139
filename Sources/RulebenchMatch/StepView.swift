import Rulebench

/// What one audience (a seat, or the spectators) sees of one accepted step:
/// the hash of its view after the step and the step's animation plan as it
/// may see it. Never the full state's hash, nothing derived from a slot
/// hidden from the audience (see `Match.views(of:spectators:)`).
public struct StepView: Sendable, Equatable {
    /// The hash of the audience's view after the step.
    public let viewHash: String
    /// The plan, redacted for the audience; nil for a takeback (its client
    /// plays its own view of the taken-back step's plan in reverse).
    public let plan: StateValue?
    /// Whether the step is an undo barrier (it drew or revealed): its seat cannot take it back.
    public let barrier: Bool

    public init(viewHash: String, plan: StateValue?, barrier: Bool) {
        self.viewHash = viewHash
        self.plan = plan
        self.barrier = barrier
    }
}
