import Foundation

/// A line the solver found, written as a scenario file: the same setup,
/// each move a `do` step, and the last step expecting the goal
/// (`expect: { goal: NAME }`), so `rulebench run` proves the line still
/// reaches it.
public struct SolutionScenario: Sendable {
    /// How the scenario names its pack (a name under rules/, or a path
    /// relative to the scenario file).
    public var packReference: String
    /// The goal reached.
    public var goal: String
    /// The seed of the game's random generator.
    public var seed: Int64
    /// The setup options given (the pack's defaults fill the rest).
    public var options: [String: StateValue]
    /// Values written over the state after setup, in order (nil removes one).
    public var state: [(path: StatePath, value: StateValue?)]
    /// The moves, from the setup.
    public var line: [ActionCall]
    /// The command that found it, for the header.
    public var command: String
    /// The search's statistics, for the header.
    public var statistics: Solver.Statistics

    /// A scenario of `line` reaching `goal` from a game set up so.
    public init(packReference: String, goal: String, seed: Int64, options: [String: StateValue],
                state: [(path: StatePath, value: StateValue?)], line: [ActionCall], command: String,
                statistics: Solver.Statistics) {
        self.packReference = packReference
        self.goal = goal
        self.seed = seed
        self.options = options
        self.state = state
        self.line = line
        self.command = command
        self.statistics = statistics
    }

    /// Whether a scenario in `folder` that names its pack `name` (`rules:
    /// NAME`) finds `game`'s pack: a `rules/NAME` folder beside `folder`
    /// or one of its parents. Otherwise it names the pack by a path.
    public static func packName(_ name: String, reaches game: Game, from folder: URL) -> Bool {
        guard !name.contains("/") else { return false }
        let target = game.packURL.standardizedFileURL.path
        var current = folder.standardizedFileURL
        while true {
            let candidate = current.appendingPathComponent("rules").appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("pack.lua").path) {
                return candidate.standardizedFileURL.path == target
            }
            if current.path == "/" { return false }
            current = current.deletingLastPathComponent()
        }
    }

    /// The states the header counts: those within one move fewer than the
    /// line when the search counted them (breadth-first), else all it reached.
    private var statesSearched: String {
        if statistics.finishedDepth == line.count - 1, let within = statistics.statesWithinFinishedDepth {
            return "\(within) distinct states within \(line.count - 1) moves"
        }
        return "\(statistics.distinctStates) distinct states reached"
    }

    /// How a file written at `path` names `game`'s pack, given on the
    /// command line as `given`: by name when the file's folder finds it so;
    /// else by a path from the file's folder, absolute when the two share
    /// only the root.
    public static func packReference(_ given: String, of game: Game, forFileAt path: String) -> String {
        let folder = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent()
        let packFolder = URL(fileURLWithPath: game.pack.directory).standardizedFileURL
        let relative = ScenarioWriter.relativePath(from: folder, to: packFolder)
        let climbsToRoot = relative.split(separator: "/").prefix(while: { $0 == ".." }).count >= folder.pathComponents.count - 1
        return packName(given, reaches: game, from: folder) ? given : climbsToRoot ? packFolder.path : relative
    }

    /// The scenario's YAML text. Its header claims what the search proved,
    /// and no more: breadth-first proves the line shortest, A* proves it
    /// only if the estimate never overestimates, depth-first (`--any`)
    /// proves nothing of its length.
    public var text: String {
        let moves = "\(line.count) move\(line.count == 1 ? "" : "s")"
        var file = ScenarioYAML()
        file.comment("Found by: \(command)")
        file.comment(claim(moves))
        let title = statistics.search == .breadthFirst ? "the goal \(goal) is reached in \(moves), the fewest possible"
            : "the goal \(goal) is reached in \(moves)"
        file.begin(title: title, packReference: packReference, seed: seed, options: options, state: state)
        let expectation = "{ goal: \(ScenarioYAML.value(.string(goal))) }"
        for (index, call) in line.enumerated() {
            file.perform(call)
            if index == line.count - 1 { file.append("    expect: \(expectation)") }
        }
        if line.isEmpty { file.append("  - expect: \(expectation)") }
        return file.text
    }

    /// The header's line on the line's length: what the search that found it proves.
    private func claim(_ moves: String) -> String {
        if line.isEmpty { return "The goal '\(goal)' holds after setup: 0 moves." }
        let searched = "\(statesSearched), \(statistics.nodes) searched in all, "
            + "every undo verified"
        switch statistics.search {
        case .breadthFirst:
            return "A shortest line to goal '\(goal)': \(moves); no line of \(line.count - 1) or fewer reaches it (\(searched))."
        case .bestFirst:
            return "A line to goal '\(goal)' found best-first (A*): \(moves); a shortest one if the goal's estimate never "
                + "overestimates the moves left (`rulebench check` looks for one that does; \(statistics.nodes) states searched, every undo verified)."
        case .depthFirst:
            return "A line to goal '\(goal)' found depth-first (--any): \(moves); not proven shortest, a shorter line may exist "
                + "(`rulebench solve` without --any finds a shortest one; \(statistics.nodes) states searched, every undo verified)."
        }
    }
}
