// The counts a session reports as it goes (runs, steps, findings, seconds),
// and the phase it is in when it is not fuzzing. Rates leave shrinking out.

extension Fuzzer {
    /// Progress, reported as runs go.
    public struct Progress: Sendable {
        /// Runs made so far.
        public var runs = 0
        /// Steps taken over all runs.
        public var steps = 0
        /// Line-to-line edges of the pack's Lua that the runs reached first
        /// (counted in the runs that collect coverage: most of a guided
        /// session's built-on runs, every run with `coverage`); on several
        /// workers each edge is counted once, by the first to reach it.
        public var edges = 0
        /// Findings reported (one per distinct bug).
        public var findings = 0
        /// Findings of bugs already known (reported before, or a duplicate of one this session), not reported again.
        public var duplicates = 0
        /// Seconds since the session started.
        public var elapsed = 0.0
        /// Of `elapsed`, the seconds spent after findings: shrinking, the
        /// search for shorter instances, judging the reproduction.
        public var shrinkingSeconds = 0.0
        /// What the session is doing when it is not fuzzing
        /// ("shrinking finding 1: 21 → 9 steps"); nil while it fuzzes.
        public var phase: String?
        /// The run count the session stops at (nil: only time limits it).
        public var runLimit: Int?
        /// The seconds the session may take (nil: no time limit).
        public var timeLimit: Double?
        /// Seconds spent fuzzing: `elapsed` less the shrinking.
        public var fuzzingSeconds: Double { max(0, elapsed - shrinkingSeconds) }
        /// Steps per second of fuzzing (shrinking time left out).
        public var stepsPerSecond: Double { fuzzingSeconds > 0 ? Double(steps) / fuzzingSeconds : 0 }
    }
}
