/// What a game is worth to the seat to move when every seat plays its best:
/// what `rulebench solve --value` runs (Kernel/value.lua).
///
/// Negamax with alpha-beta and a transposition table on the state hash,
/// deepened round by round (iterative deepening: one move deeper each
/// round, twice as deep after a round that met no finished game) until a
/// depth is searched with nothing cut short: then the value is proven. Moves are
/// ordered by the table's best move, then by the pack's `appraise`. Every
/// move is performed through the checked engine and undone with strict
/// verification. Each root move is searched with the whole window, so
/// every root move's value is exact; the principal line and each root
/// move's line (its refutation, when it is worse than the best) are played
/// again through the engine.
///
/// The pack declares `result(game)` (nil while play goes on; the seat that
/// won, "draw", or whole-number scores by seat). Games of two seats taking
/// turns, and of one seat (a puzzle: its best score). A move that draws from
/// the random generator (chance) is refused with a message saying so.
///
/// ```swift
/// let value = try GameValue(game: game).run()
/// print(value.verdict)   // .draw for tic-tac-toe
/// ```
public struct GameValue {
    /// The deepest search: the walk recurses once per move.
    public static let largestDepth = 200
    /// The most the transposition table holds (value.lua's TABLE_MOST
    /// entries, about 200 bytes each): what `solve --value` adds to the
    /// game's memory cap.
    public static let tableBytes = (1 << 19) * 200
    /// A result's unit in the kernel's values (value.lua's SCALE).
    static let scale = 1 << 10

    /// The game searched; it is back where it was when `run` returns.
    public let game: Game
    /// The most moves searched below the start.
    public let maxDepth: Int
    /// The most states searched in all (nil: no bound): a deepening that
    /// would search more stops, and the search gives the deepest round it
    /// finished. It counts work, not seconds, so a budgeted search gives the
    /// same answer on every machine.
    public let nodeBudget: Int?

    /// A search of `game` from its current state, at most `maxDepth` moves
    /// deep and, with `nodeBudget`, at most that many states.
    public init(game: Game, maxDepth: Int = 20, nodeBudget: Int? = nil) {
        self.game = game
        self.maxDepth = min(max(maxDepth, 1), Self.largestDepth)
        self.nodeBudget = nodeBudget.map { max($0, 1) }
    }

    /// What a value means for the seat to move.
    public enum Verdict: Equatable, Sendable, CustomStringConvertible {
        /// It wins (score 1), in `plies` moves at most against the best defence.
        case win(plies: Int)
        /// It loses (score -1), in `plies` moves at the latest.
        case loss(plies: Int)
        /// Neither seat can force better than a draw (score 0).
        case draw
        /// A score other than 1, 0 or -1, reached in `plies` moves.
        case score(Int, plies: Int)
        /// Not proven: the search was cut short; the pack's appraisal, from -1 to 1.
        case estimate(Double)

        /// From the kernel's value (value.lua): score * scale less the moves to a gain, plus those to a loss.
        init(value: Int, proven: Bool) {
            let half = GameValue.scale / 2
            if value >= half {
                let score = (value + half) / GameValue.scale
                let plies = score * GameValue.scale - value
                self = score == 1 ? .win(plies: plies) : .score(score, plies: plies)
            } else if value <= -half {
                let score = -((-value + half) / GameValue.scale)
                let plies = value - score * GameValue.scale
                self = score == -1 ? .loss(plies: plies) : .score(score, plies: plies)
            } else if proven {
                self = .draw
            } else {
                self = .estimate(Double(value) / Double(GameValue.scale / 4))
            }
        }

        /// "win in 5", "loss in 4", "draw", "score 3 in 7", "estimate 0.25 (not proven)".
        public var description: String {
            switch self {
            case .win(let plies): return "win in \(plies)"
            case .loss(let plies): return "loss in \(plies)"
            case .draw: return "draw"
            case .score(let score, let plies): return "score \(score) in \(plies)"
            case .estimate(let e): return "estimate \(e) (not proven)"
            }
        }

        /// The word for JSON: win, loss, draw, score or estimate.
        public var word: String {
            switch self {
            case .win: return "win"
            case .loss: return "loss"
            case .draw: return "draw"
            case .score: return "score"
            case .estimate: return "estimate"
            }
        }
    }

    /// One root move and what it is worth to the seat to move.
    public struct MoveValue: Sendable {
        public var call: ActionCall
        /// The kernel's value: higher is better for the seat to move.
        public var value: Int
        public var verdict: Verdict
        /// The line the move begins, both seats playing their best after it.
        public var line: [ActionCall]
    }

    /// How the search went.
    public struct Statistics: Sendable {
        /// States searched (each a node of the tree, the table's hits included).
        public var nodes = 0
        /// Moves performed and undone (verified), ordering included.
        public var performs = 0
        /// States answered by the transposition table.
        public var hits = 0
        /// States written into the table.
        public var stored = 0
        /// Finished games met in the search.
        public var finished = 0
        /// Seconds the search took.
        public var seconds = 0.0
        /// States searched per second.
        public var nodesPerSecond: Double { Double(nodes) / max(seconds, 1e-9) }
    }

