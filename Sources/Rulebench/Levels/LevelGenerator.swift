/// Makes levels: `rulebench generate`. Each candidate's options come from
/// the pack's `generate(rng, params)` with a seed of its own; the candidate
/// is set up, dropped when its setup state was seen before, and solved with
/// the `Solver`; it is kept only when the goal is reachable, with the line
/// found, its grade, and (with `unique`) the count of lines of that length.
///
/// The candidates' seeds follow from the run's seed alone (SplitMix64), and
/// every level is set up with the same game seed, so the same run gives the
/// same levels in the same order. A candidate the search could not settle
/// within its budget is reported and skipped, never kept unproven; a stop
/// (the time limit, Ctrl-C) keeps the levels finished before it.
public struct LevelGenerator {
    /// What to make, and within what.
    public struct Options: Sendable {
        /// The goal every level must reach.
        public var goal: String
        /// How many levels to make.
        public var count: Int
        /// The run's seed: the candidates' seeds follow from it.
        public var seed: Int64 = 1
        /// The seed each level's game is set up with.
        public var gameSeed: Int64 = 0
        /// The params `generate` receives.
        public var params: [String: StateValue] = [:]
        /// Take the first line a depth-first search finds (labelled `any`), not a shortest one.
        public var any = false
        /// Count the lines of the solution's length up to this limit, and
        /// keep only levels with one (nil: not counted).
        public var uniqueLimit: Int?
        /// The moves a kept level's solution has, at least and at most.
        public var moves: ClosedRange<Int> = 1...Int.max
        /// Each candidate's budget: the deepest line, the states the search
        /// keeps, the moves the uniqueness count performs.
        public var maxDepth = 40
        public var maxStates = 100_000
        public var maxCountMoves = 200_000
        /// Seconds the whole run may take (nil: no limit).
        public var seconds: Double?

        public init(goal: String, count: Int) {
            self.goal = goal
            self.count = count
        }
    }

    /// Why a candidate was not kept.
    public enum Skip: Sendable, Hashable {
        /// Its setup state is one seen before.
        case duplicate
        /// Its setup fails (the options `generate` returned are refused).
        case setupFails(String)
        /// The goal holds at the setup: nothing to solve.
        case solvedAtSetup
        /// Every reachable state was searched: the goal can never be reached.
        case unsolvable
        /// The search ran out of its budget (depth or states): nothing proven.
        case outOfBudget(String)
        /// Its solution's moves are outside `Options.moves`.
        case gradeOutside(Int)
        /// More than one line of the shortest length reaches the goal.
        case notUnique(Int, limitReached: Bool)
        /// The count of lines ran out of its budget: uniqueness not proven.
        case uniquenessUnproven(moves: Int)

        /// The reason in words, for the progress lines and the summary.
        public var text: String {
            switch self {
            case .duplicate: return "the same setup as an earlier candidate"
            case .setupFails(let message): return "its setup fails: \(message)"
            case .solvedAtSetup: return "the goal holds at the setup"
            case .unsolvable: return "unsolvable: every reachable state searched, the goal holds in none"
            case .outOfBudget(let why): return "out of budget: \(why)"
            case .gradeOutside(let moves): return "\(moves) moves, outside the grades asked for"
            case .notUnique(let n, let more): return "not unique: \(n)\(more ? " or more" : "") lines of the shortest length"
            case .uniquenessUnproven(let moves): return "uniqueness not proven within \(moves) moves counted"
            }
        }

        /// The reason's kind alone, for the summary's tally.
        public var kind: String {
            switch self {
            case .duplicate: return "duplicate"
            case .setupFails: return "setup fails"
            case .solvedAtSetup: return "solved at setup"
            case .unsolvable: return "unsolvable"
            case .outOfBudget: return "out of budget"
            case .gradeOutside: return "grade outside"
            case .notUnique: return "not unique"
            case .uniquenessUnproven: return "uniqueness unproven"
            }
        }
    }

    /// What happened to one candidate.
    public enum Event: Sendable {
        case kept(Level)
        case skipped(seed: Int64, Skip)
    }

    /// How far the run is, told with each event: levels kept, candidates decided.
    public struct Progress: Sendable {
        public var kept: Int
        public var candidates: Int
    }

    /// Why the run ended.
    public enum Stop: String, Sendable {
        case done = "done", time = "time limit", interrupted = "interrupted"
    }

    /// A run's levels and what it tried.
    public struct Result: Sendable {
        public var file: LevelFile
        public var candidates = 0
        /// Skipped candidates by reason's kind.
        public var skipped: [String: Int] = [:]
        public var stop = Stop.done
        public var seconds = 0.0

        /// The levels kept and candidates decided so far.
        public var progress: Progress { Progress(kept: file.levels.count, candidates: candidates) }
    }

    public let game: Game
    public let options: Options

    public init(game: Game, options: Options) {
        self.game = game
        self.options = options
    }

    /// The seed of the `index`-th candidate (0-based) of a run seeded `seed`:
    /// 53 bits, so every program reading the file reads it exactly.
    public static func candidateSeeds(_ seed: Int64) -> AnySequence<Int64> {
        AnySequence { () -> AnyIterator<Int64> in
            var random = FuzzRandom(seed: UInt64(bitPattern: seed))
            return AnyIterator { Int64(random.next() & ((1 << 53) - 1)) }
        }
    }

    /// One candidate's work, before the run decides on it in its order
    /// (`decide`): its setup state's hash (nil when the setup failed) and
    /// what it came to as if it were no duplicate (nil: a stop ended it).
    struct Attempt {
        var hash: StateHash?
        var outcome: Event?
    }

