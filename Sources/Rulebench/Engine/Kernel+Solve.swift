/// The typed face of the solver's walk (`Kernel/solve.lua`) and of goals:
/// a search for a pack's goal keeps its transposition table inside the
/// kernel, and each call visits one state or walks one whole subtree.
extension Kernel {
    /// What a `solveVisit` call found, with its counts.
    struct SolveVisit {
        /// What became of the state.
        enum Status {
            /// Its subtree was searched here to the limit (or it was a
            /// transposition): no goal in it.
            case done
            /// It is already searched, or on the current path: not again.
            case skip
            /// Swift walks its moves (then `solveClose`).
            case open
            /// The goal holds at the end of `line` (from the visited state).
            case found(line: [ActionCall])
            /// The transposition table reached its bound.
            case full
            /// An undo on `path` (from the visited state) did not restore the state.
            case undoMismatch(path: [ActionCall], problems: [UndoProblem])
        }

        let status: Status
        /// States searched (reached at a depth where they were new).
        let nodes: Int
        /// States not searched again: transpositions and cycles.
        let cut: Int
        /// Actions performed (each also undone, verified).
        let performs: Int
        /// States reached at the limit (0 for a whole iteration: nothing lies deeper).
        let frontier: Int
    }

    /// Starts a search for `goal` whose table keeps at most `bound` states;
    /// without `table`, every line is searched (to measure what it saves).
    /// Throws `.badInput` for a goal the pack does not declare.
    func solveBegin(goal: String, bound: Int, table: Bool) throws(RulebenchError) {
        try user("solvebegin", [Array(goal.utf8), Array(String(bound).utf8), Array((table ? "1" : "0").utf8)])
    }

    /// Empties the table for the next, deeper iteration.
    func solveIteration() throws(RulebenchError) { try engine("solveiteration") }

    /// Visits the current state, reached at `depth` of an iteration to
    /// `limit`: with `walk`, searches its whole subtree here (one crossing);
    /// without, says whether Swift should expand it. The state is the one
    /// visited afterwards, whatever happened.
    func solveVisit(depth: Int, limit: Int, walk: Bool) throws(ExplorationError) -> SolveVisit {
        do {
            let reply = try user("solvevisit", [String(depth), String(limit), walk ? "1" : "0"].map { Array($0.utf8) })
            let word = String(decoding: reply.first ?? [], as: UTF8.self)
            let counts = decode(reply.count > 1 ? reply[1] : nil)
            let detail = decode(reply.count > 2 && !reply[2].isEmpty ? reply[2] : nil)
            let status: SolveVisit.Status
            switch word {
            case "skip": status = .skip
            case "open": status = .open
            case "found": status = .found(line: Kernel.calls(detail))
            case "full": status = .full
            case "undo": status = .undoMismatch(path: solvePath(), problems: Kernel.problems(detail))
            default: status = .done
            }
            func count(_ key: String) -> Int { Int(counts?[key]?.intValue ?? 0) }
            return SolveVisit(status: status, nodes: count("nodes"), cut: count("cut"), performs: count("performs"),
                              frontier: count("frontier"))
        } catch {
            throw ExplorationError(path: solvePath(), error: error)
        }
    }

    /// Marks the state Swift opened at `depth` as searched; false when the
    /// table is full.
    func solveClose(depth: Int) throws(RulebenchError) -> Bool {
        String(decoding: try engine("solveclose", [String(depth)]).first ?? [], as: UTF8.self) == "ok"
    }

    /// The distinct states in this iteration's table.
    func solveCount() throws(RulebenchError) -> Int {
        Int(String(decoding: try engine("solvecount").first ?? [], as: UTF8.self)) ?? 0
    }

    /// Ends the search and lets its table go.
    func solveEnd() { _ = try? engine("solveend") }

    /// Whether the pack's goal `name` holds now (the state read-only).
    /// Throws `.badInput` for an unknown goal, `.script` for a goal that
    /// fails or answers something other than true or false.
    func goalHolds(_ name: String) throws(RulebenchError) -> Bool {
        String(decoding: try user("goal", [Array(name.utf8)]).first ?? [], as: UTF8.self) == "true"
    }

    /// Starts counting distinct states per level for `explore --unique`,
    /// at most `bound` in all.
    func resetDistinct(bound: Int) throws(RulebenchError) { try engine("distinct", [String(bound)]) }

    /// The distinct states counted per level (`[d]`: level d + 1).
    func distinctCounts() throws(RulebenchError) -> [Int] {
        (decode(try engine("distinct", [""]).first)?.listItems ?? []).map { Int($0.intValue ?? 0) }
    }

    /// The line the last walk was on (from the state it began at).
    private func solvePath() -> [ActionCall] {
        Kernel.calls(decode((try? engine("solvepath"))?.first))
    }

    /// A kernel list of `{ name, params }`.
    static func calls(_ value: StateValue?) -> [ActionCall] {
        (value?.listItems ?? []).map { ActionCall($0["name"]?.stringValue ?? "", ActionCall.params(from: $0["params"])) }
    }
}
