/// The breadth-first search of `ParallelSolver`, one depth at a time: the
/// one closed set, the parent of each state, the frontier, the counts.
///
/// The invariant: children are merged in frontier order, then legal-move
/// order, with the rules of Kernel/solve.lua's `reach` for a breadth-first
/// search (a state seen before is a transposition; the bound is checked
/// before a new state is kept; the goal is met when a state is first
/// reached; a dead end is kept and never expanded; so is a state at the
/// depth limit), so states get the numbers, and the counts the values,
/// that one worker gives them.
struct LevelSearch {
    /// A state to expand: its number and its copy.
    private typealias Open = (number: Int, state: Kernel.SolveState)

    private let options: Solver.Options
    private let began: Double
    /// Hash -> number (1: the start).
    private var seen: [String: Int]
    /// Number - 1 -> the parent's number and the move (from 1) reaching it.
    private var up: [(parent: Int, move: Int)] = [(0, 0)]
    private var frontier: [Open]
    private var depth = 0
    private var cut = false
    private var statistics = Solver.Statistics()

    init(start: Kernel.SolveState, options: Solver.Options, began: Double) {
        self.options = options
        self.began = began
        seen = [start.key: 1]
        frontier = [(1, start)]
        statistics.distinctStates = 1
        statistics.open = 1
    }

    /// Searches until an outcome, a depth at a time on `crew`.
    mutating func run(crew: SolveCrew, kernel: Kernel, workers: Int, clock: () -> Double, shouldStop: () -> Bool,
                      progress: (Solver.Statistics) -> Void) throws(ExplorationFailure) -> Solver.Result {
        while !frontier.isEmpty {
            if depth >= options.maxDepth {
                cut = true
                break
            }
            statistics.finishedDepth = depth
            statistics.depth = depth + 1
            let size = max(1, min(ParallelSolver.batchLimit, frontier.count / (workers * 8)))
            let batches = stride(from: 0, to: frontier.count, by: size).map { frontier[$0..<min($0 + size, frontier.count)] }
            let shares: [Kernel.SolveShare?]
            var stopped = false
            do {
                shares = try crew.expand(batches.map { $0.map(\.state) }, depth: depth, with: kernel) {
                    statistics.seconds = clock() - began
                    progress(statistics)
                    stopped = stopped || shouldStop()
                    return stopped
                }
            } catch {
                throw ExplorationFailure(path: [], error: error)
            }
            if stopped { return result(.interrupted, clock) }
            if let outcome = try merge(shares, of: batches.map(Array.init), kernel: kernel) {
                return result(outcome, clock)
            }
            progress(statistics)
        }
        if cut { statistics.finishedDepth = options.maxDepth }
        return result(cut ? .notWithin(options.maxDepth) : .unreachable, clock)
    }

    /// Merges one depth's children into the search; the next frontier
    /// replaces this one. Returns an outcome when the search ends here.
    private mutating func merge(_ shares: [Kernel.SolveShare?], of batches: [[Open]],
                                kernel: Kernel) throws(ExplorationFailure) -> Solver.Outcome? {
        var next: [Open] = []
        for (batch, share) in zip(batches, shares) {
            guard let share else { break }
            switch share {
            case .failed(let at, let move, let error):
                // The states before the failing one come first, as with one
                // worker: expanded again here (they did not fail), merged.
                if at > 0, case .children(let all) = kernel.solveChildren(of: batch[..<at].map(\.state), depth: depth),
                   let outcome = try reach(all, of: batch, into: &next, kernel: kernel) {
                    return outcome
                }
                throw ExplorationFailure(path: line(to: batch[at].number, then: move, kernel: kernel) ?? [], error: error)
            case .children(let all):
                if let outcome = try reach(all, of: batch, into: &next, kernel: kernel) { return outcome }
            }
        }
        frontier = next
        depth += 1
        statistics.open = next.count
        return nil
    }

    /// The children `all` of the states of `batch`, in order.
    private mutating func reach(_ all: [[Kernel.SolveChild]], of batch: [Open], into next: inout [Open],
                                kernel: Kernel) throws(ExplorationFailure) -> Solver.Outcome? {
        for (parent, children) in zip(batch, all) {
            for (offset, child) in children.enumerated() {
                if let outcome = try reach(child, from: parent.number, by: offset + 1, into: &next, kernel: kernel) {
                    return outcome
                }
            }
            statistics.nodes += 1
        }
        return nil
    }

    /// One child, move `move` of state `parent`: kept, skipped or the end.
    private mutating func reach(_ child: Kernel.SolveChild, from parent: Int, by move: Int, into next: inout [Open],
                                kernel: Kernel) throws(ExplorationFailure) -> Solver.Outcome? {
        statistics.performs += 1
        if seen[child.state.key] != nil {
            statistics.transpositions += 1
            return nil
        }
        if statistics.distinctStates >= options.maxStates {
            statistics.distinctStates = options.maxStates
            return .boundReached(depth: statistics.depth)
        }
        if child.kind == .goal {
            // Not kept, as with one worker: the search ends at it.
            do { return .solved(try kernel.solveReplay(moves(to: parent) + [move])) } catch {
                throw ExplorationFailure(path: [], error: error)
            }
        }
        let number = keep(child.state.key, parent: parent, move: move)
        switch child.kind {
        case .goal: break
        case .dead: statistics.pruned += 1
        case .leaf: cut = true
        case .open: next.append((number, child.state))
        }
        return nil
    }

    private mutating func keep(_ key: String, parent: Int, move: Int) -> Int {
        up.append((parent, move))
        seen[key] = up.count
        statistics.distinctStates = up.count
        return up.count
    }

    /// The moves (indices from 1 in legal lists) from the start to state `number`.
    private func moves(to number: Int) -> [Int] {
        var moves: [Int] = [], at = number
        while at > 1 {
            moves.append(up[at - 1].move)
            at = up[at - 1].parent
        }
        return moves.reversed()
    }

    /// The calls to state `number`, then move `move` (0: none), for a failure's report.
    /// Best effort: the failure being reported is the search's verdict, so
    /// a line that cannot be played back leaves the report without a path
    /// rather than replacing the failure by this one.
    private func line(to number: Int, then move: Int, kernel: Kernel) -> [ActionCall]? {
        do { return try kernel.solveReplay(moves(to: number) + (move > 0 ? [move] : [])) } catch { return nil }
    }

    private func result(_ outcome: Solver.Outcome, _ clock: () -> Double) -> Solver.Result {
        var statistics = statistics
        statistics.seconds = clock() - began
        return Solver.Result(outcome: outcome, statistics: statistics)
    }
}
