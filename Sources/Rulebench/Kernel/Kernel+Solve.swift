/// The typed face of the solver's search (`Kernel/solve.lua`) and of goals:
/// a search for a pack's goal keeps its closed set and open states inside
/// the kernel, and each call expands a batch of states.
extension Kernel {
    /// What a `solveStep` call left: how the search stands, and its counts so far.
    struct SolveStep {
        /// How the search stands.
        enum Status: Equatable {
            /// States remain to expand.
            case more
            /// The goal is met: `solveLine` gives the line.
            case found
            /// Every state reachable from the start was expanded; none meets the goal.
            case exhausted
            /// Only states at the depth limit remain, unexpanded.
            case depthLimit
            /// The search keeps `bound` states and reached it.
            case full
            /// An undo did not restore the state (`solveLine` gives the line to it).
            case undoMismatch([UndoProblem])
        }

        let status: Status
        /// The counts so far (`Solver.Statistics` without the time).
        let expanded, states, performs, transpositions, pruned, depth, finished, open: Int
        /// Breadth-first: the distinct states within `finished` moves (nil for the other searches).
        var within: Int? = nil
    }

    /// Which search `solveBegin` chose (the protocol's words).
    enum SolveSearch: String, CaseIterable {
        case breadth, best, depth
    }

    /// How a `solvestep` or `uniquestep` call left the search (the protocol's words).
    enum StepWord: String, CaseIterable {
        case more, found, exhausted, depth, full, undo, done
    }

    /// Starts a search for `goal` keeping at most `bound` states, lines of
    /// at most `maxDepth` moves; without `table`, no closed set (every line
    /// is searched). `how`: "shortest", "breadth" or "any" (solve.lua).
    /// Returns the search chosen and whether the goal holds at the start.
    /// Throws `.badInput` for a goal the pack does not declare.
    func solveBegin(goal: String, bound: Int, table: Bool, maxDepth: Int, how: String) throws(RulebenchError) -> (SolveSearch, Bool) {
        let reply = try call(.solveBegin, [goal, String(bound), table ? "1" : "0", String(maxDepth), how])
        guard reply.count == 2 else { throw Kernel.replyMismatch(.solveBegin, "", "\(reply.count) results, not 2") }
        return (try KernelReply.word(.solveBegin, reply[0], as: SolveSearch.self), try Kernel.truth(.solveBegin, reply[1]))
    }

    /// Expands up to `expansions` states of the search; the game is where
    /// it was afterwards, whatever happened. A failure carries the line to it.
    func solveStep(expansions: Int) throws(ExplorationFailure) -> SolveStep {
        do throws(RulebenchError) {
            let reply = try call(.solveStep, [String(expansions)])
            guard reply.count == 3 else { throw Kernel.replyMismatch(.solveStep, "", "\(reply.count) results, not 3") }
            let counts = try KernelReply(.solveStep, reply[1], result: 2)
            let status: SolveStep.Status
            // Going on after a status this side does not know would search past a result: `word` throws.
            switch try KernelReply.word(.solveStep, reply[0], as: StepWord.self) {
            case .found: status = .found
            case .exhausted: status = .exhausted
            case .depth: status = .depthLimit
            case .full: status = .full
            case .undo: status = .undoMismatch(try Kernel.problems(KernelReply(.solveStep, reply[2], result: 3)))
            case .more: status = .more
            case .done: throw Kernel.replyMismatch(.solveStep, "", "the word 'done', which only uniquestep answers")
            }
            func count(_ key: String) throws(RulebenchError) -> Int { try counts.int(key) }
            return SolveStep(status: status, expanded: try count("expanded"), states: try count("states"),
                             performs: try count("performs"), transpositions: try count("transpositions"),
                             pruned: try count("pruned"), depth: try count("depth"), finished: try count("finished"),
                             open: try count("open"), within: try counts.optionalInt("within"))
        } catch {
            throw ExplorationFailure(path: failedSolveLine(), error: error)
        }
    }

