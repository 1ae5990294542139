// A finding as the session reports it: what failed, the program as played and
// as shrunk, and how the shrinking and the judgement from a fresh start went.
// Invariant: `shrunk` fails as `finding` says (or `shrinkStatus` says it did not reproduce).

extension Fuzzer {
    /// A finding with its shrunk reproduction.
    public struct Report: Sendable {
        /// What failed, as the shrunk program fails.
        public var finding: FuzzFinding
        /// The program as the fuzzer played it.
        public var original: FuzzProgram
        /// The reproduction: the simplest program found that fails the same way.
        public var shrunk: FuzzProgram
        /// Outcomes of the shrunk program's steps (for writing it as a scenario).
        var outcomes: [FuzzExecutor.Outcome]
        /// Seconds spent shrinking.
        public var shrinkSeconds: Double
        /// Candidate programs the shrinker ran.
        public var shrinkAttempts: Int
        /// How shrinking ended: `.minimal` unless the budget ran out or the
        /// finding did not fail again when its program was re-run alone.
        public var shrinkStatus = ShrinkStatus.notShrunk
        /// Steps the fuzzer took (in this session) before this finding.
        public var stepsToDetection: Int
        /// Seconds into the session when the finding's run ended (before any shrinking).
        public var secondsToDetection = 0.0
        /// The index of the run that found it first (0-based, counted over
        /// all shards), also when the reproduction is a shorter instance
        /// found later; nil when the guided search's sweep or a corpus replay did.
        public var run: Int? = nil
        /// How many instances of the bug were shrunk, this one the shortest
        /// (see `ShorterInstance`); 1 when only the first was.
        public var instancesShrunk = 1
        /// How the reproduction fared run alone, as `rulebench run` runs its
        /// file (nil: not judged, as for a corpus replay; see `FreshStart`).
        public var freshStart: FreshStart? = nil

        /// Which bug this is, for deduplication.
        public var key: FindingKey { FindingKey(finding) }
    }
}

extension Fuzzer.Report {
    /// The report of `minimization`, the minimized finding of run `run`
    /// (nil: not a run's, see `run`) made after `stepsToDetection` steps.
    init(_ minimization: Minimization, run: Int?, stepsToDetection: Int) {
        self.init(finding: minimization.finding, original: minimization.original, shrunk: minimization.shrunk,
                  outcomes: minimization.outcomes, shrinkSeconds: minimization.shrinkSeconds,
                  shrinkAttempts: minimization.shrinkAttempts, shrinkStatus: minimization.shrinkStatus,
                  stepsToDetection: stepsToDetection, run: run, instancesShrunk: minimization.instancesShrunk)
    }
}
