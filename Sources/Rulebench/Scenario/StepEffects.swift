// What a step's operation (do, undo, redo) left for its expectations to look
// at: the history entry, the animations played, the undone pairs, and the
// error it failed with. Invariant: `failed` is true exactly when the
// operation itself failed, and then its own mismatch is recorded (at once,
// or in `stepError` until `error:` is judged).

/// What an operation left for the expectations to look at.
struct StepEffects {
    var entry: HistoryEntry?
    var animations: [ActionAnimation] = []
    /// For each undone action: its do animation and its undo animation.
    var undone: [(done: ActionAnimation, undone: ActionAnimation)] = []
    /// The operation itself failed; its own mismatch is already recorded.
    var failed = false
    var diffTitle = "state changed by this step"
    var diffOverride: [StateChange]?
    /// The invariants a `do` failed on (the state was rolled back, so
    /// they are judged from the error, not from the state after).
    var brokenByAction: [String]?
    /// The error an undo or redo step failed with, and its mismatch (kept
    /// apart until `error:` is judged: an expected error is no failure).
    var stepError: (message: String, mismatch: Mismatch)?
    /// The goals that start a sequence and held before a `do` (read only when `sequence:` is expected).
    var goalsHeldBefore: Set<String> = []
}