    /// The line found, or after a failed step the line to the failure:
    /// played again from the start through the engine, then rolled back.
    func solveLine() throws(RulebenchError) -> [ActionCall] {
        try Kernel.calls(KernelReply(.solveLine, call(.solveLine).first ?? []))
    }

    /// The line to a failed step, for its report: empty when even that
    /// cannot be played back (the failure itself is what is reported).
    func failedSolveLine() -> [ActionCall] {
        do { return try solveLine() } catch { return [] }
    }

    /// Ends the search and lets its tables go.
    func solveEnd() { endWalk(.solveEnd) }

    /// A state where a goal's estimate says more moves than a line found
    /// to the goal has left: `at` moves along the line from the probed
    /// state, the estimate there, and the most moves that remain.
    struct Overestimate: Equatable {
        let at, most: Int
        /// The estimate, as the kernel shows a number.
        let estimate: String
        let location: SourceLocation?
    }

    /// What `solveprobe` found (the protocol's words).
    enum ProbeWord: String, CaseIterable {
        /// The goal declares no estimate.
        case none
        /// No state along the line is overestimated.
        case ok
        /// One is: the record follows.
        case over
    }

    /// Probes goal `goal`'s estimate from the current state: a breadth-first
    /// search of at most `depth` moves and `bound` states for the goal, and
    /// the estimate along the line found (Kernel/solve.lua, solveprobe).
    /// nil when the goal declares no estimate, or none overestimates there.
    func probeEstimate(goal: String, depth: Int, bound: Int) throws(RulebenchError) -> Overestimate? {
        let reply = try call(.solveProbe, [goal, String(depth), String(bound)])
        guard try KernelReply.word(.solveProbe, reply.first ?? [], as: ProbeWord.self) == .over else { return nil }
        let value = try KernelReply(.solveProbe, reply.count > 1 ? reply[1] : [], result: 2)
        return Overestimate(at: try value.int("at"), most: try value.int("most"), estimate: try value.string("shown"),
                            location: try KernelError.location(value))
    }

    /// Whether the pack's goal `name` holds now (the state read-only).
    /// Throws `.badInput` for an unknown goal, `.script` for a goal that
    /// fails or answers something other than true or false.
    func goalHolds(_ name: String) throws(RulebenchError) -> Bool {
        try Kernel.truth(.goal, call(.goal, [name]).first ?? [])
    }

    /// The estimate goal `name` declares from the current state (the state
    /// read-only); nil when it declares none.
    func goalEstimate(_ name: String) throws(RulebenchError) -> Double? {
        let text = String(decoding: try call(.goalEstimate, [name]).first ?? [], as: UTF8.self)
        if text.isEmpty { return nil }
        guard let value = Double(text) else { throw Kernel.replyMismatch(.goalEstimate, "", "the number '\(text.prefix(40))'") }
        return value
    }

    /// "true" or "false", as the kernel answers a yes-or-no question.
    private static func truth(_ entry: KernelEntry, _ bytes: [UInt8]) throws(RulebenchError) -> Bool {
        switch String(decoding: bytes, as: UTF8.self) {
        case "true": return true
        case "false": return false
        case let word: throw Kernel.replyMismatch(entry, "", "the word '\(word)', not true or false")
        }
    }

    /// Starts `explore --unique`'s walk from the current state: `depth`
    /// moves deep, at most `bound` states kept in all.
    func uniqueBegin(depth: Int, bound: Int) throws(RulebenchError) {
        try call(.uniqueBegin, [String(depth), String(bound)])
    }

    /// What a `uniqueStep` call left: whether the walk is done, the sequences
    /// and distinct states of each depth finished (from depth 1), and for each
    /// depth expanded whole (from depth 0, the start) the sequences that end
    /// there at a state with no legal call (`finished`) and those states (`ended`).
    struct UniqueStep {
        let done: Bool
        let sequences, distinct, finished, ended: [Int]
    }

