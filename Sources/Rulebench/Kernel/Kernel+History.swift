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
        /// A seat's undo turn: back to the last checkpoint or the last
        /// players' barrier (a reveal, a draw from the generator), which stays.
        case seatTurn
        /// Back to the start.
        case rewind
        /// To a history position, undoing or redoing.
        case seek(Int)
    }

    /// One undo or redo of a travel, in the order they ran.
    enum TravelStep {
        /// An undo of `entry` took effect; `problems` are what a strict
        /// undo found not restored (empty when exact); `current` is the hash
        /// the history records for the state it left.
        case undone(hash: StateHash, plan: [UInt8], problems: [UndoProblem], entry: HistoryEntry, current: StateHash)
        /// A redo took effect: the entry it gave.
        case redone(HistoryEntry)
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
        case .seatTurn: (kind, target) = ("seatturn", "")
        case .rewind: (kind, target) = ("rewind", "")
        case .seek(let position): (kind, target) = ("seek", String(position))
        }
        return try travelReply(positioned(.travel, [strict ? "1" : "0", kind, target].map { Array($0.utf8) }))
    }

    /// What a travel that failed as a whole (a stop in one of its steps or
    /// between two: a signal, the wall clock, the memory cap) did before it
    /// failed, as if it had replied: the redos it committed (the entries
    /// after `start`, the cursor it began at, up to the cursor now, as the
    /// kernel holds them) and where the history stands. One crossing, made
    /// only on that failure path.
    func travelStopped(from start: Int) throws(RulebenchError) -> TravelReply {
        try travelReply(positioned(.position, [Array(String(start).utf8)]))
    }

    /// A reply of travel's form (history.lua, `travel` and `position`):
    /// the steps' results in order, then the position.
    private func travelReply(_ reply: (strings: [[UInt8]], position: History.Position)) throws(RulebenchError) -> TravelReply {
        var steps: [TravelStep] = []
        var index = 0
        while index < reply.strings.count {
            let (step, count) = try travelStep(reply.strings, at: index)
            steps.append(step)
            index += count
        }
        return TravelReply(steps: steps, position: reply.position)
    }

    /// The step whose word is result `index` (from 0) of a travel's reply
    /// (history.lua, `undostep` and `redostep`), and how many results it took.
    private func travelStep(_ results: [[UInt8]], at index: Int) throws(RulebenchError) -> (TravelStep, Int) {
        func result(_ offset: Int) throws(RulebenchError) -> [UInt8] {
            guard index + offset < results.count else {
                throw Kernel.replyMismatch(.travel, "", "a step cut short at result \(index + offset + 1)")
            }
            return results[index + offset]
        }
        func record(_ offset: Int) throws(RulebenchError) -> KernelReply {
            try KernelReply(.travel, result(offset), result: index + offset + 1)
        }
        func hash() throws(RulebenchError) -> StateHash { StateHash(hex: String(decoding: try result(1), as: UTF8.self)) }
        switch try KernelReply.word(.travel, result(0), as: KernelWords.TravelStep.self) {
        case .undone:
            guard index + 11 <= results.count else { throw Kernel.replyMismatch(.travel, "", "an undo cut short at result \(index + 1)") }
            let problems = try result(3).isEmpty ? [] : Kernel.problems(record(3))
            let entry = try Kernel.historyEntry(.travel, results, at: index + 5)
            let current = StateHash(hex: String(decoding: results[index + 4], as: UTF8.self))
            return (.undone(hash: try hash(), plan: try result(2), problems: problems, entry: entry, current: current), 11)
        case .redone:
            guard index + 7 <= results.count else { throw Kernel.replyMismatch(.travel, "", "a redo cut short at result \(index + 1)") }
            let (call, checkpoint) = try Kernel.entryCall(.travel, results, at: index + 4)
            return (.redone(HistoryEntry(call: call, hash: try hash(), isCheckpoint: checkpoint, tree: try result(2), plan: try result(3))), 7)
        case .failed:
            let error = try error(record(1))
            if case .budgetExceeded(let budget) = error, budget.resource == .memory { try call(.gc) }
            return (.failed(error), 2)
        case .differs:
            return (.differs(try Kernel.redoMismatch(record(1))), 2)
        }
    }

    /// A result sent apart from a reply's record (a tree or a plan, kept
    /// exact), which the record names by its position among them.
    static func result(_ field: KernelReply, in raw: [[UInt8]]) throws(RulebenchError) -> [UInt8] {
        let n = try field.int()
        guard n >= 1, n <= raw.count else { throw Kernel.replyMismatch(field.entry, field.path, "\(n), not a result's position") }
        return raw[n - 1]
    }
}

