import Foundation

/// `solve --jobs N`: the breadth-first search spread over N workers.
///
/// The states kept are cut into batches as they are kept; each worker (the
/// caller's game and N - 1 helpers' games, `SolveCrew`) takes the oldest
/// batch waiting, writes each state's plain copy over its game (its hash
/// checked), performs its legal moves through the checked engine, undoes
/// each (strictly verified), and returns each child's hash, what it is
/// (goal, dead end, at the limit) and its copy. The caller merges the
/// children into the one closed set in the order the batches were made
/// (`LevelSearch`): frontier order, then legal-move order, the order in
/// which one worker reaches them. The merge of a depth and the expansion
/// of the next overlap: a batch of depth d + 1 is expanded as soon as the
/// merge has kept its states, while the rest of depth d is still merged.
///
/// The invariant: the search visits the states `Solver` visits, in the same
/// order, so the outcome, the counts and the line are those of `--jobs 1`:
/// the line found is the first line of least length in frontier order,
/// then legal-move order. What workers cannot share stays on one worker,
/// as `Solver` runs it: best-first (a goal's estimate), depth-first
/// (`any`), the search without a closed set, and a start that meets the
/// goal or is a dead end. One difference: a worker asks the goal and
/// `dead_end` of every child it has not met itself, also those another
/// worker reached before, so a goal that fails only on such a state may
/// fail here and not with one worker.
public struct ParallelSolver {
    /// The search on one worker: its game and options.
    public let solver: Solver
    /// The workers (the caller's thread is one of them).
    public let pool: WorkerPool
    /// A game in the state `solver.game` is in, for each helper.
    public let makeGame: @Sendable () throws(RulebenchError) -> Game

    /// At most this many states go to a worker at a time (fewer when the
    /// frontier is small, so that every worker has several batches).
    static let batchLimit = 32

    public init(solver: Solver, pool: WorkerPool, makeGame: @escaping @Sendable () throws(RulebenchError) -> Game) {
        self.solver = solver
        self.pool = pool
        self.makeGame = makeGame
    }

    /// Whether `options` leave the search on one worker whatever `--jobs` says.
    public static func staysOnOneWorker(_ options: Solver.Options) -> Bool {
        options.any || !options.usesTranspositionTable
    }

    /// Searches as `Solver.run` does, with the pool's workers.
    public func run(clock: @escaping () -> Double = MonotonicClock.seconds, shouldStop: @escaping () -> Bool = { false },
                    progress: @escaping (Solver.Statistics) -> Void = { _ in }) throws(ExplorationFailure) -> Solver.Result {
        let options = solver.options
        if pool.workers == 1 || Self.staysOnOneWorker(options) {
            return try solver.run(clock: clock, shouldStop: shouldStop, progress: progress)
        }
        let kernel = solver.game.kernel
        let start: Kernel.SolveState?
        do {
            let (search, holds) = try kernel.solveBegin(goal: options.goal, bound: options.maxStates, table: true,
                                                        maxDepth: options.maxDepth, how: options.usesEstimate ? "shortest" : "breadth")
            let begun = try kernel.solveStart()
            start = search == .breadth && !holds && !begun.dead ? begun.state : nil
        } catch {
            kernel.solveEnd()
            throw ExplorationFailure(path: [], error: error)
        }
        guard let start else {
            kernel.solveEnd()
            return try solver.run(clock: clock, shouldStop: shouldStop, progress: progress)
        }
        defer { kernel.solveEnd() }
        let crew = SolveCrew(helpers: pool.workers - 1, makeGame: makeGame) { helper throws(RulebenchError) in
            _ = try helper.solveBegin(goal: options.goal, bound: options.maxStates, table: true, maxDepth: options.maxDepth, how: "breadth")
        }
        defer { crew.finish() }
        var search = LevelSearch(start: start, options: options, workers: pool.workers, began: clock())
        return try search.run(crew: crew, kernel: kernel, clock: clock, shouldStop: shouldStop, progress: progress)
    }
}
