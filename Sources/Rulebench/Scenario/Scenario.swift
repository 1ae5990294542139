/// A value read from a scenario file, with where it was written.
public struct Located<Value: Sendable>: Sendable {
    /// The value.
    public var value: Value
    /// Where it was written.
    public var location: SourceLocation

    /// A value at a location.
    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

/// A scenario file: a rule pack, a setup, and steps with expectations.
///
/// The format is described in docs/scenarios.md and by
/// `scenarios/scenario.schema.json`; `ScenarioParser` reads it.
public struct Scenario: Sendable {
    /// The file it was read from, as shown in messages.
    public var file: String
    /// The `scenario:` title.
    public var title: String
    /// The `rules:` pack name or path (relative to the scenario file's folder).
    public var rules: Located<String>
    /// The `setup:` section.
    public var setup: ScenarioSetup
    /// The steps, in order.
    public var steps: [ScenarioStep]
}

/// How a scenario's game starts.
public struct ScenarioSetup: Sendable {
    /// The engine's random seed (`seed:`, default 0).
    public var seed: Int64 = 0
    /// Setup options (`options:`); the pack's defaults fill the rest.
    public var options: [String: StateValue] = [:]
    /// State overrides written after setup (`state:`), in file order; nil removes a value.
    public var state: [StateAssignment] = []
    /// `create: true`: an override may create the tables missing on its path;
    /// without it, a path whose parent does not exist is bad input.
    public var createsTables = false
    /// Where each option was written, by name.
    public var optionLocations: [String: SourceLocation] = [:]

    /// An empty setup: seed 0, no options, no overrides.
    public init() {}
}

/// A value at a state path, as an override or an expectation. A nil value means "absent".
public struct StateAssignment: Sendable {
    /// The path, e.g. `tokens.p1.square`.
    public var path: StatePath
    /// The value; nil means the path holds nothing.
    public var value: StateValue?
    /// Where the path was written.
    public var location: SourceLocation
}

/// One step of a scenario.
public struct ScenarioStep: Sendable {
    /// What a step does before its expectations are checked.
    public enum Operation: Sendable, Equatable {
        /// `do: NAME` with `with:` params.
        case perform(action: String, params: [String: StateValue])
        /// `undo: N`.
        case undo(count: Int)
        /// `undo: turn`: back to the last checkpoint action (nothing right after one).
        case undoTurn
        /// `undo: last turn`: the last action and those before it back to the
        /// checkpoint before it (in a game whose every move is a checkpoint,
        /// the last move).
        case undoLastTurn
        /// `redo: N`.
        case redo(count: Int)
        /// A step with only `expect:`.
        case check
    }

    /// The step's 1-based number.
    public var number: Int
    /// Where the step begins (its first key).
    public var location: SourceLocation
    /// What it does.
    public var operation: Operation
    /// Where the action name of a `do` step was written.
    public var actionLocation: SourceLocation?
    /// Where each `with:` param was written, by name.
    public var paramLocations: [String: SourceLocation] = [:]
    /// What must be true after it (empty when it has no `expect:`).
    public var expectations: Expectations
    /// `as: SEAT`: the seat that performs a `do` step, or whose `undo: turn`
    /// it is (a player's undo turn stops at a reveal); nil: the author.
    public var seat: Located<String>? = nil

    /// The step as it reads in a report: `do: step {token="p1"}`, `undo: 2`, `undo: turn`.
    public var summary: String {
        switch operation {
        case .perform(let action, let params):
            let seat = self.seat.map { " as \($0.value)" } ?? ""
            if params.isEmpty { return "do: \(action)" + seat }
            return "do: \(action) {" + params.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + "}" + seat
        case .undoTurn where seat != nil: return "undo: turn as \(seat!.value)"
        case .undo(let count): return "undo: \(count)"
        case .undoTurn: return "undo: turn"
        case .undoLastTurn: return "undo: last turn"
        case .redo(let count): return "redo: \(count)"
        case .check: return "expect"
        }
    }
}

/// The `expect:` of a step. Every field is optional; only the ones given are checked.
public struct Expectations: Sendable {
    /// `state:` values at paths (nil: the path must be absent).
    public var state: [StateAssignment] = []
    /// `rejected:` a substring of the rejection reason.
    public var rejected: Located<String>?
    /// `error:` a substring of the error message (script error, budget, invariant).
    public var error: Located<String>?
    /// `subactions:` the expected subaction tree below the performed action.
    public var subactions: Located<[SubactionPattern]>?
    /// `sounds:` sound names in timeline order.
    public var sounds: Located<[String]>?
    /// `animation.duration:` total seconds.
    public var duration: Located<Double>?
    /// `animation.conflicts:` how many tween conflicts.
    public var conflicts: Located<Int>?
    /// `animation.starts:` when the first run on each `target.property` starts.
    public var starts: Located<[AnimationStart]>?
    /// `animation.mirrored: true`: an undo plays each action's do animation backwards in time.
    public var mirrored: Located<Bool>?
    /// `invariants: hold`.
    public var invariantsHold: Located<Bool>?
    /// `invariants: { broken: NAME }` or `{ broken: [A, B] }`: exactly these
    /// invariants are broken after the step (for a `do`, the action fails on them).
    public var invariantsBroken: Located<[String]>?
    /// `exists: [path, ...]`: each path holds a value (any value).
    public var exists: [Located<StatePath>] = []
    /// `absent: [path, ...]`: each path holds nothing.
    public var absent: [Located<StatePath>] = []
    /// `hash:` the state hash after the step (16 hex digits).
    public var hash: Located<String>?
    /// A `hash:` that holds a placeholder (`hash: H4`) where the hash is
    /// still to be written: read only for `rulebench state`, which prints
    /// the hash to write there (`ScenarioParser.parse(placeholders:)`).
    public var hashPlaceholder: Located<String>?
    /// `legal:` the legal actions after the step.
    public var legal: Located<LegalExpectation>?
    /// `seen_by: { SEAT: { path: value } }`: values in each seat's view of
    /// the state after the step (`"(hidden)"` where a slot is hidden from it).
    public var seenBy: [SeenBy] = []
    /// `goal:` a goal of the pack that holds after the step.
    public var goal: Located<String>?
    /// `not_goal:` a goal of the pack that does not hold after the step.
    public var notGoal: Located<String>?
    /// `sequence:` a story sequence the step starts, and what it says.
    public var sequence: Located<SequenceExpectation>?

