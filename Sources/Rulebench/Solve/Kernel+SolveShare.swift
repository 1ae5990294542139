/// The typed face of a worker's share of `solve --jobs N` (Kernel/solve.lua,
/// "a worker's share"): the kernel expands the states it is handed and
/// says what each child is; the search itself (closed set, order, line)
/// lives in `ParallelSolver`.
///
/// The invariant: every call leaves the game where it was, whatever happened.
extension Kernel {
    /// A state handed to a worker: its hash (hex, as the kernel shows it)
    /// and its plain copy, encoded (what the worker writes over its game).
    struct SolveState: Sendable {
        let key: String
        let snapshot: [UInt8]
    }

    /// One child met by a worker: the state a legal move reaches.
    struct SolveChild: Sendable {
        enum Kind: String, Sendable {
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
        let reply = try engine("solvesnap")
        let state = SolveState(key: String(decoding: reply.first ?? [], as: UTF8.self), snapshot: reply.count > 1 ? reply[1] : [])
        return (state, reply.count > 2 && String(decoding: reply[2], as: UTF8.self) == "dead")
    }

    /// The children of `states`, each `depth` moves from the start (the
    /// search begun by `solveBegin` names the goal and the depth limit).
    func solveChildren(of states: [SolveState], depth: Int) -> SolveShare {
        let reply: [[UInt8]]
        do {
            reply = try user("solvechildren", [Array(String(depth).utf8)] + states.flatMap { [Array($0.key.utf8), $0.snapshot] })
        } catch {
            let failedAt = (try? engine("solvefailed")) ?? []
            return .failed(at: max(number(failedAt.first) - 1, 0), move: number(failedAt.count > 1 ? failedAt[1] : nil), error: error)
        }
        if String(decoding: reply.first ?? [], as: UTF8.self) == "undo" {
            let problems = Kernel.problems(decode(reply.count > 1 ? reply[1] : nil))
            return .failed(at: number(reply.count > 2 ? reply[2] : nil) - 1, move: number(reply.count > 3 ? reply[3] : nil),
                           error: .undoMismatch(problems))
        }
        var all: [[SolveChild]] = [], index = 1
        while index < reply.count {
            let moves = number(reply[index])
            index += 1
            all.append((0..<moves).map { move in
                let at = index + 3 * move
                return SolveChild(state: SolveState(key: String(decoding: reply[at], as: UTF8.self), snapshot: reply[at + 2]),
                                  kind: SolveChild.Kind(rawValue: String(decoding: reply[at + 1], as: UTF8.self)) ?? .open)
            })
            index += 3 * moves
        }
        return .children(all)
    }

    /// The calls of `moves` (indices from 1 in legal lists) from the
    /// current state, played through the engine and rolled back.
    func solveReplay(_ moves: [Int]) throws(RulebenchError) -> [ActionCall] {
        Kernel.calls(decode(try user("solvereplay", moves.map { Array(String($0).utf8) }).first))
    }

    private func number(_ bytes: [UInt8]?) -> Int {
        Int(String(decoding: bytes ?? [], as: UTF8.self)) ?? 0
    }
}
