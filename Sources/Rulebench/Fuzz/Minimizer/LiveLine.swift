/// The line a program leaves applied: its steps with every undone step,
/// every redo and every rejected attempt taken out, played straight.
///
/// A uniform run's program is full of undos and redos that come back to
/// where they started; the bug is in what stays applied. Replaying only
/// those steps (and the failing step after them) reaches the same state
/// in fewer steps, and the shrinker tries that first, as one candidate
/// (`Shrinker.straighten`). The invariant: the steps returned, performed
/// from the same start, leave the history the program left at `end`
/// (as the outcomes recorded it), with nothing to redo.
enum LiveLine {
    /// The steps applied after the first `end` steps of `steps`, given
    /// each step's outcome (`outcomes[i]` for `steps[i]`); nil when an
    /// outcome is missing (the program did not run that far).
    static func of(_ steps: [FuzzStep], outcomes: [FuzzExecutor.Outcome], end: Int) -> [FuzzStep]? {
        guard end <= steps.count, end <= outcomes.count else { return nil }
        var applied: [FuzzStep] = []
        var undone: [FuzzStep] = []   // the redo stack, the last undone last
        for (step, outcome) in zip(steps[..<end], outcomes[..<end]) {
            switch (step, outcome) {
            case (.perform, .performed), (.attempt, .performed):
                applied.append(step)
                undone = []
            case (.undo, .undone(let n)), (.undoTurn, .undone(let n)), (.undoLastTurn, .undone(let n)):
                let taken = min(n, applied.count)
                undone += applied.suffix(taken).reversed()
                applied.removeLast(taken)
            case (.redo, .redone(let n)):
                let back = min(n, undone.count)
                applied += undone.suffix(back).reversed()
                undone.removeLast(back)
            default:
                continue   // rejected or failed: it changed nothing
            }
        }
        return applied
    }
}
