/// One level of a level file (docs/levels.md): how it was made (the
/// generator's seed), what sets it up (the options), how hard it is (the
/// grade) and the line that solves it, stored so that a game never has to
/// solve at run time and `rulebench run` can prove it still does.
public struct Level: Sendable, Equatable {
    /// Its name in the file ("1", "2", ...): what messages and the studio show.
    public var name: String
    /// The seed `generate(rng, params)` was given: with the file's params it
    /// gives these options again.
    public var seed: Int64
    /// The setup options (the pack's defaults fill the rest).
    public var options: [String: StateValue]
    /// How hard the search found it; nil until a solution is stored.
    public var grade: LevelGrade?
    /// The stored line to the file's goal; nil when none is stored yet.
    public var solution: LevelSolution?
    /// The line of `name:` in the file it was read from (nil for a level made here).
    public var line: Int?
    /// The line of each stored call in the file it was read from (empty for a
    /// level made here): where a replay that fails at a step points.
    public var callLines: [Int] = []

    public init(name: String, seed: Int64, options: [String: StateValue], grade: LevelGrade? = nil,
                solution: LevelSolution? = nil, line: Int? = nil) {
        self.name = name
        self.seed = seed
        self.options = options
        self.grade = grade
        self.solution = solution
        self.line = line
    }

    public static func == (a: Level, b: Level) -> Bool {
        a.name == b.name && a.seed == b.seed && a.options == b.options && a.grade == b.grade && a.solution == b.solution
    }
}

/// A level's difficulty, as the solver measured it.
public struct LevelGrade: Sendable, Equatable {
    /// Moves of the stored solution (the grade `--min-grade` and `--max-grade` select by).
    public var moves: Int
    /// States the search expanded before it found the line.
    public var states: Int
    /// Legal moves per state expanded, on average.
    public var branching: Double

    public init(moves: Int, states: Int, branching: Double) {
        self.moves = moves
        self.states = states
        self.branching = branching
    }

    /// The grade of a line the solver found with these statistics.
    public init(line: [ActionCall], statistics: Solver.Statistics) {
        moves = line.count
        states = statistics.nodes
        let raw = statistics.nodes > 0 ? Double(statistics.performs) / Double(statistics.nodes) : 0
        branching = (raw * 100).rounded() / 100
    }
}

/// A stored line to the goal and what is known of it.
public struct LevelSolution: Sendable, Equatable {
    /// How it was found.
    public enum Found: String, Sendable {
        /// By a breadth-first (or A*) search: no shorter line exists.
        case shortest
        /// The first line a depth-first search found (`--any`): maybe not the shortest.
        case any
    }

    /// How it was found.
    public var found: Found
    /// The moves from the setup.
    public var calls: [ActionCall]
    /// How many lines of this length reach the goal, counted up to a limit
    /// (`--unique`): 1 is a proof that this line is the only one; nil when not counted.
    public var linesOfThisLength: Int?
    /// Whether `linesOfThisLength` stopped at the limit (there may be more).
    public var countStoppedAtLimit = false

    public init(found: Found, calls: [ActionCall], linesOfThisLength: Int? = nil, countStoppedAtLimit: Bool = false) {
        self.found = found
        self.calls = calls
        self.linesOfThisLength = linesOfThisLength
        self.countStoppedAtLimit = countStoppedAtLimit
    }
}
