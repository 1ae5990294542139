/// The typed face of the game-value search (`Kernel/value.lua`): negamax
/// with alpha-beta and a transposition table kept inside the kernel for the
/// whole search; each call searches one root move to a depth.
extension Kernel {
    /// How `valuebegin` found the start (the protocol's words).
    enum ValueStart: String, CaseIterable {
        /// A seat to move and its moves follow.
        case ok
        /// The game is over at the start: the scores by seat follow.
        case over
        /// The pack declares no `result`.
        case none
        /// More than two seats: the seats follow.
        case seats
        /// No seat may move and the game is not over.
        case stuck
        /// `turn` lets more than one seat act.
        case turn
    }

    /// Why a value call stopped short (the protocol's words).
    enum ValueStop: String, CaseIterable {
        case ok, chance, undo, stuck, turn
        /// The search's budget of states is spent.
        case budget
    }

    /// What `valueBegin` found.
    enum ValueBeginning {
        case moves(seat: String, calls: [ActionCall])
        case over(scores: [String: Int])
        case refused(ValueStart, String)
    }

    /// A root move's value, or why the search stopped.
    struct ValueMove {
        let value: Int
        let proven: Bool
        let nodes, performs, hits, stored, finished: Int
    }

    /// Starts a value search from the current state, of at most `budget` states in all (nil: no bound).
    func valueBegin(budget: Int? = nil) throws(RulebenchError) -> ValueBeginning {
        let reply = try call(.valueBegin, budget.map { [String($0)] } ?? [])
        guard reply.count == 2 else { throw Kernel.replyMismatch(.valueBegin, "", "\(reply.count) results, not 2") }
        let word = try KernelReply.word(.valueBegin, reply[0], as: ValueStart.self)
        let body = try KernelReply(.valueBegin, reply[1], result: 2)
        switch word {
        case .ok:
            return .moves(seat: try body.string("seat"), calls: try Kernel.calls(body.field("calls")))
        case .over:
            var scores: [String: Int] = [:]
            for (key, value) in try body.entries() { scores[key.description] = try value.int() }
            return .over(scores: scores)
        case .seats:
            let seats = try body.list().map { item throws(RulebenchError) in try item.string() }
            return .refused(word, seats.joined(separator: ", "))
        case .none, .stuck, .turn:
            return .refused(word, try body.optionalString("why") ?? "")
        }
    }

    /// Searches root move `index` (from 1) `depth` moves deep with the
    /// whole window; nil when the search's budget ran out first.
    func valueMove(_ index: Int, depth: Int) throws(ExplorationFailure) -> ValueMove? {
        do throws(RulebenchError) {
            let reply = try call(.valueMove, [String(index), String(depth)])
            if let word = reply.first, word == Array(ValueStop.budget.rawValue.utf8) { return nil }
            let body = try stopped(.valueMove, reply)
            return ValueMove(value: try body.int("value"), proven: try body.bool("proven"), nodes: try body.int("nodes"),
                             performs: try body.int("performs"), hits: try body.int("hits"), stored: try body.int("stored"),
                             finished: try body.int("finished"))
        } catch {
            throw ExplorationFailure(path: valueFailedLine(), error: error)
        }
    }

    /// The principal line after root move `index` (the move first), searched `depth` moves deep.
    func valueLine(_ index: Int, depth: Int) throws(ExplorationFailure) -> [ActionCall] {
        do throws(RulebenchError) {
            let reply = try call(.valueLine, [String(index), String(depth)])
            return try Kernel.calls(stopped(.valueLine, reply))
        } catch {
            throw ExplorationFailure(path: valueFailedLine(), error: error)
        }
    }

    /// The reply's body when the call went through; a stop thrown as what it is.
    private func stopped(_ entry: KernelEntry, _ reply: [[UInt8]]) throws(RulebenchError) -> KernelReply {
        guard reply.count == 2 else { throw Kernel.replyMismatch(entry, "", "\(reply.count) results, not 2") }
        let word = try KernelReply.word(entry, reply[0], as: ValueStop.self)
        let body = try KernelReply(entry, reply[1], result: 2)
        switch word {
        case .ok: return body
        case .undo: throw RulebenchError.undoMismatch(try Kernel.problems(body.field("problems")))
        case .chance, .stuck, .turn, .budget:
            throw RulebenchError.badInput(InputProblem("solve --value: " + (try body.string("why"))))
        }
    }

    /// The line to where a value call stopped or failed.
    private func valueFailedLine() -> [ActionCall] {
        do { return try Kernel.calls(KernelReply(.valueFailed, call(.valueFailed).first ?? [])) } catch { return [] }
    }

    /// Ends the search; its table is kept for the pack's next search.
    func valueEnd() {
        do { try call(.valueEnd) } catch { assertionFailure("valueend: \(error)") }
    }

    /// The result's score of each seat now; nil while play goes on or when the pack declares no result.
    func valueResult() throws(RulebenchError) -> [String: Int]? {
        let reply = try call(.valueResult)
        guard let bytes = reply.first, !bytes.isEmpty else { return nil }
        var scores: [String: Int] = [:]
        for (key, value) in try KernelReply(.valueResult, bytes).entries() { scores[key.description] = try value.int() }
        return scores
    }
}
