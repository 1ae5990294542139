// Where a walk of every line of play failed: the path from where it began
// and the error. Invariant: the path ends with the failing action.

/// Where an exploration failed: the action sequence from the start, and the error.
public struct ExplorationFailure: Error, CustomStringConvertible {
    /// The actions performed from where the walk began, the failing one last.
    public let path: [ActionCall]
    /// What went wrong.
    public let error: RulebenchError

    /// "after a ; b: the error".
    public var description: String {
        "after " + (path.isEmpty ? "setup" : path.map(\.description).joined(separator: " ; ")) + ": \(error)"
    }
}