    /// Makes levels until `options.count` are kept, the time is up or
    /// `shouldStop` says so. `event` is called for every candidate, with the run's progress.
    ///
    /// - Throws: a failure of the rules (`generate` that errs, a step that
    ///   fails in the search): a bug to fix, not a candidate to skip.
    public func run(packReference: String, clock: @escaping () -> Double = MonotonicClock.seconds,
                    shouldStop: @escaping () -> Bool = { false }, event: (Event, Progress) -> Void = { _, _ in }) throws -> Result {
        let start = clock()
        let deadline = options.seconds.map { start + $0 }
        let timeUp = { deadline.map { clock() >= $0 } ?? false }
        var result = Result(file: LevelFile(packReference: packReference, goal: options.goal, gameSeed: options.gameSeed,
                                            params: options.params))
        var seen: Set<StateHash> = []
        for seed in Self.candidateSeeds(options.seed) {
            if result.file.levels.count >= options.count { break }
            if shouldStop() { result.stop = .interrupted; break }
            if timeUp() { result.stop = .time; break }
            var attempt: Attempt
            do {
                attempt = try self.attempt(seed, isDuplicate: { seen.contains($0) }, shouldStop: { shouldStop() || timeUp() })
            } catch where shouldStop() {
                attempt = Attempt()   // a signal stopped the rules mid-call: the candidate is dropped, the levels kept
            }
            guard let decided = Self.decide(attempt, seed: seed, in: &result, seen: &seen, stop: shouldStop() ? .interrupted : .time) else { break }
            event(decided, result.progress)
        }
        result.seconds = clock() - start
        return result
    }

    /// Decides on the next candidate, in the run's order: a duplicate when
    /// an earlier candidate had its setup state, else what it came to. The
    /// only place a level is kept and named, so every number of workers
    /// writes the same file. Returns nil when a stop (`stop`) ended it: it
    /// is not counted, and the run ends.
    static func decide(_ attempt: Attempt, seed: Int64, in result: inout Result, seen: inout Set<StateHash>, stop: Stop) -> Event? {
        var outcome = attempt.outcome
        if let hash = attempt.hash, !seen.insert(hash).inserted { outcome = .skipped(seed: seed, .duplicate) }
        switch outcome {
        case .some(.kept(var level)):
            level.name = String(result.file.levels.count + 1)
            result.file.levels.append(level)
            result.candidates += 1
            return .kept(level)
        case .some(.skipped(_, let why)):
            result.skipped[why.kind, default: 0] += 1
            result.candidates += 1
            return outcome
        case .none:   // stopped partway: the candidate is dropped
            result.stop = stop
            return nil
        }
    }

    /// One candidate: set up, checked against the setups before it
    /// (`isDuplicate`, which needs only be right when it says yes: `decide`
    /// has the last word), solved and counted.
    func attempt(_ seed: Int64, isDuplicate: (StateHash) -> Bool, shouldStop: @escaping () -> Bool) throws -> Attempt {
        let levelOptions = try game.generate(seed: seed, params: options.params)
        do {
            try game.restart(seed: options.gameSeed, options: levelOptions)
        } catch let error {
            if case .badInput(let problem) = error { return Attempt(outcome: .skipped(seed: seed, .setupFails(problem.message))) }
            if case .script = error { return Attempt(outcome: .skipped(seed: seed, .setupFails("\(error)"))) }
            throw error
        }
        let hash = game.stateHash
        if isDuplicate(hash) { return Attempt(hash: hash, outcome: .skipped(seed: seed, .duplicate)) }
        return Attempt(hash: hash, outcome: try solve(seed, levelOptions, shouldStop: shouldStop))
    }

    /// The candidate set up in the game, solved: kept, skipped, or nil when a stop ended its search.
    private func solve(_ seed: Int64, _ levelOptions: [String: StateValue], shouldStop: @escaping () -> Bool) throws -> Event? {
        var solverOptions = Solver.Options(goal: options.goal)
        solverOptions.maxDepth = options.maxDepth
        solverOptions.maxStates = options.maxStates
        solverOptions.any = options.any
        let solved = try Solver(game: game, options: solverOptions).run(shouldStop: shouldStop)
        let line: [ActionCall]
        switch solved.outcome {
        case .solved(let found): line = found
        case .unreachable: return .skipped(seed: seed, .unsolvable)
        case .notWithin(let depth): return .skipped(seed: seed, .outOfBudget("no line within \(depth) moves (--max-depth)"))
        case .boundReached(let depth):
            return .skipped(seed: seed, .outOfBudget("\(options.maxStates) states kept while searching depth \(depth) (--max-states)"))
        case .interrupted: return nil
        }
        if line.isEmpty { return .skipped(seed: seed, .solvedAtSetup) }
        guard options.moves.contains(line.count) else { return .skipped(seed: seed, .gradeOutside(line.count)) }
        var solution = LevelSolution(found: options.any ? .any : .shortest, calls: line)
        if let limit = options.uniqueLimit {
            let count = SolutionCount(game: game, goal: options.goal, limit: max(limit, 2), maxMoves: options.maxCountMoves)
            switch try count.run(length: line.count, shouldStop: shouldStop) {
            case .counted(1, _): solution.linesOfThisLength = 1
            case .counted(let n, let reached): return .skipped(seed: seed, .notUnique(n, limitReached: reached))
            case .outOfBudget(let moves): return .skipped(seed: seed, .uniquenessUnproven(moves: moves))
            case .interrupted: return nil
            }
        }
        return .kept(Level(name: "", seed: seed, options: levelOptions,
                           grade: LevelGrade(line: line, statistics: solved.statistics), solution: solution))
    }
}
