// A fuzz program: a game (pack, seed, setup options) and the steps played in
// it. Invariant: at most `maximumSteps` steps; a corpus file with more is
// refused when read.

/// A game to fuzz: its pack, seed and setup options, and the steps taken.
public struct FuzzProgram: Hashable, Sendable {
    /// The pack (name or folder) the game runs.
    public var pack: String
    /// The seed of the game's random generator.
    public var seed: Int64
    /// Setup options.
    public var options: [String: StateValue]
    /// The steps, in order.
    public var steps: [FuzzStep]

    /// The most steps a program may have. The fuzzer's runs are at most its
    /// `--depth` long (at most 10,000 steps), and what the guided search
    /// builds from them stays far below this; a corpus file with more steps
    /// is refused when read.
    public static let maximumSteps = 100_000

    /// A program of `pack` from a game with this seed and these setup options.
    public init(pack: String, seed: Int64, options: [String: StateValue], steps: [FuzzStep] = []) {
        self.pack = pack
        self.seed = seed
        self.options = options
        self.steps = steps
    }

    /// How many steps perform or attempt an action (the measure shrinking reduces first).
    public var actionCount: Int {
        steps.count { if case .perform = $0 { return true }; if case .attempt = $0 { return true }; return false }
    }
}
