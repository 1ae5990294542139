/// A deterministic pseudo-random generator for the fuzzer (SplitMix64).
///
/// The fuzzer's choices must be the same for the same seed on every machine,
/// so it uses its own generator rather than the system's.
public struct FuzzRandom: Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound (bound > 0), without modulo bias.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        let limit = UInt64.max - UInt64.max % UInt64(bound)
        var x = next()
        while x >= limit { x = next() }
        return Int(x % UInt64(bound))
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool {
        Double(next() >> 11) * 0x1p-53 < p
    }
}

/// One step of a fuzz program: what a player (or a buggy client) does.
public enum FuzzStep: Hashable, Sendable, CustomStringConvertible {
    /// Perform an action that `legal` emitted at this point.
    case perform(ActionCall)
    /// Try an action that may be illegal; a rejection must change nothing.
    case attempt(ActionCall)
    /// Undo this many steps.
    case undo(Int)
    /// Redo this many steps.
    case redo(Int)
    /// Undo back to the last checkpoint.
    case undoTurn

    /// The largest count an `undo N` or `redo N` step may have: no program
    /// has more steps than `FuzzProgram.maximumSteps`, so a larger count
    /// can only come from a damaged or hand-made corpus file.
    public static let maximumCount = FuzzProgram.maximumSteps

    /// The step as the fuzzer's reports show it: `do step {token = "p1"}`, `undo 2`.
    public var description: String {
        switch self {
        case .perform(let call): return "do \(call)"
        case .attempt(let call): return "try \(call)"
        case .undo(let n): return "undo \(n)"
        case .redo(let n): return "redo \(n)"
        case .undoTurn: return "undo turn"
        }
    }
}

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

/// What the fuzzer found wrong.
public struct FuzzFinding: Sendable, CustomStringConvertible {
    /// Which of the fuzzer's properties failed.
    public enum Property: String, Sendable, CaseIterable {
        case undoRestores = "undo restores the state exactly"
        case redoReproduces = "redo reproduces the action"
        case undoMirrorsDo = "an undo plays its action's animation backwards"
        case failureChangesNothing = "a rejected or failed action changes nothing"
        case legalIsAllowed = "every legal action passes check and applies"
        case invariantsHold = "pack invariants hold"
        case rewindAndReplay = "rewinding and replaying give the same hashes"
        case saveAndLoad = "saving and loading keep every hash"
        case animationIsSound = "animation plans are finite and free of conflicts"
        case deterministic = "the same seed gives the same run"
    }

    /// The property that failed.
    public var property: Property
    /// The step (0-based index in the program) where it failed.
    public var stepIndex: Int
    /// What happened, in a sentence or a few lines.
    public var message: String
    /// The first differing state paths, when the finding is about state.
    public var differences: [StateChange]
    /// The blamed action or subaction and its Lua file:line, when known.
    public var blame: String?

    /// How the message of a finding starts when listing the legal actions
    /// failed (a rule's `legal` raised) rather than an action.
    static let legalListingFailed = "legal raised an error: "

    /// How the message of a finding starts when it showed only as the run
    /// ended, rewinding the whole history: a reproduction then ends by
    /// undoing every step still done.
    static let rewindFailed = "rewinding the whole history"

    /// Whether the end-of-run rewind is what failed.
    public var isRewindFailure: Bool { message.hasPrefix(FuzzFinding.rewindFailed) }

    /// Whether listing the legal actions failed, before step `stepIndex`
    /// was chosen: a reproduction then ends with a `legal:` expectation.
    public var isLegalListingFailure: Bool {
        property == .legalIsAllowed && message.hasPrefix(FuzzFinding.legalListingFailed)
    }

    /// The property, the step and the message, then the blame and the first differences, a line each.
    public var description: String {
        var text = "\(property.rawValue) failed at step \(stepIndex + 1): \(message)"
        if let blame { text += "\n  blame: \(blame)" }
        for difference in differences.prefix(5) { text += "\n  " + UndoProblem.line(difference) }
        return text
    }

    /// Two findings are the same bug for shrinking when the same property fails.
    func matches(_ other: FuzzFinding) -> Bool { property == other.property }
}
