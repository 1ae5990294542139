/// The typed face of the game's history in the kernel (`Kernel/history.lua`)
/// for the operations that cross several history steps at once: undo turn,
/// undo last turn, rewind and seek, each one call (`travel`) in which every undo and
/// redo is an operation of its own, checked as `undo` and `redo` check it.
extension Kernel {
    /// Where a travel goes.
    enum Travel {
        /// Back to the last checkpoint (`History.undosToLastCheckpoint`).
        case undoTurn
        /// Back through the last turn (`History.undosToLastTurn`).
        case undoLastTurn
        /// Back to the start.
        case rewind
        /// To a history position, undoing or redoing.
        case seek(Int)
    }

    /// One undo or redo of a travel, in the order they ran.
    enum TravelStep {
        /// An undo took effect; `problems` are what a strict undo found
        /// not restored (empty when exact).
        case undone(hash: StateHash, plan: [UInt8], problems: [UndoProblem])
        /// A redo took effect.
        case redone(hash: StateHash, tree: [UInt8], plan: [UInt8])
        /// An undo or redo failed and was rolled back: the travel stopped.
        case failed(RulebenchError)
        /// A strict redo differed and was rolled back: the travel stopped.
        case differs(RedoMismatch)
    }

    /// What a travel did, and where the history stands after it.
    struct TravelReply {
        let steps: [TravelStep]
        let position: History.Position
    }

    /// Undoes (and, seeking, redoes) in the game's history, in one call.
    /// It stops at the first step that fails, at a redo that differs and,
    /// but when seeking, at an undo that did not restore the state.
    func travel(_ travel: Travel, strict: Bool) throws(RulebenchError) -> TravelReply {
        let kind: String, target: String
        switch travel {
        case .undoTurn: (kind, target) = ("turn", "")
        case .undoLastTurn: (kind, target) = ("lastturn", "")
        case .rewind: (kind, target) = ("rewind", "")
        case .seek(let position): (kind, target) = ("seek", String(position))
        }
        let reply = try call(.travel, [strict ? "1" : "0", kind, target])
        let value = try KernelReply(.travel, reply.first ?? [])
        let raw = Array(reply.dropFirst())
        let steps = try value.field("steps").list().map { step throws(RulebenchError) in try travelStep(step, raw: raw) }
        return TravelReply(steps: steps, position: try History.Position(value.field("position")))
    }

    private func travelStep(_ step: KernelReply, raw: [[UInt8]]) throws(RulebenchError) -> TravelStep {
        if let failure = step.optional("failure") {
            let error = try error(failure)
            if case .budgetExceeded(let budget) = error, budget.resource == .memory { try call(.gc) }
            return .failed(error)
        }
        if let mismatch = step.optional("mismatch") { return .differs(try Kernel.redoMismatch(mismatch)) }
        let hash = try step.field("hash").hash()
        let plan = try Kernel.result(step.field("plan"), in: raw)
        if let tree = step.optional("tree") { return .redone(hash: hash, tree: try Kernel.result(tree, in: raw), plan: plan) }
        let problems = try step.optional("problems").map { list throws(RulebenchError) in try Kernel.problems(list) } ?? []
        return .undone(hash: hash, plan: plan, problems: problems)
    }

    /// Where the game's history stands now.
    func historyPosition() throws(RulebenchError) -> History.Position {
        try positioned(.position).position
    }

    /// A result sent apart from a reply's record (a tree or a plan, kept
    /// exact), which the record names by its position among them.
    static func result(_ field: KernelReply, in raw: [[UInt8]]) throws(RulebenchError) -> [UInt8] {
        let n = try field.int()
        guard n >= 1, n <= raw.count else { throw KernelReply.mismatch(field.entry, field.path, "\(n), not a result's position") }
        return raw[n - 1]
    }
}
