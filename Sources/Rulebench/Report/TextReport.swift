import Foundation

/// The human-readable run report: one line per scenario, the failing step in
/// detail, and a summary line.
public enum TextReport {
    /// How many changed slots a failure shows before "... and N more".
    static let diffLines = 20

    /// The line of one scenario, followed by the details of its failure or problem.
    ///
    /// ```
    /// PASS  scenarios/template/dash.yaml  a dash moves two squares (4 steps, 3.2 ms)
    /// FAIL  scenarios/template/x.yaml  title (2 of 4 steps, 2.9 ms)
    ///       step 2 at scenarios/template/x.yaml:9:5: do: step {token="p1"}
    ///         state tokens.p1.square (line 12):
    ///           expected 3 (integer)
    ///           actual   2 (integer)
    ///       state changed by this step:
    ///         tokens.p1.square: 1 -> 2
    /// BAD   scenarios/y.yaml:3:1: unknown key 'stpes' in a scenario; did you mean 'steps'?
    /// ```
    public static func render(_ scenario: ScenarioReport) -> String {
        let time = milliseconds(scenario.duration)
        switch scenario.status {
        case .passed:
            return "PASS  \(scenario.file)  \(scenario.title ?? "") (\(scenario.stepCount) step\(scenario.stepCount == 1 ? "" : "s"), \(time))"
        case .badInput:
            return "BAD   " + (scenario.problem?.description ?? "\(scenario.file): cannot be used")
        case .failed:
            var lines = ["FAIL  \(scenario.file)  \(scenario.title ?? "") (\(scenario.stepsRun) of \(scenario.stepCount) steps, \(time))"]
            if let failure = scenario.failure { lines += details(failure) }
            return lines.joined(separator: "\n")
        }
    }

    /// The indented lines describing a failing step.
    static func details(_ failure: StepFailure, indent pad: String = "      ") -> [String] {
        let name = failure.step == 0 ? "setup" : "step \(failure.step)"
        var lines = ["\(pad)\(name) at \(failure.location): \(failure.summary)"]
        for mismatch in failure.mismatches {
            let at = mismatch.location.map { " (line \($0.line))" } ?? ""
            lines.append("\(pad)  \(mismatch.check)\(at):")
            lines.append("\(pad)    expected \(mismatch.expected)")
            lines.append("\(pad)    actual   \(mismatch.actual)")
            if let details = mismatch.details, !details.isEmpty {
                lines += details.split(separator: "\n", omittingEmptySubsequences: false).map { "\(pad)      \($0)" }
            }
        }
        if failure.stateDiff.isEmpty {
            lines.append("\(pad)\(failure.diffTitle): none")
        } else {
            lines.append("\(pad)\(failure.diffTitle):")
            lines += failure.stateDiff.prefix(diffLines).map { "\(pad)  \($0)" }
            if failure.stateDiff.count > diffLines { lines.append("\(pad)  ... and \(failure.stateDiff.count - diffLines) more") }
        }
        return lines
    }

    /// `12 scenarios: 10 passed, 1 failed, 1 bad input (84.1 ms)`.
    public static func summary(_ run: RunReport) -> String {
        let total = run.scenarios.count
        var parts = ["\(run.passedCount) passed", "\(run.failedCount) failed"]
        if run.badInputCount > 0 { parts.append("\(run.badInputCount) bad input") }
        return "\(total) scenario\(total == 1 ? "" : "s"): " + parts.joined(separator: ", ") + " (\(milliseconds(run.duration)))"
    }

    /// The whole report: each scenario, then the summary.
    public static func render(_ run: RunReport) -> String {
        (run.scenarios.map(render) + ["", summary(run)]).joined(separator: "\n") + "\n"
    }

    static func milliseconds(_ seconds: Double) -> String {
        String(format: "%.1f ms", seconds * 1000)
    }
}
