import Foundation

/// Finds a shortest line of play from a game's current state to a state
/// where one of the pack's goals holds: what `rulebench solve` runs.
///
/// The search is iterative deepening: every line of 0 moves, then of 1, of
/// 2, ... up to `maxDepth`, so the first line found is a shortest one. Each
/// iteration is a depth-first walk that performs and undoes actions on the
/// game itself, through the checked engine (check, apply, subactions,
/// invariants, animation plan; every undo strictly verified), so nothing
/// is copied or replayed: a breadth-first search would have to replay each
/// position's line from the start, or keep every position, to expand it.
/// Deepening repeats the shallower levels, but the deepest one is most of
/// the work, and memory stays one path plus the table.
///
/// The transposition table, keyed by the engine's state hash, holds each
/// state searched in the current iteration with the depth it was searched
/// at: a state reached again by another order of the same moves, no
/// shallower, is not searched again, and a line that returns to a state on
/// the current path is cut. It lives inside the kernel and is bounded
/// (`Options.maxStates`): a search that fills it stops with `.boundReached`.
///
/// Like `Explorer`, the top levels are walked here, through `Game`, so
/// that `shouldStop` is polled between subtrees; each subtree a few levels
/// deep is walked inside the kernel in one call. How deep is adjusted as the
/// search goes, so that a call takes a few milliseconds to a few tenths of
/// a second.
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
        /// The most states the transposition table keeps (about 40 bytes of
        /// the game's Lua memory each).
        public var maxStates = Options.defaultMaxStates
        /// Search with the transposition table (the default); without it,
        /// every line is searched, however many orders reach a state: what
        /// the benchmark compares against.
        public var usesTranspositionTable = true

        /// The default bound of the table: a million states, about 40 MB.
        public static let defaultMaxStates = 1_000_000
        /// The largest bound a command accepts: a hundred million states,
        /// about 4 GB (a larger number can only be a typo).
        public static let largestMaxStates = 100_000_000

        /// A search for `goal` with the defaults.
        public init(goal: String) {
            self.goal = goal
        }
    }

    /// How the search went so far.
    public struct Statistics: Sendable {
        /// The depth of the iteration in progress (or last run).
        public var depth = 0
        /// The deepest depth searched completely without finding the goal
        /// (-1: not even the starting state's).
        public var finishedDepth = -1
        /// States searched, over every iteration (a state is counted again
        /// in each deeper iteration).
        public var nodes = 0
        /// Actions performed (and undone, verified), over every iteration.
        public var performs = 0
        /// States reached but not searched again: transpositions (reached
        /// by another order of moves, no shallower) and cycles.
        public var transpositions = 0
        /// Distinct states within `finishedDepth` moves (the table's bound
        /// when it filled up): 0 without the table.
        public var distinctStates = 0
        /// Seconds since the search began.
        public var seconds = 0.0

        /// States searched per second.
        public var statesPerSecond: Double { Double(nodes) / max(seconds, 1e-9) }
    }

    /// How a search ended.
    public enum Outcome: Sendable, Equatable {
        /// A shortest line to the goal (empty when it holds at the start).
        case solved([ActionCall])
        /// Every state reachable from the start was searched, in fewer moves
        /// than the limit: the goal can never be reached.
        case unreachable
        /// No line of at most this many moves reaches the goal.
        case notWithin(Int)
        /// The transposition table reached `Options.maxStates` during the
        /// iteration of this depth.
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
    ///   the state, a goal that errs), or, with an empty line, `.badInput` for
    ///   a goal the pack does not declare. The game is back where it was.
    public func run(clock: @escaping () -> Double = Fuzzer.monotonicClock, shouldStop: @escaping () -> Bool = { false },
                    progress: @escaping (Statistics) -> Void = { _ in }) throws(ExplorationFailure) -> Result {
        let kernel = game.kernel
        do {
            try kernel.solveBegin(goal: options.goal, bound: options.maxStates, table: options.usesTranspositionTable)
        } catch {
            throw ExplorationFailure(path: [], error: error)
        }
        defer { kernel.solveEnd() }
        var walk = Walk(game: game, clock: clock, shouldStop: shouldStop, progress: progress, start: clock())
        let start = game.history.cursor
        do throws(ExplorationFailure) {
            let outcome = try walk.deepen(to: options.maxDepth, table: options.usesTranspositionTable, bound: options.maxStates)
            walk.statistics.seconds = clock() - walk.start
            return Result(outcome: outcome, statistics: walk.statistics)
        } catch {
            game.unwind(to: start)
            throw error
        }
    }

    /// One search in progress: the iterations, the walk of each, the counts.
    private struct Walk {
        let game: Game
        let clock: () -> Double
        let shouldStop: () -> Bool
        let progress: (Statistics) -> Void
        let start: Double
        var statistics = Statistics()
        /// Subtrees this many levels deep (or less) are walked in one kernel call.
        var kernelDepth = 3
        /// The line from the start to the state being visited.
        var line: [ActionCall] = []

        init(game: Game, clock: @escaping () -> Double, shouldStop: @escaping () -> Bool,
             progress: @escaping (Statistics) -> Void, start: Double) {
            self.game = game
            self.clock = clock
            self.shouldStop = shouldStop
            self.progress = progress
            self.start = start
        }

        /// What the walk of a state found.
        enum Found {
            case nothing
            case line([ActionCall])
            case full
            case stopped
        }

        /// Iterations to depth 0, 1, ... `maxDepth`.
        mutating func deepen(to maxDepth: Int, table: Bool, bound: Int) throws(ExplorationFailure) -> Outcome {
            for limit in 0...maxDepth {
                statistics.depth = limit
                if shouldStop() { return .interrupted }
                do { try game.kernel.solveIteration() } catch { throw ExplorationFailure(path: [], error: error) }
                var frontier = 0
                let found = try visit(depth: 0, limit: limit, frontier: &frontier)
                switch found {
                case .line(let moves): return .solved(moves)
                case .full:
                    statistics.distinctStates = bound
                    return .boundReached(depth: limit)
                case .stopped: return .interrupted
                case .nothing: break
                }
                // The table now holds every state within `limit` moves, once.
                if table { statistics.distinctStates = (try? game.kernel.solveCount()) ?? statistics.distinctStates }
                statistics.finishedDepth = limit
                // No state lies `limit` moves away: every reachable one was searched.
                if frontier == 0 { return .unreachable }
            }
            return .notWithin(maxDepth)
        }

        /// Visits the current state, reached at `depth`.
        private mutating func visit(depth: Int, limit: Int, frontier: inout Int) throws(ExplorationFailure) -> Found {
            let inKernel = limit - depth <= kernelDepth
            let began = clock()
            let reply: Kernel.SolveVisit
            do {
                reply = try game.kernel.solveVisit(depth: depth, limit: limit, walk: inKernel)
            } catch {
                throw ExplorationFailure(path: line + error.path, error: error.error)
            }
            statistics.nodes += reply.nodes
            statistics.transpositions += reply.cut
            statistics.performs += reply.performs
            frontier += reply.frontier
            if inKernel { pace(seconds: clock() - began, reply: reply) }
            statistics.seconds = clock() - start
            progress(statistics)
            switch reply.status {
            case .done, .skip: return .nothing
            case .found(let moves): return .line(line + moves)
            case .full: return .full
            case .undoMismatch(let below, let problems):
                throw ExplorationFailure(path: line + below, error: .undoMismatch(problems))
            case .open: break
            }
            let calls: [ActionCall]
            do { calls = try game.legalActions() } catch { throw ExplorationFailure(path: line, error: error) }
            for call in calls {
                if shouldStop() { return .stopped }
                line.append(call)
                do { try game.perform(call) } catch { throw ExplorationFailure(path: line, error: error) }
                statistics.performs += 1
                let found = try visit(depth: depth + 1, limit: limit, frontier: &frontier)
                do { try game.undo() } catch { throw ExplorationFailure(path: line, error: error) }
                line.removeLast()
                if case .nothing = found { continue }
                return found
            }
            let kept: Bool
            do { kept = try game.kernel.solveClose(depth: depth) } catch { throw ExplorationFailure(path: line, error: error) }
            return kept ? .nothing : .full
        }

        /// Keeps kernel calls between a few milliseconds and a quarter of a
        /// second: one level less after a slow call; one more after a quick
        /// one, when even a level's worth of its moves would stay quick.
        private mutating func pace(seconds: Double, reply: Kernel.SolveVisit) {
            if seconds > 0.25 {
                kernelDepth = max(1, kernelDepth - 1)
            } else if reply.nodes > 1 && kernelDepth < 24 {
                let branching = max(2.0, Double(reply.performs) / Double(max(1, reply.nodes - reply.frontier)))
                if seconds * branching < 0.02 { kernelDepth += 1 }
            }
        }
    }
}
