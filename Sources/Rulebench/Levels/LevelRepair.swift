/// Adds or refreshes the stored solutions of a level file: `rulebench solve
/// --levels FILE --write-solutions`. A level whose stored solution still
/// replays to the goal (every undo verified) keeps it; any other is solved
/// again from its options and gets the new line and grade. The levels
/// themselves (names, seeds, options) are never changed.
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

    public init(replay: LevelReplay, solverOptions: Solver.Options) {
        self.replay = replay
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
            let result = try Solver(game: game, options: solverOptions).run(shouldStop: shouldStop)
            switch result.outcome {
            case .solved(let line):
                file.levels[index].solution = LevelSolution(found: solverOptions.any ? .any : .shortest, calls: line)
                file.levels[index].grade = LevelGrade(line: line, statistics: result.statistics)
                change(level, .solved(was: was, moves: line.count))
            case .unreachable: change(level, .unsolved("unsolvable: every reachable state searched, goal \(file.goal) holds in none"))
            case .notWithin(let depth): change(level, .unsolved("no line within \(depth) moves (--max-depth)"))
            case .boundReached(let depth):
                change(level, .unsolved("\(solverOptions.maxStates) states kept while searching depth \(depth) (--max-states)"))
            case .interrupted: return file
            }
        }
        return file
    }
}