    /// What the search found.
    public enum Outcome: Sendable {
        /// The value of the position for `seat` (the seat to move).
        case valued(seat: String, moves: [MoveValue], best: Int, depth: Int, proven: Bool)
        /// The game is over at the start: each seat's score.
        case over([String: Int])
        /// The search was stopped before depth 1 was searched.
        case interrupted
    }

    /// The outcome and what it cost.
    public struct Result: Sendable {
        public var outcome: Outcome
        public var statistics: Statistics

        /// The value for the seat to move (nil when the game is over or the search stopped).
        public var verdict: Verdict? {
            guard case .valued(_, let moves, let best, _, _) = outcome else { return nil }
            return moves[best].verdict
        }

        /// The principal line: the best root move's line.
        public var principalLine: [ActionCall] {
            guard case .valued(_, let moves, let best, _, _) = outcome else { return [] }
            return moves[best].line
        }
    }

    /// Searches, one more move deep each round until the value is proven,
    /// `maxDepth` is reached or the `nodeBudget` is spent; `shouldStop` is
    /// polled between root moves, and a stopped search gives the deepest
    /// round it finished.
    ///
    /// - Throws: an `ExplorationFailure`: a refusal (`.badInput`: no `result`,
    ///   more than two seats, a move of chance, no seat to move in a game not
    ///   over) or a step that failed, with the line to it. The game is back
    ///   where it was.
    /// Without `lines`, each root move's line is left empty (a bot needs only the values).
    public func run(clock: @escaping () -> Double = MonotonicClock.seconds, shouldStop: () -> Bool = { false }, lines: Bool = true,
                    progress: (Int, Statistics) -> Void = { _, _ in }) throws(ExplorationFailure) -> Result {
        let kernel = game.kernel
        let start = clock()
        let beginning: Kernel.ValueBeginning
        do { beginning = try kernel.valueBegin(budget: nodeBudget) } catch { throw ExplorationFailure(path: [], error: error) }
        defer { kernel.valueEnd() }
        var statistics = Statistics()
        let seat: String, calls: [ActionCall]
        switch beginning {
        case .over(let scores): return Result(outcome: .over(scores), statistics: statistics)
        case .refused(let why, let detail): throw ExplorationFailure(path: [], error: .badInput(InputProblem(Self.refusal(why, detail))))
        case .moves(let s, let c): (seat, calls) = (s, c)
        }
        var finished: (values: [Kernel.ValueMove], depth: Int)?
        var depth = 0, metAnEnd = true
        deepening: while depth < maxDepth {
            // A round that met no finished game scored every line by `appraise` alone: the next
            // goes twice as deep, else one move deeper. The rounds before the last only order the
            // moves (the table's best move of each state); the last decides every value.
            depth = metAnEnd ? depth + 1 : min(2 * depth, maxDepth)
            let endedBefore = statistics.finished
            var values: [Kernel.ValueMove] = []
            for index in calls.indices {
                if shouldStop() { break deepening }
                guard let move = try kernel.valueMove(index + 1, depth: depth) else { break deepening }   // the budget is spent
                values.append(move)
                statistics.update(move, seconds: clock() - start)
                progress(depth, statistics)
            }
            finished = (values, depth)
            if values.allSatisfy(\.proven) { break }
            metAnEnd = statistics.finished > endedBefore
        }
        guard let (values, depth) = finished else { return Result(outcome: .interrupted, statistics: statistics) }
        let proven = values.allSatisfy(\.proven)
        var moves: [MoveValue] = []
        for (index, value) in values.enumerated() {
            var line: [ActionCall] = []
            if lines { line = try kernel.valueLine(index + 1, depth: depth) }
            moves.append(MoveValue(call: calls[index], value: value.value,
                                   verdict: Verdict(value: value.value, proven: value.proven), line: line))
        }
        let best = moves.indices.max { moves[$0].value < moves[$1].value || (moves[$0].value == moves[$1].value && $0 > $1) } ?? 0
        statistics.seconds = clock() - start
        return Result(outcome: .valued(seat: seat, moves: moves, best: best, depth: depth, proven: proven), statistics: statistics)
    }

    /// Why the search refuses a game, and what to do.
    static func refusal(_ why: Kernel.ValueStart, _ detail: String) -> String {
        switch why {
        case .none:
            return "solve --value: the pack declares no result; add result = function(game) ... end to pack.lua: nil while play "
                + "goes on, else the seat that won, \"draw\", or a table of scores by seat"
        case .seats:
            return "solve --value: the game has more than two seats (\(detail)); --value searches games of one seat or two taking turns"
        case .stuck:
            return "solve --value: no seat may move at the start and result returned nil: a finished game's result says who won (or \"draw\")"
        case .turn, .ok, .over:
            return "solve --value: " + detail
        }
    }
}

extension GameValue.Statistics {
    mutating func update(_ move: Kernel.ValueMove, seconds: Double) {
        nodes = move.nodes
        performs = move.performs
        hits = move.hits
        stored = move.stored
        finished = move.finished
        self.seconds = seconds
    }
}
