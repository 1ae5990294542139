import Foundation

/// How a reproduction fares run alone, as `rulebench run` will run its file:
/// parsed from the scenario text fuzz writes, in a game made afresh (a new
/// Lua state: no module state of earlier runs), by the scenario runner.
///
/// The invariant the fuzzer keeps with it: a reproduction is written as a
/// file only when the runner fails on it. A bug that no fresh start
/// reproduces (a rule that keeps state outside `game`, in a module-level
/// local, which the fuzz run's earlier operations had changed) is reported
/// as such, with both outcomes, never as a file that passes.
public enum FreshStart: Sendable, Equatable {
    /// The scenario runner fails on the reproduction, as the fuzz run did.
    case fails
    /// Run alone from a fresh start, the reproduction passes (or cannot
    /// run: `outcome` says what the runner said).
    case passes(outcome: String)

    /// `report` as `rulebench run` will judge its file, its pack the folder
    /// `pack`. When the shrunk program passes there, the program as the
    /// fuzzer played it is run again by `executor` (with every source line)
    /// and judged too and, when it fails, reported instead (its status
    /// `.notReproducible`: the shrinking did not hold); when it passes too,
    /// the report says so and no file is written for it.
    static func judged(_ report: Fuzzer.Report, pack: URL, executor: FuzzExecutor) -> Fuzzer.Report {
        var judged = report
        judged.freshStart = judge(report, pack: pack, configuration: executor.configuration)
        guard judged.freshStart != .fails, report.original != report.shrunk else { return judged }
        let found = executor.execute(report.original, checkLegality: false, finalChecks: true)
        guard let finding = found.finding, report.key.admits(finding) else { return judged }
        var asFound = report
        (asFound.shrunk, asFound.finding, asFound.outcomes) = (report.original, finding, found.outcomes)
        asFound.shrunk.steps = Array(report.original.steps.prefix(max(0, finding.stepIndex + 1)))
        asFound.shrinkStatus = .notReproducible
        asFound.freshStart = judge(asFound, pack: pack, configuration: executor.configuration)
        return asFound.freshStart == .fails ? asFound : judged
    }

    /// The runner's verdict on `report`'s reproduction, its pack the folder `pack`.
    static func judge(_ report: Fuzzer.Report, pack: URL, configuration: Game.Configuration) -> FreshStart {
        let text = Reproduction.scenario(for: report, packReference: pack.path,
                                         origin: FindingOrigin(command: "rulebench fuzz"))
        let scenario: Scenario
        do {
            scenario = try ScenarioParser.parse(text, file: "(the reproduction)")
        } catch {
            return .passes(outcome: "the reproduction cannot be read back: \(error)")
        }
        let result = ScenarioRunner(configuration: configuration).run(scenario, directory: pack)
        switch result.status {
        case .failed: return .fails
        case .passed: return .passes(outcome: "it passed")
        case .badInput: return .passes(outcome: "bad input: \(result.problem.map { "\($0)" } ?? "?")")
        }
    }
}
