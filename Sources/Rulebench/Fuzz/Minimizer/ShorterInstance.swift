// The search for shorter instances of a bug: fresh runs of the session that
// found it, each instance of the same bug shrunk, the shortest kept.
// Invariant: an instance replaces the reproduction only when it fails at the
// same place (`FindingKey`) in fewer steps; the runs it plays are the
// session's own (`Minimizer.Instances`), counted as the hand-off's.

/// The first finding's shortest reproduction, from other instances of its
/// bug. A shrinker only deletes and simplifies steps of the line the
/// fuzzer happened to play: a king reached by a long route shrinks to that
/// route, and no edit of it leads to the shortest line. So a timed session
/// that stops at its first finding spends some of the time left on fresh
/// runs at most twice as long as the best reproduction so far (half of
/// them at most `instanceDepth` steps), chosen as the session chooses
/// steps; each instance of the same bug they find is shrunk too, and the
/// shortest reproduction is reported, as Hypothesis keeps the smallest
/// example of each failure it sees. It ends early after `idleInstances`
/// instances in a row that were no shorter. Its runs are part of the
/// hand-off, not of the fuzzing: they are not counted in the session's
/// runs and steps.
struct ShorterInstance: MinimizerPass {
    let phase = ", looking for a shorter instance"

    /// The most steps half the instance runs take: a long first line (42
    /// random chess moves to a king capture) shrinks slowly, and runs as
    /// long as it find mostly more long lines; short runs find the short
    /// ones. The other half may take twice the best: a bug that needs a
    /// long line (a pawn walked to promotion) is found only by those.
    static let instanceDepth = 24
    /// Instances in a row that shrink no shorter than the best, after which
    /// the search for shorter ones ends (an easy bug is found every run).
    static let idleInstances = 4

    func applies(to report: Minimization, in work: Minimizer.Work) -> Bool {
        work.instances != nil && work.budget.timeLimit != nil && work.budget.shrinkEnd != nil
    }

    func minimize(_ report: Minimization, in work: Minimizer.Work, by minimizer: Minimizer) -> Minimization {
        let budget = work.budget
        guard let instances = work.instances, let limit = budget.timeLimit, let shrinkEnd = budget.shrinkEnd else { return report }
        let searchEnd = MinimizerBudget.instanceSearchEnd(now: budget.clock(), end: shrinkEnd, of: limit,
                                                          shrinkCutShort: report.shrinkStatus.wasCutShort)
        return minimizer.shortestInstance(of: report, until: searchEnd, instances: instances, clock: budget.clock,
                                          shouldStop: budget.shouldStop, observe: { work.observe($0, phase) })
    }
}

extension Minimizer {
    /// The shortest reproduction of `first`'s bug among the instances that
    /// `instances`' runs find until `end` on `clock` (see `ShorterInstance`).
    func shortestInstance(of first: Minimization, until end: Double, instances: Instances, clock: @escaping Minimizer.Clock,
                          shouldStop: () -> Bool, observe: (Int) -> Void) -> Minimization {
        var best = first
        var index = instances.firstRun
        var shrunk = 1   // instances shrunk so far, the first included
        var idle = 0     // instances shrunk since the best last got shorter
        while clock() < end, best.shrunk.steps.count > 1, idle < ShorterInstance.idleInstances, !shouldStop(),
              instances.hasRun(index) {
            defer { index += 1 }
            // Half the runs short (see `instanceDepth`), half up to twice the best.
            let longest = max(4, 2 * best.shrunk.steps.count)
            let depth = (index / 2) % 2 == 0 ? min(longest, ShorterInstance.instanceDepth) : longest
            guard let (program, result) = instances.play(index, depth) else { continue }
            if let finding = result.finding, first.key.admits(finding) {
                shrunk += 1
                idle += 1
                if let shorter = shorterInstance(program, finding, than: best, until: end, clock: clock,
                                                 shouldStop: shouldStop, observe: observe) {
                    best = shorter
                    idle = 0
                }
            }
            observe(best.shrunk.steps.count)
        }
        best.instancesShrunk = shrunk
        return best
    }

    /// The reproduction of another instance of `best`'s bug, when it is
    /// shorter. The cheap passes first: an instance that they leave more
    /// than 2 steps longer than the best is not worth the rest.
    private func shorterInstance(_ program: FuzzProgram, _ finding: FuzzFinding, than best: Minimization, until end: Double,
                                 clock: @escaping Minimizer.Clock, shouldStop: () -> Bool, observe: (Int) -> Void) -> Minimization? {
        let quick = shrink(program, finding, timeLimit: end - clock(),
                           costlyPasses: false, clock: clock, shouldStop: shouldStop, observe: observe)
        guard quick.shrunk.steps.count <= best.shrunk.steps.count + 2 else { return nil }
        let instance = finishShrinking(quick, until: end, clock: clock, shouldStop: shouldStop, observe: observe)
        guard instance.key == best.key, instance.shrunk.steps.count < best.shrunk.steps.count else { return nil }
        return instance
    }
}
