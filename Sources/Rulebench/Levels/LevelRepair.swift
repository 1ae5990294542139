/// Adds or refreshes the stored solutions of a level file: `rulebench solve
/// --levels FILE --write-solutions`. A level whose stored solution still
/// replays to the goal (every undo verified) keeps it; any other is solved
/// again from its options and gets the new line and grade. The levels
/// themselves (names, seeds, options) are never changed. Each level's search
/// is bounded by the solver's budget (depth, states) and by `levelSeconds`:
/// a level that runs out, or whose search exhausts the game's memory, is
/// named with the budget it ran out of, left as it was, and the next is solved.
public struct LevelRepair {
    /// What became of one level.
    public enum Change: Sendable, Equatable {
        /// Its stored solution still reaches the goal: kept as it is.
        case kept
        /// It had none, or a stale one: a new one was found (`was`: the replay's failure, nil when none was stored).
        case solved(was: String?, moves: Int)
        /// No solution could be stored: unsolvable, or out of budget. The level is left as it was.
        case unsolved(String)
    }

    public let replay: LevelReplay
    /// The search each level gets (its goal is the file's).
    public let solverOptions: Solver.Options
    /// Seconds each level's search may take (nil: no limit), read on `clock`.
    public let levelSeconds: Double?
    public let clock: () -> Double

    public init(replay: LevelReplay, solverOptions: Solver.Options, levelSeconds: Double? = nil,
                clock: @escaping () -> Double = MonotonicClock.seconds) {
        self.replay = replay
        self.levelSeconds = levelSeconds
        self.clock = clock
        var options = solverOptions
        options.goal = replay.file.goal
        self.solverOptions = options
    }

    /// The file with its solutions added or refreshed; `change` is called for each level.
    ///
    /// - Throws: a failure of the rules in the search (a step that fails, an
    ///   undo that does not restore the state): a bug to fix first.
    public func run(in game: Game, shouldStop: @escaping () -> Bool = { false },
                    change: (Level, Change) -> Void = { _, _ in }) throws -> LevelFile {
        var file = replay.file
        for index in file.levels.indices {
            if shouldStop() { break }
            let level = file.levels[index]
            let check = replay.replay(level, in: game)
            if check.passed {
                change(level, .kept)
                continue
            }
            let was = level.solution == nil ? nil : check.failure.map { failure in
                (failure.step.map { "step \($0): " } ?? "") + failure.message
            }
            try game.restart(seed: file.gameSeed, options: level.options)
            switch try search(game, shouldStop: shouldStop) {
            case .success(let line, let statistics):
                file.levels[index].solution = LevelSolution(found: solverOptions.any ? .any : .shortest, calls: line)
                file.levels[index].grade = LevelGrade(line: line, statistics: statistics)
                change(level, .solved(was: was, moves: line.count))
            case .failure(let why): change(level, .unsolved(why))
            case .none: return file
            }
        }
        return file
    }

    /// What one level's search found.
    enum Found {
        case success([ActionCall], Solver.Statistics)
        /// Why no line was found (the budget it ran out of, or that none exists).
        case failure(String)
    }

    /// The search of the level set up in `game`, within the solver's budget
    /// and `levelSeconds`; nil when `shouldStop` stopped it.
    private func search(_ game: Game, shouldStop: @escaping () -> Bool) throws -> Found? {
        let clock = self.clock
        let deadline = levelSeconds.map { clock() + $0 }
        let result: Solver.Result
        do {
            result = try Solver(game: game, options: solverOptions).run(shouldStop: { shouldStop() || deadline.map { clock() >= $0 } ?? false })
        } catch {
            // A budget of the game (its memory, most often, under a search of many states) ends this
            // level only; any other failure of the rules is a bug to fix first.
            guard case .budgetExceeded(let failure) = error.error else { throw error }
            return .failure("its search ran out of the game's budget after \(error.path.count) moves from the setup "
                            + "(\(failure)); give a smaller --max-states or --level-time")
        }
        switch result.outcome {
        case .solved(let line): return .success(line, result.statistics)
        case .unreachable: return .failure("unsolvable: every reachable state searched, goal \(replay.file.goal) holds in none")
        case .notWithin(let depth): return .failure("no line within \(depth) moves (--max-depth)")
        case .boundReached(let depth): return .failure("\(solverOptions.maxStates) states kept while searching depth \(depth) (--max-states)")
        case .interrupted:
            if shouldStop() { return nil }
            return .failure("out of its budget: --level-time \(levelSeconds.map { String(format: "%g", $0) } ?? "") s ended its "
                            + "search after \(result.statistics.nodes) states expanded, depth \(result.statistics.depth)")
        }
    }
}
