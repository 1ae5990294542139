/// The typed face of a worker's share of `solve --jobs N` (Kernel/solve.lua,
/// "a worker's share"): the kernel expands the states it is handed and
/// says what each child is; the search itself (closed set, order, line)
/// lives in `ParallelSolver`.
///
/// The invariant: every call leaves the game where it was, whatever happened.
extension Kernel {
    /// A state handed to a worker: its hash and its plain copy, encoded
    /// (what the worker writes over its game).
    struct SolveState: Sendable {
        let key: UInt64
        let snapshot: [UInt8]

        /// A state whose hash the kernel sent as hex text.
        init(hex: [UInt8], snapshot: [UInt8], entry: KernelEntry) throws(RulebenchError) {
            guard let key = UInt64(String(decoding: hex, as: UTF8.self), radix: 16) else {
                throw Kernel.replyMismatch(entry, "", "\(String(decoding: hex, as: UTF8.self)), not a state hash")
            }
            self.key = key
            self.snapshot = snapshot
        }

        /// The hash as the kernel reads it back (hex).
        var hex: [UInt8] { Array(String(key, radix: 16).utf8) }
    }

    /// One child met by a worker: the state a legal move reaches.
    struct SolveChild: Sendable {
        enum Kind: String, Sendable, CaseIterable {
            /// The worker met it before (handed to it or reached): it comes
            /// later in the search's order than that meeting, so the merge
            /// has it already (no copy, the goal not asked).
            case seen
            /// The goal holds there.
            case goal
            /// The goal's `dead_end` is true there.
            case dead
            /// At the depth limit: kept, never expanded.
            case leaf
            /// To be expanded, if new: `state.snapshot` is its copy.
            case open
        }

        let state: SolveState
        let kind: Kind
    }

    /// How a worker's call went.
    enum SolveShare: Sendable {
        /// The children of each state handed, in legal-move order.
        case children([[SolveChild]])
        /// Move `move` (from 1) of state `at` (from 0) was performed or
        /// undone badly (the states before it are not reported).
        case failed(at: Int, move: Int, error: RulebenchError)
    }

    /// The current state as the start of the search `solveBegin` began,
    /// and whether the goal's `dead_end` pruned it there.
    func solveStart() throws(RulebenchError) -> (state: SolveState, dead: Bool) {
        let reply = try call(.solveSnap)
        guard reply.count == 3 else { throw Kernel.replyMismatch(.solveSnap, "", "\(reply.count) results, not 3") }
        let pruned = try KernelReply.word(.solveSnap, reply[2], as: SolveStartKind.self)
        return (try SolveState(hex: reply[0], snapshot: reply[1], entry: .solveSnap), pruned == .dead)
    }

    /// What `solvesnap` says of the start (its third result).
    enum SolveStartKind: String, CaseIterable { case dead, open }

    /// The children of `states`, each `depth` moves from the start (the
    /// search begun by `solveBegin` names the goal and the depth limit).
    /// The kernel keeps a record of the states it met, to send a state met
    /// again as `.seen`: right only while the states come in the search's
    /// order, so `outOfOrder` (states the merge hands again) forgets it first.
    /// A reply that does not decode is reported as the share's failure (an
    /// internal error naming the call), at the first state.
    func solveChildren(of states: [SolveState], depth: Int, outOfOrder: Bool = false) -> SolveShare {
        do throws(RulebenchError) {
            let record = Array((outOfOrder ? "forget" : "keep").utf8)
            return try decodeShare(call(.solveChildren, [Array(String(depth).utf8), record] + states.flatMap { [$0.hex, $0.snapshot] }))
        } catch {
            do throws(RulebenchError) {
                let failedAt = try call(.solveFailed)
                guard failedAt.count == 2 else { throw Kernel.replyMismatch(.solveFailed, "", "\(failedAt.count) results, not 2") }
                return .failed(at: max(try KernelReply.integer(.solveFailed, failedAt[0], result: 1) - 1, 0), move: try KernelReply.integer(.solveFailed, failedAt[1], result: 2), error: error)
            } catch {
                return .failed(at: 0, move: 0, error: error)
            }
        }
    }

    /// `solvechildren`'s results: "ok" and, per state, its number of moves
    /// and three values per move; or "undo", the problems, the state and the move.
    private func decodeShare(_ reply: [[UInt8]]) throws(RulebenchError) -> SolveShare {
        func at(_ index: Int) throws(RulebenchError) -> [UInt8] {
            guard reply.indices.contains(index) else { throw Kernel.replyMismatch(.solveChildren, "result \(index + 1)", "nothing") }
            return reply[index]
        }
        if try KernelReply.word(.solveChildren, at(0), as: SolveShareStatus.self) == .undo {
            let problems = try Kernel.problems(KernelReply(.solveChildren, at(1), result: 2))
            return .failed(at: try KernelReply.integer(.solveChildren, at(2), result: 3) - 1, move: try KernelReply.integer(.solveChildren, at(3), result: 4),
                           error: .undoMismatch(problems))
        }
        var all: [[SolveChild]] = [], index = 1
        while index < reply.count {
            let moves = try KernelReply.integer(.solveChildren, reply[index], result: index + 1)
            index += 1
            var children: [SolveChild] = []
            for move in 0..<moves {
                let first = index + 3 * move
                children.append(SolveChild(state: try SolveState(hex: at(first), snapshot: at(first + 2), entry: .solveChildren),
                                           kind: try KernelReply.word(.solveChildren, at(first + 1), as: SolveChild.Kind.self)))
            }
            all.append(children)
            index += 3 * moves
        }
        return .children(all)
    }

    /// What `solvechildren` says first.
    enum SolveShareStatus: String, CaseIterable { case ok, undo }

    /// The calls of `moves` (indices from 1 in legal lists) from the
    /// current state, played through the engine and rolled back.
    func solveReplay(_ moves: [Int]) throws(RulebenchError) -> [ActionCall] {
        try Kernel.calls(KernelReply(.solveReplay, try call(.solveReplay, moves.map { Array(String($0).utf8) }).first ?? []))
    }
}
