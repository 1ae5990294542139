// One step of a fuzz program, and how reports and corpora show it. A count
// (`undo N`, `redo N`) is at most `maximumCount`: a longer one can only come
// from a damaged or hand-made corpus file.

/// One step of a fuzz program: what a player (or a buggy client) does.
public enum FuzzStep: Hashable, Sendable, CustomStringConvertible {
    /// Perform an action that `legal` emitted at this point.
    case perform(ActionCall)
    /// Try an action that may be illegal; a rejection must change nothing.
    case attempt(ActionCall)
    /// Undo this many steps.
    case undo(Int)
    /// Redo this many steps.
    case redo(Int)
    /// Undo back to the last checkpoint.
    case undoTurn
    /// Take back the last turn (`undo: last turn`, `Game.undoLastTurn`):
    /// the last action and those before it back to the checkpoint before it.
    case undoLastTurn

    /// The largest count an `undo N` or `redo N` step may have: no program
    /// has more steps than `FuzzProgram.maximumSteps`, so a larger count
    /// can only come from a damaged or hand-made corpus file.
    public static let maximumCount = FuzzProgram.maximumSteps

    /// The step as the fuzzer's reports show it: `do step {token = "p1"}`, `undo 2`.
    public var description: String {
        switch self {
        case .perform(let call): return "do \(call)"
        case .attempt(let call): return "try \(call)"
        case .undo(let n): return "undo \(n)"
        case .redo(let n): return "redo \(n)"
        case .undoTurn: return "undo turn"
        case .undoLastTurn: return "undo last turn"
        }
    }
}
