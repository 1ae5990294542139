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
    }

    /// Which search `solveBegin` chose.
    enum SolveSearch: String {
        case breadth, best, depth
    }

    /// Starts a search for `goal` keeping at most `bound` states, lines of
    /// at most `maxDepth` moves; without `table`, no closed set (every line
    /// is searched). `how`: "shortest", "breadth" or "any" (solve.lua).
    /// Returns the search chosen and whether the goal holds at the start.
    /// Throws `.badInput` for a goal the pack does not declare.
    func solveBegin(goal: String, bound: Int, table: Bool, maxDepth: Int, how: String) throws(RulebenchError) -> (SolveSearch, Bool) {
        let reply = try user("solvebegin", [goal, String(bound), table ? "1" : "0", String(maxDepth), how].map { Array($0.utf8) })
        let word = String(decoding: reply.first ?? [], as: UTF8.self)
        let holds = reply.count > 1 && String(decoding: reply[1], as: UTF8.self) == "true"
        return (SolveSearch(rawValue: word) ?? .breadth, holds)
    }

    /// Expands up to `expansions` states of the search; the game is where
    /// it was afterwards, whatever happened. A failure carries the line to it.
    func solveStep(expansions: Int) throws(ExplorationError) -> SolveStep {
        do throws(RulebenchError) {
            let reply = try user("solvestep", [Array(String(expansions).utf8)])
            let word = String(decoding: reply.first ?? [], as: UTF8.self)
            let counts = decode(reply.count > 1 ? reply[1] : nil)
            let status: SolveStep.Status
            switch word {
            case "found": status = .found
            case "exhausted": status = .exhausted
            case "depth": status = .depthLimit
            case "full": status = .full
            case "undo": status = .undoMismatch(Kernel.problems(decode(reply.count > 2 ? reply[2] : nil)))
            case "more": status = .more
            default:
                // Going on after a status this side does not know would search past a result.
                throw RulebenchError.script(ScriptFailure(message: "internal error in the engine: solvestep answered '\(word)'",
                                                          location: nil, traceback: ""))
            }
            func count(_ key: String) -> Int { Int(counts?[key]?.intValue ?? 0) }
            return SolveStep(status: status, expanded: count("expanded"), states: count("states"), performs: count("performs"),
                             transpositions: count("transpositions"), pruned: count("pruned"), depth: count("depth"),
                             finished: count("finished"), open: count("open"))
        } catch {
            throw ExplorationError(path: failedSolveLine(), error: error)
        }
    }

    /// The line found, or after a failed step the line to the failure:
    /// played again from the start through the engine, then rolled back.
    func solveLine() throws(RulebenchError) -> [ActionCall] {
        Kernel.calls(decode(try user("solveline", [[UInt8]]()).first))
    }

    /// The line to a failed step, for its report: empty when even that
    /// cannot be played back (the failure itself is what is reported).
    func failedSolveLine() -> [ActionCall] {
        (try? solveLine()) ?? []
    }

    /// Ends the search and lets its tables go.
    func solveEnd() { _ = try? engine("solveend") }

    /// A state where a goal's estimate says more moves than a line found
    /// to the goal has left: `at` moves along the line from the probed
    /// state, the estimate there, and the most moves that remain.
    struct Overestimate: Equatable {
        let at, most: Int
        /// The estimate, as the kernel shows a number.
        let estimate: String
        let location: SourceLocation?
    }

    /// Probes goal `goal`'s estimate from the current state: a breadth-first
    /// search of at most `depth` moves and `bound` states for the goal, and
    /// the estimate along the line found (Kernel/solve.lua, solveprobe).
    /// nil when the goal declares no estimate, or none overestimates there.
    func probeEstimate(goal: String, depth: Int, bound: Int) throws(RulebenchError) -> Overestimate? {
        let reply = try user("solveprobe", [goal, String(depth), String(bound)].map { Array($0.utf8) })
        guard String(decoding: reply.first ?? [], as: UTF8.self) == "over", let value = decode(reply.count > 1 ? reply[1] : nil) else {
            return nil
        }
        func int(_ key: String) -> Int { Int(value[key]?.intValue ?? 0) }
        let file = value["file"]?.stringValue
        return Overestimate(at: int("at"), most: int("most"), estimate: value["shown"]?.stringValue ?? "?",
                            location: file.map { SourceLocation(file: $0, line: int("line")) })
    }

    /// Whether the pack's goal `name` holds now (the state read-only).
    /// Throws `.badInput` for an unknown goal, `.script` for a goal that
    /// fails or answers something other than true or false.
    func goalHolds(_ name: String) throws(RulebenchError) -> Bool {
        String(decoding: try user("goal", [Array(name.utf8)]).first ?? [], as: UTF8.self) == "true"
    }

    /// Starts `explore --unique`'s walk from the current state: `depth`
    /// moves deep, at most `bound` states kept in all.
    func uniqueBegin(depth: Int, bound: Int) throws(RulebenchError) {
        try user("uniquebegin", [String(depth), String(bound)].map { Array($0.utf8) })
    }

    /// Expands up to `expansions` states of the walk. Returns whether it is
    /// done, and the sequences and distinct states of each depth finished;
    /// the game is where it was afterwards. A failure carries the line to it.
    func uniqueStep(expansions: Int) throws(ExplorationError) -> (done: Bool, sequences: [Int], distinct: [Int]) {
        let reply: [[UInt8]]
        do { reply = try user("uniquestep", [Array(String(expansions).utf8)]) } catch {
            throw ExplorationError(path: uniqueLine(), error: error)
        }
        let word = String(decoding: reply.first ?? [], as: UTF8.self)
        if word == "undo" {
            let problems = Kernel.problems(decode(reply.count > 2 ? reply[2] : nil))
            throw ExplorationError(path: uniqueLine(), error: .undoMismatch(problems))
        }
        let counts = decode(reply.count > 1 ? reply[1] : nil)
        func list(_ key: String) -> [Int] { (counts?[key]?.listItems ?? []).map { Int($0.intValue ?? 0) } }
        return (word == "done", list("sequences"), list("distinct"))
    }

    /// The line to where the walk failed, played again from its start.
    private func uniqueLine() -> [ActionCall] {
        Kernel.calls(decode((try? user("uniqueline", [[UInt8]]()))?.first))
    }

    /// Ends the walk.
    func uniqueEnd() { _ = try? engine("uniqueend") }

    /// A kernel list of `{ name, params }`.
    static func calls(_ value: StateValue?) -> [ActionCall] {
        (value?.listItems ?? []).map { ActionCall($0["name"]?.stringValue ?? "", ActionCall.params(from: $0["params"])) }
    }
}
