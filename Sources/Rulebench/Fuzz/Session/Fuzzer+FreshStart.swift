// The last step of a hand-off: a report judged as `rulebench run` will
// judge its file. Invariant: a report whose reproduction passes from a
// fresh start is never presented as one that fails.

extension Fuzzer {
    /// `report` as `rulebench run` will judge its file (`FreshStart`).
    /// When the shrunk program passes there, the program as the fuzzer
    /// played it is judged too and, when it fails, reported instead (its
    /// status `.notReproducible`: the shrinking did not hold); when it
    /// passes too, the report says so and no file is written for it.
    func judgedFromAFreshStart(_ report: Report) -> Report {
        guard let pack = reportingExecutor.games.main?.packURL ?? executor.games.main?.packURL else { return report }
        var judged = report
        judged.freshStart = FreshStart.judge(report, pack: pack, configuration: reportingExecutor.configuration)
        guard judged.freshStart != .fails, report.original != report.shrunk else { return judged }
        let found = reportingExecutor.execute(report.original, checkLegality: false, finalChecks: true)
        guard let finding = found.finding, report.key.admits(finding) else { return judged }
        var asFound = report
        (asFound.shrunk, asFound.finding, asFound.outcomes) = (report.original, finding, found.outcomes)
        asFound.shrunk.steps = Array(report.original.steps.prefix(max(0, finding.stepIndex + 1)))
        asFound.shrinkStatus = .notReproducible
        asFound.freshStart = FreshStart.judge(asFound, pack: pack, configuration: reportingExecutor.configuration)
        return asFound.freshStart == .fails ? asFound : judged
    }
}
