import Foundation

/// Finds a line of play from a game's current state to a state where one
/// of the pack's goals holds: what `rulebench solve` runs.
///
/// Each distinct state (by the engine's state hash) is expanded once: its
/// legal moves performed through the checked engine (check, apply,
/// subactions, invariants, animation plan), each child looked up in the
/// closed set, each move undone with strict verification. A state waiting
/// to be expanded keeps a plain copy of its state; expanding it writes the
/// slots that differ back over the game (its hash checked), so no line is
/// replayed and nothing is searched twice. Which search runs:
///
/// - **breadth-first** (the default): the first goal met is at the least
///   depth, so the line is a shortest one. When every reachable state has
///   been expanded without meeting the goal, that is a proof: `.unreachable`.
/// - **best-first (A\*)**, when the goal declares an `estimate` of the moves
///   still needed: states in order of moves + estimate. The line is shortest
///   when the estimate never exceeds the true distance (`check` warns when
///   it finds one that does).
/// - **depth-first** (`Options.any`): the child with the least estimate
///   first; the first line found, not a shortest one.
///
/// A goal's `dead_end` prunes the states it is true of. The search lives
/// inside the kernel, bounded by `Options.maxStates`; each call expands a
/// batch of states, sized so that a call takes about a tenth of a second,
/// and `shouldStop` and `progress` run between calls.
///
/// ```swift
/// let result = try Solver(game: game, options: .init(goal: "won")).run()
/// if case .solved(let line) = result.outcome { print(line) }
/// ```
public struct Solver {
    /// What to search for, and how far.
    public struct Options: Sendable {
        /// The goal: a name in the pack's `goals`.
        public var goal: String
        /// The longest line searched.
        public var maxDepth = 20
        /// The most distinct states the search keeps (see `bytesPerState`).
        public var maxStates = Options.defaultMaxStates
        /// Keep a closed set (the default); without it, every line is
        /// searched, however many orders reach a state: what the
        /// benchmark compares against.
        public var usesTranspositionTable = true
        /// Use the goal's estimate, when it declares one (the default);
        /// false searches breadth-first all the same.
        public var usesEstimate = true
        /// Any line will do: depth-first, the estimate ordering the moves.
        public var any = false

        /// The default bound: a million states.
        public static let defaultMaxStates = 1_000_000
        /// The largest bound a command accepts: a hundred million states
        /// (a larger number can only be a typo).
        public static let largestMaxStates = 100_000_000
        /// The game's memory a kept state costs, at most, beyond the
        /// states waiting to be expanded (measured: BENCHMARKS.md).
        public static let bytesPerState = 100

        /// A search for `goal` with the defaults.
        public init(goal: String) {
            self.goal = goal
        }
    }

    /// Which search ran.
    public enum Search: String, Sendable {
        /// Breadth-first: a shortest line.
        case breadthFirst = "breadth-first"
        /// A* on the goal's estimate: a shortest line if it never overestimates.
        case bestFirst = "best-first (A*)"
        /// Depth-first (`--any`): a line.
        case depthFirst = "depth-first"
    }

    /// How the search went so far.
    public struct Statistics: Sendable {
        /// The search that runs.
        public var search = Search.breadthFirst
        /// The depth being searched: breadth-first, the depth of the states
        /// being reached; best-first, moves + estimate of the states being
        /// expanded; depth-first, the depth of the state being expanded.
        public var depth = 0
        /// No line of this many moves or fewer reaches the goal (-1: not even
        /// the start's; best-first: given an estimate that never overestimates).
        public var finishedDepth = -1
        /// States expanded (their moves performed and undone, verified).
        public var nodes = 0
        /// Actions performed (and undone, verified).
        public var performs = 0
        /// Moves that reached a state already kept: not searched again.
        public var transpositions = 0
        /// States the goal's `dead_end` pruned.
        public var pruned = 0
        /// Distinct states kept: reached, the start included.
        public var distinctStates = 0
        /// Breadth-first: the distinct states within `finishedDepth` moves of
        /// the start, which `distinctStates` exceeds by the deeper states
        /// reached so far; nil for the other searches.
        public var statesWithinFinishedDepth: Int?
        /// States waiting to be expanded.
        public var open = 0
        /// Seconds since the search began.
        public var seconds = 0.0
        /// CPU seconds each worker's thread spent expanding states, the
        /// caller's first (`ParallelSolver` on several workers; empty on
        /// one): set beside `seconds`, it shows how busy the workers were.
        public var workerSeconds: [Double] = []