    /// Expands up to `expansions` states of the walk (`UniqueStep`); the game
    /// is where it was afterwards. A failure carries the line to it.
    func uniqueStep(expansions: Int) throws(ExplorationFailure) -> UniqueStep {
        do throws(RulebenchError) {
            let reply = try call(.uniqueStep, [String(expansions)])
            guard reply.count == 3 else { throw Kernel.replyMismatch(.uniqueStep, "", "\(reply.count) results, not 3") }
            let word = try KernelReply.word(.uniqueStep, reply[0], as: StepWord.self)
            switch word {
            case .undo: throw RulebenchError.undoMismatch(try Kernel.problems(KernelReply(.uniqueStep, reply[2], result: 3)))
            case .done, .more: break
            case .found, .exhausted, .depth, .full:
                throw Kernel.replyMismatch(.uniqueStep, "", "the word '\(word.rawValue)', which only solvestep answers")
            }
            let counts = try KernelReply(.uniqueStep, reply[1], result: 2)
            func list(_ key: String) throws(RulebenchError) -> [Int] {
                try counts.field(key).list().map { item throws(RulebenchError) in try item.int() }
            }
            return UniqueStep(done: word == .done, sequences: try list("sequences"), distinct: try list("distinct"),
                              finished: try list("finished"), ended: try list("ended"))
        } catch {
            throw ExplorationFailure(path: uniqueLine(), error: error)
        }
    }

    /// A state expanded by a worker of `explore --unique --jobs N`: the
    /// states its legal actions reach, in order, and whether it ends a
    /// finished game (no legal call, or one of the pack's goals holds).
    struct Expansion: Sendable {
        let children: [SolveState]
        let finished: Bool
    }

    /// The children of `states` for `explore --unique --jobs N` (unique.lua,
    /// `uniquechildren`): per state, per legal action in order, the state
    /// reached; without copies when `last` (the walk's last depth). Nil when
    /// an undo did not restore a state; a rule's error throws. The game is
    /// where it was afterwards either way.
    func uniqueChildren(of states: [SolveState], last: Bool) throws(RulebenchError) -> [Expansion]? {
        let reply = try call(.uniqueChildren, [Array((last ? "1" : "0").utf8)] + states.flatMap { [$0.hex, $0.snapshot] })
        guard String(decoding: reply.first ?? [], as: UTF8.self) == "ok" else { return nil }
        var all: [Expansion] = [], index = 1
        while index < reply.count {
            let moves = try KernelReply.integer(.uniqueChildren, reply[index], result: index + 1)
            let finished = index + 1 < reply.count ? String(decoding: reply[index + 1], as: UTF8.self) : ""
            guard moves >= 0, finished == "0" || finished == "1", index + 1 + 2 * moves < reply.count else {
                throw Kernel.replyMismatch(.uniqueChildren, "result \(index + 1)", "not a count of the moves that follow and whether the state is finished")
            }
            let children = try (0..<moves).map { move throws(RulebenchError) in
                try SolveState(hex: reply[index + 2 + 2 * move], snapshot: reply[index + 3 + 2 * move], entry: .uniqueChildren)
            }
            all.append(Expansion(children: children, finished: finished == "1"))
            index += 2 + 2 * moves
        }
        return all
    }

    /// The line to where the walk failed, played again from its start:
    /// empty when even that cannot be played back (the failure itself is
    /// what is reported).
    private func uniqueLine() -> [ActionCall] {
        do { return try Kernel.calls(KernelReply(.uniqueLine, call(.uniqueLine).first ?? [])) } catch { return [] }
    }

    /// Ends the walk.
    func uniqueEnd() { endWalk(.uniqueEnd) }

    /// Ends a search or walk: called on every way out of one (a `defer`),
    /// where the search's own result or error is what the caller reports.
    /// The call only lets the kernel's tables go and cannot fail short of a
    /// broken kernel; a test build stops there, a release build goes on
    /// (the next search begins afresh either way).
    private func endWalk(_ entry: KernelEntry) {
        do { try call(entry) } catch { assertionFailure("\(entry.rawValue): \(error)") }
    }
}
