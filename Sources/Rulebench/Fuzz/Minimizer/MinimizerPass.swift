// One way of making a finding's reproduction shorter, as the minimizer runs
// it. Invariant: a pass returns a report whose reproduction fails as the
// one it was given does (`FindingKey.admits`) and is no less simple by the
// one order (`Shrinker.isSimpler`); the minimizer keeps nothing else.

/// A pass of minimization (`Minimizer.passes` lists them, in order).
protocol MinimizerPass: Sendable {
    /// What the progress line says while it runs, after the length
    /// (", looking for a shorter line"); empty for shrinking itself.
    var phase: String { get }
    /// Whether it runs on `report`, in this minimization.
    func applies(to report: Minimization, in work: Minimizer.Work) -> Bool
    /// `report` made shorter, or judged (its status), within `work`'s budget.
    func minimize(_ report: Minimization, in work: Minimizer.Work, by minimizer: Minimizer) -> Minimization
}
