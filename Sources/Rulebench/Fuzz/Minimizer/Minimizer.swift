// From a failing program to the shortest reproduction found within a budget:
// the passes of minimization, registered in one list (`passes`) and run in
// its order, each within its share of the budget (`MinimizerBudget`). It
// knows nothing of the session that found the bug: the session hands it the
// program, a budget and, for the search for shorter instances, a way to play
// fresh runs (`Instances`). Invariant: a pass's result replaces the
// reproduction only when it is no less simple by the one order
// (`Shrinker.isSimpler`), so minimizing never lengthens a reproduction.

/// Minimizes a finding's reproduction: shrinking, shorter instances,
/// finishing a shrink cut short, the breadth-first search for a shorter
/// line and the searches for shorter endings (see `passes`).
struct Minimizer {
    /// Runs candidates fast: animation leaves carry no source lines.
    let executor: FuzzExecutor
    /// Runs a reproduction once more with every source line recorded.
    let reportingExecutor: FuzzExecutor
    /// The most candidate programs one finding's shrinks run in all.
    let shrinkBudget: Int

    /// The passes, in the order they run: the one list of what minimizing does.
    static let passes: [any MinimizerPass] = [
        ShrinkPass(.first),      // the found program, shrunk
        ShorterInstance(),       // other instances of the bug, from fresh runs (a timed session's first finding)
        ShrinkPass(.finish),     // a first shrink cut short, finished with what is left
        ShortestLine(),          // every line from the setup, breadth first: a shorter one, or the proof that none is
        ShorterEnding(),         // from each prefix, a shorter ending, shrunk again while that helps
    ]

    /// Fresh runs that may find other instances of the bug, for the search
    /// for shorter instances (`ShorterInstance`); the caller's (the fuzz
    /// session's), numbered by it.
    struct Instances {
        /// The first run to play.
        let firstRun: Int
        /// Whether run `index` may be played (the caller's run limit).
        let hasRun: (Int) -> Bool
        /// Plays run `index` at most `depth` steps; nil when the run is not
        /// the caller's to play (another shard's).
        let play: (_ index: Int, _ depth: Int) -> (FuzzProgram, FuzzExecutor.Result)?
    }

    /// What the passes of one minimization share.
    struct Work {
        /// What it may spend.
        let budget: MinimizerBudget
        /// Where other instances of the bug come from; nil when none are sought.
        let instances: Instances?
        /// Told the best length so far and the phase (`MinimizerPass.phase`).
        let observe: (Int, String) -> Void
    }

    /// The clock a minimization reads its time on (seconds; injected: tests use a fake one).
    typealias Clock = () -> Double

    /// The shortest reproduction of `failing` that the passes find within
    /// `budget`. Without `instances`, no other instance is sought. `passes`
    /// are `Minimizer.passes` but in tests.
    func minimize(_ failing: FailingProgram, budget: MinimizerBudget, instances: Instances?,
                  passes: [any MinimizerPass] = Minimizer.passes, observe: (Int, String) -> Void) -> Minimization {
        withoutActuallyEscaping(observe) { observe in
            let work = Work(budget: budget, instances: instances, observe: observe)
            var best = Minimization(unminimized: failing)
            for pass in passes where pass.applies(to: best, in: work) {
                let result = pass.minimize(best, in: work, by: self)
                // The one order: a pass never makes the reproduction longer.
                if !Shrinker.isSimpler(best.shrunk, than: result.shrunk) { best = result }
            }
            return best
        }
    }
}
