// What the minimizer gives back: the shortest reproduction it found of a
// failing program (`FailingProgram`), and how it found it. Invariant: a
// minimization's `shrunk` fails as its `original` did (`FindingKey.admits`)
// and is never less simple by the one order (`Shrinker.isSimpler`); it
// carries nothing of the session that found the bug (runs, steps, time into
// the session), which the session adds (`Fuzzer.Report`).

/// What minimizing a failing program gave (`Minimizer.minimize`).
struct Minimization: Sendable {
    /// What failed, as the shrunk program fails.
    var finding: FuzzFinding
    /// The program the minimizer was given.
    var original: FuzzProgram
    /// The reproduction: the simplest program found that fails the same way.
    var shrunk: FuzzProgram
    /// Outcomes of the shrunk program's steps (for writing it as a scenario).
    var outcomes: [FuzzExecutor.Outcome]
    /// Seconds spent shrinking.
    var shrinkSeconds: Double
    /// Candidate programs the shrinker ran.
    var shrinkAttempts: Int
    /// How shrinking ended (see `ShrinkStatus`).
    var shrinkStatus = ShrinkStatus.notShrunk
    /// How many instances of the bug were shrunk, this one the shortest
    /// (see `ShorterInstance`); 1 when only the first was.
    var instancesShrunk = 1

    /// Which bug this is.
    var key: FindingKey { FindingKey(finding) }

    /// `failing`, not minimized yet.
    init(unminimized failing: FailingProgram) {
        self.init(finding: failing.finding, original: failing.program, shrunk: failing.program, outcomes: [],
                  shrinkSeconds: 0, shrinkAttempts: 0)
    }

    init(finding: FuzzFinding, original: FuzzProgram, shrunk: FuzzProgram, outcomes: [FuzzExecutor.Outcome],
         shrinkSeconds: Double, shrinkAttempts: Int, shrinkStatus: ShrinkStatus = .notShrunk) {
        (self.finding, self.original, self.shrunk, self.outcomes) = (finding, original, shrunk, outcomes)
        (self.shrinkSeconds, self.shrinkAttempts, self.shrinkStatus) = (shrinkSeconds, shrinkAttempts, shrinkStatus)
    }

    /// This minimization, of a shrink that went on from `earlier`'s
    /// reproduction, as the whole one: `earlier`'s original, and the
    /// seconds and candidates of both.
    func continuing(_ earlier: Minimization) -> Minimization {
        var whole = self
        whole.original = earlier.original
        whole.instancesShrunk = earlier.instancesShrunk
        whole.shrinkSeconds += earlier.shrinkSeconds
        whole.shrinkAttempts += earlier.shrinkAttempts
        return whole
    }
}