// MARK: - Reading the history's replies (only here: no history type reads a reply)

extension Kernel {
    /// The subaction tree of a perform, kept encoded (`tree`) until read;
    /// the call alone when there are no bytes.
    static func subactionTree(kept tree: [UInt8], of call: ActionCall) -> SubactionTree {
        guard let value = KernelReply.kept(tree, from: .perform) else {
            return SubactionTree(name: call.name, params: call.params, subactions: [])
        }
        do { return try subactionTree(value) } catch { preconditionFailure("\(error)") }   // see KernelReply.kept
    }

    /// A node of a perform's `tree` (engine.lua, treeof).
    static func subactionTree(_ value: KernelReply) throws(RulebenchError) -> SubactionTree {
        let call = try value.call()
        let subs = try value.optional("subs")?.list().map { sub throws(RulebenchError) in try subactionTree(sub) }
        return SubactionTree(name: call.name, params: call.params, subactions: subs ?? [])
    }

    /// An animation plan of `entry`'s reply, kept encoded until read; nil for no bytes.
    static func plan(kept bytes: [UInt8], from entry: KernelEntry) -> StateValue? {
        KernelReply.kept(bytes, from: entry)?.value
    }

    /// The kernel's `{ cursor, count, turn, lastturn }` (history.lua, `position`).
    static func position(_ value: KernelReply) throws(RulebenchError) -> History.Position {
        History.Position(cursor: try value.int("cursor"), count: try value.int("count"),
                         undosToLastCheckpoint: try value.int("turn"), undosToLastTurn: try value.int("lastturn"),
                         version: try value.int("version"))
    }
}

// MARK: - Reading entries (the history's view: `HistoryView`)

extension Kernel {
    /// Entries of the kernel's history as its view reads them: from
    /// `first` (from 1) on, with the version and count they are of.
    struct HistoryEntries {
        let version: Int
        let count: Int
        let first: Int
        let entries: [HistoryEntry]
    }

    /// The entries `1...n` for a view that holds `1...known` as they were
    /// at version `since` (-1: none): the kernel sends those from the first
    /// it changed since (or `known + 1`) to `n`, in one call.
    func historyEntries(since: Int, known: Int, through n: Int) throws(RulebenchError) -> HistoryEntries {
        let reply = try call(.entries, [since, known, n].map { Array(String($0).utf8) })
        guard reply.count >= 3, (reply.count - 3) % 6 == 0 else {
            throw Kernel.replyMismatch(.entries, "", "\(reply.count) results, not 3 and six per entry")
        }
        let version = try KernelReply.integer(.entries, reply[0], result: 1)
        let count = try KernelReply.integer(.entries, reply[1], result: 2)
        let first = try KernelReply.integer(.entries, reply[2], result: 3)
        var entries: [HistoryEntry] = []
        entries.reserveCapacity((reply.count - 3) / 6)
        var index = 3
        while index < reply.count {
            entries.append(try Kernel.historyEntry(.entries, reply, at: index))
            index += 6
        }
        return HistoryEntries(version: version, count: count, first: first, entries: entries)
    }

    /// The call an entry records, as replies carry it from result `index`
    /// (from 0) on: its name, its params encoded, and "1" for a checkpoint
    /// (history.lua, `callof`).
    static func entryCall(_ entry: KernelEntry, _ results: [[UInt8]], at index: Int) throws(RulebenchError) -> (ActionCall, Bool) {
        let params = try KernelReply(entry, results[index + 1], result: index + 2)
        return (ActionCall(String(decoding: results[index], as: UTF8.self), ActionCall.params(from: params.value)),
                !results[index + 2].isEmpty)
    }

    /// An entry as replies carry it from result `index` (from 0) on, six
    /// results: its call (`entryCall`), its hash, its tree and its plan
    /// (history.lua, `undone`).
    static func historyEntry(_ entry: KernelEntry, _ results: [[UInt8]], at index: Int) throws(RulebenchError) -> HistoryEntry {
        let (call, checkpoint) = try entryCall(entry, results, at: index)
        return HistoryEntry(call: call, hash: StateHash(hex: String(decoding: results[index + 3], as: UTF8.self)),
                            isCheckpoint: checkpoint, tree: results[index + 4], plan: results[index + 5])
    }
}
