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
