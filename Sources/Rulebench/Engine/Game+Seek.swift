/// Time travel over a game's history: moving the cursor to any position by
/// real undos and redos in the engine, never by replaying from the start,
/// in one kernel call (`Kernel.travel`).
///
/// The invariant: after `seek(to:)` the state is the one the engine reached
/// by undoing or redoing every step in between, each checked as `undo()` and
/// `redo()` check it (in strict mode an undo must restore the state exactly
/// and a redo must give the same hash, subaction tree and animation plan),
/// and the outcome says, step by step, which checks held.
extension Game {
    /// What one undo or redo of a seek proved about its step.
    public struct StepCheck: Sendable, Hashable {
        /// Which way the step was crossed.
        public enum Direction: String, Sendable, Hashable {
            case undo, redo
        }

        /// The step (1-based: the entry `step - 1` of the history).
        public let step: Int
        /// Undone or redone.
        public let direction: Direction
        /// Nil when the engine proved it (strict mode); otherwise what differed.
        public let problem: String?
        /// The animation this undo or redo played (an undo's is the mirrored
        /// plan); nil for an undo whose rule did not restore the state.
        public let animation: ActionAnimation?

        /// True when the engine proved this undo or redo.
        public var verified: Bool { problem == nil }
    }

    /// Undoes or redoes until `history.cursor == position`, returning one
    /// check per step crossed, in the order they ran.
    ///
    /// An undo whose rule does not restore the state still takes effect (the
    /// engine repairs it from its journal), so the seek goes on and the check
    /// records the mismatch. A redo that does not reproduce its step changes
    /// nothing, so the seek stops there and throws: the cursor is then where
    /// the failed redo left it.
    ///
    /// - Throws: `.badInput` for a position outside `0...history.count`;
    ///   the redo's error when a redo fails.
    @discardableResult
    public func seek(to position: Int) throws(RulebenchError) -> [StepCheck] {
        _ = try history.position(position)
        let unproved = configuration.strict ? nil : "not checked (strict mode is off)"
        var checks: [StepCheck] = []
        var cursor = history.cursor
        for step in try travelled(.seek(position)).steps {
            switch step {
            case .undone(let hash, let plan, let problems, let entry, _):
                let outcome = UndoOutcome(entry: entry, hash: hash, plan: plan)
                checks.append(problems.isEmpty
                    ? StepCheck(step: cursor, direction: .undo, problem: unproved, animation: outcome.animation)
                    : StepCheck(step: cursor, direction: .undo, problem: "\(RulebenchError.undoMismatch(problems))", animation: nil))
                cursor -= 1
            case .redone(let entry):
                checks.append(StepCheck(step: cursor + 1, direction: .redo, problem: unproved, animation: entry.animation))
                cursor += 1
            case .failed(let error):
                throw error
            case .differs(let mismatch):
                throw .redoMismatch(mismatch)
            }
        }
        return checks
    }
}
