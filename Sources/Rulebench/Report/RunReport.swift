/// What one `rulebench run` found: a report per scenario file, in run order.
public struct RunReport: Sendable {
    /// One entry per scenario file, in the order they ran.
    public var scenarios: [ScenarioReport]
    /// Wall-clock seconds of the whole run.
    public var duration: Double

    /// A report from its scenario reports.
    public init(scenarios: [ScenarioReport], duration: Double) {
        self.scenarios = scenarios
        self.duration = duration
    }

    /// How many scenarios passed.
    public var passedCount: Int { scenarios.filter { $0.status == .passed }.count }
    /// How many scenarios failed a check.
    public var failedCount: Int { scenarios.filter { $0.status == .failed }.count }
    /// How many files could not be used (unreadable, malformed, unknown pack or action).
    public var badInputCount: Int { scenarios.filter { $0.status == .badInput }.count }

    /// The process exit code: 2 when any file was bad input,
    /// else 1 when any scenario failed, else 0.
    public var exitCode: Int32 {
        if badInputCount > 0 { return 2 }
        return failedCount > 0 ? 1 : 0
    }
}

/// The outcome of one scenario file.
public struct ScenarioReport: Sendable {
    /// How a scenario ended.
    public enum Status: String, Sendable {
        /// Every step and every expectation held.
        case passed
        /// A step failed a check; `failure` says which and why.
        case failed
        /// The file could not be used; `problem` says where and why.
        case badInput = "bad-input"
    }

    /// The file, as messages show it.
    public var file: String
    /// The scenario's title, when the file was readable enough to have one.
    public var title: String?
    /// How it ended.
    public var status: Status
    /// Seconds it took, loading the pack included.
    public var duration: Double
    /// How many steps the scenario has, and how many ran (a failing step counts as run).
    public var stepCount: Int
    /// How many steps ran.
    public var stepsRun: Int
    /// The failing step, when `status` is `.failed`.
    public var failure: StepFailure?
    /// What is wrong with the file, when `status` is `.badInput`.
    public var problem: InputProblem?

    /// A report from its parts.
    public init(file: String, title: String?, status: Status, duration: Double, stepCount: Int = 0, stepsRun: Int = 0,
                failure: StepFailure? = nil, problem: InputProblem? = nil) {
        self.file = file
        self.title = title
        self.status = status
        self.duration = duration
        self.stepCount = stepCount
        self.stepsRun = stepsRun
        self.failure = failure
        self.problem = problem
    }

    /// A bad-input report.
    public static func badInput(file: String, title: String? = nil, problem: InputProblem, duration: Double) -> ScenarioReport {
        ScenarioReport(file: file, title: title, status: .badInput, duration: duration, problem: problem)
    }
}

/// The step where a scenario failed, and every check of it that did not hold.
public struct StepFailure: Sendable {
    /// The 1-based step number; 0 means the setup (pack setup or state overrides).
    public var step: Int
    /// Where the step is written in the scenario file.
    public var location: SourceLocation
    /// The step as it reads, e.g. `do: step {token="p1"}`.
    public var summary: String
    /// Each check that failed, in the order they were made.
    public var mismatches: [Mismatch]
    /// What the state diff below shows, e.g. "state changed by this step".
    public var diffTitle: String
    /// The differing state slots (see `diffTitle`), sorted by path.
    public var stateDiff: [StateChange]

    /// A failure from its parts.
    public init(step: Int, location: SourceLocation, summary: String, mismatches: [Mismatch],
                diffTitle: String = "state changed by this step", stateDiff: [StateChange] = []) {
        self.step = step
        self.location = location
        self.summary = summary
        self.mismatches = mismatches
        self.diffTitle = diffTitle
        self.stateDiff = stateDiff
    }
}

/// One check that did not hold: what was expected and what happened.
public struct Mismatch: Sendable, CustomStringConvertible {
    /// The check, named as the scenario key it comes from: `state tokens.p1.square`,
    /// `rejected`, `subactions`, `sounds`, `animation.duration`, `hash`, ...; implicit
    /// checks say so: `invariants (checked after every step)`.
    public var check: String
    /// What was expected, rendered.
    public var expected: String
    /// What happened, rendered.
    public var actual: String
    /// Where the expectation is written, when it was written.
    public var location: SourceLocation?
    /// More to read: a Lua traceback, the slots an undo did not restore.
    public var details: String?
    /// The state values the check compared, when it compared values (`state`,
    /// `exists`, `absent`): what `expected` and `actual` render, as data.
    public var values: ComparedValues?

    /// A mismatch from its parts.
    public init(check: String, expected: String, actual: String, location: SourceLocation? = nil, details: String? = nil,
                values: ComparedValues? = nil) {
        self.check = check
        self.expected = expected
        self.actual = actual
        self.location = location
        self.details = details
        self.values = values
    }

    /// `check: expected X, got Y`.
    public var description: String { "\(check): expected \(expected), got \(actual)" }
}

/// The two sides of a check that compared state values; nil is an empty slot
/// (`absent`), and `expected` is nil too when any value would have done (`exists`).
public struct ComparedValues: Sendable {
    /// What the scenario expected; nil: the slot empty (`absent`), or any value (`exists`).
    public var expected: StateValue?
    /// What the slot held; nil when it was empty.
    public var actual: StateValue?
    /// Whether `expected` means "any value" (an `exists` check) rather than "empty".
    public var expectsAnyValue: Bool

    /// The values of a check from its two sides.
    public init(expected: StateValue?, actual: StateValue?, expectsAnyValue: Bool = false) {
        self.expected = expected
        self.actual = actual
        self.expectsAnyValue = expectsAnyValue
    }
}