    /// The goals named, each with whether it must hold (`goal:` first).
    public var goals: [(name: Located<String>, holds: Bool)] {
        [goal.map { ($0, true) }, notGoal.map { ($0, false) }].compactMap { $0 }
    }

    /// No expectations.
    public init() {}

    /// Whether nothing is expected.
    public var isEmpty: Bool {
        state.isEmpty && rejected == nil && error == nil && subactions == nil && sounds == nil
            && duration == nil && conflicts == nil && starts == nil && mirrored == nil && invariantsHold == nil && hash == nil && hashPlaceholder == nil && legal == nil
            && invariantsBroken == nil && exists.isEmpty && absent.isEmpty && goal == nil && notGoal == nil && seenBy.isEmpty
            && sequence == nil
    }
}

/// One seat of a `seen_by:` expectation: the values its view must hold.
public struct SeenBy: Sendable {
    public var seat: Located<String>
    public var state: [StateAssignment]
}

/// One expected subaction: its name and, when given, its own subactions.
///
/// In YAML, a list of names in execution order, where a list right after a
/// name gives that subaction's own subactions (same format, recursively):
/// `[move, [slide, slide], discard]`. A name with no list after it leaves its
/// subactions unchecked; `[]` after it requires it to have none.
public struct SubactionPattern: Sendable, Equatable, CustomStringConvertible {
    /// The subaction's name.
    public var name: String
    /// Its own subactions, or nil when they are not checked.
    public var subactions: [SubactionPattern]?

    /// A pattern from its parts.
    public init(_ name: String, _ subactions: [SubactionPattern]? = nil) {
        self.name = name
        self.subactions = subactions
    }

    /// The YAML-like form: `move, [slide]`.
    public var description: String {
        name + (subactions.map { ", " + SubactionPattern.render($0) } ?? "")
    }

    /// `[a, [b], c]`.
    public static func render(_ list: [SubactionPattern]) -> String {
        "[" + list.map(\.description).joined(separator: ", ") + "]"
    }

    /// A tree's subactions in the same notation, fully nested.
    static func render(_ trees: [SubactionTree]) -> String {
        "[" + trees.map { tree in
            tree.name + (tree.subactions.isEmpty ? "" : ", " + render(tree.subactions))
        }.joined(separator: ", ") + "]"
    }

    /// Whether `trees` match `patterns` (names in order; nested lists where given).
    static func matches(_ patterns: [SubactionPattern], _ trees: [SubactionTree]) -> Bool {
        guard patterns.count == trees.count else { return false }
        return zip(patterns, trees).allSatisfy { pattern, tree in
            pattern.name == tree.name && (pattern.subactions.map { matches($0, tree.subactions) } ?? true)
        }
    }
}

/// What `expect: { legal: ... }` asks of the legal actions after a step.
public enum LegalExpectation: Equatable, Sendable {
    /// `legal: [step, { do: step, with: { token: p1 } }]`: exactly these, in any order.
    case exactly([ActionCall])
    /// `legal: { contains: [...] }`: at least these.
    case contains([ActionCall])
    /// `legal: { count: 3 }`: this many.
    case count(Int)
    /// `legal: none`: no legal action (the game is over).
    case none
}

/// One entry of `animation.starts:`: the first tween or frame run on `key`
/// (`target.property`) starts `seconds` after the step's timeline begins.
public struct AnimationStart: Hashable, Sendable {
    /// `target.property`, as a timeline names it.
    public var key: String
    /// Seconds from the start of the step's timeline.
    public var seconds: Double

    /// An expected start.
    public init(key: String, seconds: Double) {
        self.key = key
        self.seconds = seconds
    }
}
