// The shrinker as a pass of minimization: the found program shrunk first,
// and a shrink cut short finished later with what is left of the candidates.
// Invariant: every shrink of one finding draws on one candidate budget
// (`Minimizer.shrinkBudget`), and ends by the budget's `shrinkEnd`.

/// Shrinking (`Shrinker`) as a pass: the first shrink, or the finish of one cut short.
struct ShrinkPass: MinimizerPass {
    /// Which shrink.
    enum Kind {
        /// The found program's. In a search for shorter instances it gets a
        /// share of the time (`MinimizerBudget.firstShrinkSeconds`), else all of it.
        case first
        /// A shrink cut short (by time, or without the costly passes) taken
        /// up again after the search for shorter instances, until `shrinkEnd`.
        case finish
    }

    let kind: Kind
    let phase = ""

    init(_ kind: Kind) { self.kind = kind }

    func applies(to report: Minimization, in work: Minimizer.Work) -> Bool {
        switch kind {
        case .first: return true
        // Only where a search for shorter instances took the time between.
        case .finish: return work.instances != nil && work.budget.shrinkEnd != nil
        }
    }

    func minimize(_ report: Minimization, in work: Minimizer.Work, by minimizer: Minimizer) -> Minimization {
        let budget = work.budget
        let observe = { work.observe($0, phase) }
        switch kind {
        case .first:
            let timeLimit: Double?
            if work.instances != nil, let limit = budget.timeLimit, let shrinkEnd = budget.shrinkEnd {
                timeLimit = MinimizerBudget.firstShrinkSeconds(left: shrinkEnd - budget.clock(), of: limit)
            } else {
                timeLimit = budget.shrinkEnd.map { $0 - budget.clock() }
            }
            return minimizer.shrink(report.shrunk, report.finding, timeLimit: timeLimit, clock: budget.clock,
                                    shouldStop: budget.shouldStop, observe: observe)
        case .finish:
            guard let shrinkEnd = budget.shrinkEnd else { return report }
            return minimizer.finishShrinking(report, until: shrinkEnd, clock: budget.clock, shouldStop: budget.shouldStop,
                                             observe: observe)
        }
    }
}

extension Minimizer {
    /// Shrinks a failing program and times it on `clock`; `timeLimit` (the
    /// time left) caps the shrinker's own default.
    func shrink(_ program: FuzzProgram, _ finding: FuzzFinding, budget: Int? = nil, timeLimit: Double? = nil, costlyPasses: Bool = true,
                clock: @escaping Minimizer.Clock = MonotonicClock.seconds, shouldStop: () -> Bool = { false },
                observe: (Int) -> Void = { _ in }) -> Minimization {
        let start = clock()
        var shrinker = Shrinker(executor: executor, budget: budget ?? shrinkBudget, clock: clock)
        shrinker.runsCostlyPasses = costlyPasses
        if let timeLimit { shrinker.timeLimit = max(0, min(shrinker.timeLimit, timeLimit)) }
        let (small, smallFinding) = shrinker.shrink(program, finding, shouldStop: shouldStop, observe: observe)
        let final = reportingExecutor.execute(small, checkLegality: false, finalChecks: false)
        let reported = final.finding.flatMap { $0.property == smallFinding.property ? $0 : nil } ?? smallFinding
        return Minimization(finding: reported, original: program, shrunk: small, outcomes: final.outcomes,
                            shrinkSeconds: clock() - start, shrinkAttempts: shrinker.attempts,
                            shrinkStatus: shrinker.status)
    }

    /// Shrinks a report's reproduction further when its shrinking was cut
    /// short (by a time limit, or without the costly passes), with what is
    /// left of the candidate budget, until `end` on `clock`.
    func finishShrinking(_ report: Minimization, until end: Double, clock: @escaping Minimizer.Clock,
                         shouldStop: () -> Bool, observe: (Int) -> Void) -> Minimization {
        let left = shrinkBudget - report.shrinkAttempts
        guard report.shrinkStatus == .budgetSpent || report.shrinkStatus == .timeUp, left > 0, !shouldStop(),
              clock() < end else { return report }
        let finished = shrink(report.shrunk, report.finding, budget: left, timeLimit: end - clock(), clock: clock, shouldStop: shouldStop, observe: observe)
        return finished.continuing(report)
    }
}
