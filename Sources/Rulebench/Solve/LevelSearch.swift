/// The breadth-first search of `ParallelSolver`: the one closed set, the
/// parent of each state, the counts, and the merge that keeps them, while
/// the crew (`SolveCrew`) expands the states it posts.
///
/// The states kept are posted in batches in the order they are kept, and
/// the batches' children are merged in the order posted: frontier order,
/// then legal-move order, depth after depth. Workers expand the batches of
/// the next depth as soon as they are posted, while the merge of this depth
/// goes on, so no worker waits for a depth to end while a state is waiting.
///
/// The invariant: children are merged with the rules of Kernel/solve.lua's
/// `reach` for a breadth-first search (a state seen before is a
/// transposition; the bound is checked before a new state is kept; the goal
/// is met when a state is first reached; a dead end is kept and never
/// expanded; so is a state at the depth limit), in the order one worker
/// reaches them, so states get the numbers, and the counts the values, that
/// one worker gives them, whatever the number of workers and the timing.
struct LevelSearch {
    /// A state to expand: its number and its copy.
    private typealias Open = (number: Int, state: Kernel.SolveState)

    private let options: Solver.Options
    private let workers: Int
    private let began: Double
    /// Hash -> number (1: the start).
    private var seen: [UInt64: Int]
    /// Number - 1 -> the parent's number and the move (from 1) reaching it.
    private var up: [(parent: Int, move: Int)] = [(0, 0)]
    /// Each batch posted, by index; emptied once merged.
    private var posted: [[Open]] = []
    /// States of the next depth kept and not yet posted.
    private var gathering: [Open]
    /// States of the next depth kept so far.
    private var nextCount = 1
    /// States a batch of the next depth holds.
    private var batchSize = 1
    /// The depth of the states whose children are being merged (-1: none yet).
    private var depth = -1
    /// The next batch to merge, and the first batch past the current depth.
    private var merged = 0, depthEnd = 0
    private var cut = false
    private var statistics = Solver.Statistics()

    init(start: Kernel.SolveState, options: Solver.Options, workers: Int, began: Double) {
        self.options = options
        self.workers = workers
        self.began = began
        seen = [start.key: 1]
        gathering = [(1, start)]
        statistics.distinctStates = 1
        statistics.open = 1
    }

    /// Searches until an outcome, merging each batch's children as `crew` expands them.
    mutating func run(crew: SolveCrew, kernel: Kernel, clock: () -> Double, shouldStop: () -> Bool,
                      progress: (Solver.Statistics) -> Void) throws(ExplorationFailure) -> Solver.Result {
        while true {
            if merged == depthEnd {
                if nextCount == 0 { break }
                if depth + 1 >= options.maxDepth {
                    cut = true
                    break
                }
                beginDepth(crew)
            }
            let share: Kernel.SolveShare?
            do { share = try crew.take(merged, with: kernel, shouldStop: shouldStop) } catch {
                throw ExplorationFailure(path: [], error: error)
            }
            guard let share else { return result(.interrupted, clock, crew) }
            if let outcome = try merge(share, of: posted[merged], crew: crew, kernel: kernel) {
                return result(outcome, clock, crew)
            }
            posted[merged] = []
            merged += 1
            statistics.seconds = clock() - began
            progress(statistics)
        }
        if cut {
            statistics.finishedDepth = options.maxDepth
            statistics.statesWithinFinishedDepth = statistics.distinctStates
        }
        return result(cut ? .notWithin(options.maxDepth) : .unreachable, clock, crew)
    }

    /// Every state of the current depth is merged: the next depth's last
    /// states are posted and its children are merged from here on.
    private mutating func beginDepth(_ crew: SolveCrew) {
        post(crew)
        depth += 1
        depthEnd = posted.count
        statistics.finishedDepth = depth
        // Every state of this depth is reached, none deeper yet.
        statistics.statesWithinFinishedDepth = statistics.distinctStates
        statistics.depth = depth + 1
        statistics.open = nextCount
        // Several batches per worker, fewer states each when the depth is small.
        batchSize = max(1, min(ParallelSolver.batchLimit, nextCount / (workers * 4)))
        nextCount = 0
    }

    /// Hands the states gathered to the crew as one batch.
    private mutating func post(_ crew: SolveCrew) {
        guard !gathering.isEmpty else { return }
        crew.post(gathering.map(\.state), depth: depth + 1)
        posted.append(gathering)
        gathering = []
    }

    /// Merges one batch's children into the search. Returns an outcome
    /// when the search ends here.
    private mutating func merge(_ share: Kernel.SolveShare, of batch: [Open], crew: SolveCrew,
                                kernel: Kernel) throws(ExplorationFailure) -> Solver.Outcome? {
        switch share {
        case .failed(let at, let move, let error):
            // The states before the failing one come first, as with one
            // worker: expanded again here (they did not fail), merged.
            if at > 0, case .children(let all) = kernel.solveChildren(of: batch[..<at].map(\.state), depth: depth, outOfOrder: true),
               let outcome = try reach(all, of: batch, crew: crew, kernel: kernel) {
                return outcome
            }
            throw ExplorationFailure(path: line(to: batch[at].number, then: move, kernel: kernel) ?? [], error: error)
        case .children(let all):
            return try reach(all, of: batch, crew: crew, kernel: kernel)
        }
    }

    /// The children `all` of the states of `batch`, in order.
    private mutating func reach(_ all: [[Kernel.SolveChild]], of batch: [Open], crew: SolveCrew,
                                kernel: Kernel) throws(ExplorationFailure) -> Solver.Outcome? {
        for (parent, children) in zip(batch, all) {
            for (offset, child) in children.enumerated() {
                if let outcome = try reach(child, from: parent.number, by: offset + 1, crew: crew, kernel: kernel) {
                    return outcome
                }
            }
            statistics.nodes += 1
        }
        return nil
    }

    /// One child, move `move` of state `parent`: kept, skipped or the end.
    private mutating func reach(_ child: Kernel.SolveChild, from parent: Int, by move: Int, crew: SolveCrew,
                                kernel: Kernel) throws(ExplorationFailure) -> Solver.Outcome? {
        statistics.performs += 1
        if seen[child.state.key] != nil {
            statistics.transpositions += 1
            return nil
        }
        if child.kind == .seen {
            throw ExplorationFailure(path: [], error: Kernel.replyMismatch(.solveChildren, "", "a state met before that the search never kept"))
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
        case .goal, .seen: break
        case .dead: statistics.pruned += 1
        case .leaf: cut = true
        case .open:
            gathering.append((number, child.state))
            nextCount += 1
            if gathering.count >= batchSize { post(crew) }
        }
        return nil
    }

    private mutating func keep(_ key: UInt64, parent: Int, move: Int) -> Int {
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

    private func result(_ outcome: Solver.Outcome, _ clock: () -> Double, _ crew: SolveCrew) -> Solver.Result {
        var statistics = statistics
        statistics.seconds = clock() - began
        statistics.workerSeconds = crew.busySeconds
        return Solver.Result(outcome: outcome, statistics: statistics)
    }
}