        /// States expanded per second.
        public var statesPerSecond: Double { Double(nodes) / max(seconds, 1e-9) }
    }

    /// How a search ended.
    public enum Outcome: Sendable, Equatable {
        /// A line to the goal (empty when it holds at the start): a
        /// shortest one unless the search was depth-first.
        case solved([ActionCall])
        /// Every state reachable from the start was expanded (less those
        /// `dead_end` pruned): the goal can never be reached.
        case unreachable
        /// No line of at most this many moves reaches the goal.
        case notWithin(Int)
        /// The search kept `Options.maxStates` states while searching this depth.
        case boundReached(depth: Int)
        /// `shouldStop` became true.
        case interrupted
    }

    /// A search's outcome and its statistics.
    public struct Result: Sendable {
        /// How it ended: the line found, or why there is none.
        public var outcome: Outcome
        /// What the search did.
        public var statistics: Statistics
    }

    /// The game searched; it is back where it was when `run` returns.
    public let game: Game
    /// The goal and the limits.
    public let options: Options

    /// A search of `game` from its current state.
    public init(game: Game, options: Options) {
        self.game = game
        self.options = options
    }

    /// Searches. `progress` is called after each call into the kernel (often:
    /// the caller paces what it shows), and `shouldStop` polled as often.
    ///
    /// - Throws: an `ExplorationFailure` with the line that led to it when a
    ///   step fails (a legal action that fails, an undo that does not restore
    ///   the state, a goal, estimate or dead end that errs), or, with an
    ///   empty line, `.badInput` for a goal the pack does not declare. The
    ///   game is back where it was.
    public func run(clock: @escaping () -> Double = MonotonicClock.seconds, shouldStop: @escaping () -> Bool = { false },
                    progress: @escaping (Statistics) -> Void = { _ in }) throws(ExplorationFailure) -> Result {
        let kernel = game.kernel
        let start = clock()
        var statistics = Statistics()
        let how = options.any ? "any" : options.usesEstimate ? "shortest" : "breadth"
        do {
            let (search, holds) = try kernel.solveBegin(goal: options.goal, bound: options.maxStates,
                                                        table: options.usesTranspositionTable, maxDepth: options.maxDepth, how: how)
            statistics.search = search == .best ? .bestFirst : search == .depth ? .depthFirst : .breadthFirst
            statistics.distinctStates = 1
            if holds {
                statistics.nodes = 1
                statistics.seconds = clock() - start
                kernel.solveEnd()
                return Result(outcome: .solved([]), statistics: statistics)
            }
        } catch {
            throw ExplorationFailure(path: [], error: error)
        }
        defer { kernel.solveEnd() }
        var batch = 16
        while true {
            if shouldStop() { return finish(.interrupted, statistics, start, clock) }
            let began = clock()
            let step = try kernel.solveStep(expansions: batch)
            statistics.update(from: step)
            statistics.seconds = clock() - start
            progress(statistics)
            batch = MonotonicClock.nextBatch(batch, seconds: clock() - began)
            switch step.status {
            case .more: continue
            case .found:
                // A line that cannot be played back is a failure, never a solution without moves.
                let line: [ActionCall]
                do { line = try kernel.solveLine() } catch { throw ExplorationFailure(path: [], error: error) }
                return finish(.solved(line), statistics, start, clock)
            case .exhausted: return finish(.unreachable, statistics, start, clock)
            case .depthLimit: return finish(.notWithin(options.maxDepth), statistics, start, clock)
            case .full:
                statistics.distinctStates = options.maxStates
                return finish(.boundReached(depth: statistics.depth), statistics, start, clock)
            case .undoMismatch(let problems):
                throw ExplorationFailure(path: kernel.failedSolveLine(), error: .undoMismatch(problems))
            }
        }
    }

    private func finish(_ outcome: Outcome, _ statistics: Statistics, _ start: Double, _ clock: () -> Double) -> Result {
        var statistics = statistics
        statistics.seconds = clock() - start
        return Result(outcome: outcome, statistics: statistics)
    }
}

extension Solver.Statistics {
    mutating func update(from step: Kernel.SolveStep) {
        nodes = step.expanded
        distinctStates = step.states
        performs = step.performs
        transpositions = step.transpositions
        pruned = step.pruned
        depth = step.depth
        finishedDepth = step.finished
        statesWithinFinishedDepth = step.within
        open = step.open
    }
}
