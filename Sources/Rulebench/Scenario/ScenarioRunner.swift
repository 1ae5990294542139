import Foundation

/// Runs scenario files against their rule packs and reports what held.
///
/// ```swift
/// let runner = ScenarioRunner()
/// let report = runner.run(fileAt: url, displayPath: "scenarios/template/dash.yaml")
/// print(report.status)
/// ```
///
/// Besides a step's own `expect`, every step checks without being asked:
/// the pack's invariants hold, an action that was rejected or failed changed
/// nothing, and (strict mode, the default) every undo restored the state
/// exactly and every redo reproduced the action. A scenario stops at its
/// first failing step.
public struct ScenarioRunner: Sendable {
    /// The game configuration every scenario runs with (strict by default).
    public var configuration: Game.Configuration
    /// Whether a run of many files on a pool keeps each worker's game for
    /// the next scenario of its pack (`ScenarioGames`); tests turn it off
    /// to compare with a new game per scenario.
    var reusesGames = true
    /// Told the pack of each game a run on a pool makes (a restart is not
    /// one); tests count the loads with it.
    var gameMade: (@Sendable (_ pack: URL) -> Void)?

    /// A runner with a game configuration.
    public init(configuration: Game.Configuration = Game.Configuration()) {
        self.configuration = configuration
    }

    /// Reads and runs one file; a file that cannot be used gives a `.badInput` report.
    public func run(fileAt url: URL, displayPath: String? = nil) -> ScenarioReport {
        run(fileAt: url, displayPath: displayPath, games: nil)
    }

    /// Reads and runs one file, in a game of `games` when given (a worker's
    /// kept game, restarted: see `ScenarioGames`), else in a new one.
    func run(fileAt url: URL, displayPath: String?, games: ScenarioGames?) -> ScenarioReport {
        let file = displayPath ?? url.path
        let clock = ContinuousClock()
        let start = clock.now
        let scenario: Scenario
        do {
            scenario = try ScenarioParser.parse(contentsOf: url, displayPath: file)
        } catch {
            return .badInput(file: file, problem: ScenarioRunner.problem(error, file: file), duration: clock.now.seconds(since: start))
        }
        var report = run(scenario, directory: url.deletingLastPathComponent(), games: games)
        report.duration = clock.now.seconds(since: start)
        return report
    }

    /// Runs a parsed scenario; `directory` is where a relative `rules:` path starts.
    public func run(_ scenario: Scenario, directory: URL) -> ScenarioReport {
        run(scenario, directory: directory, games: nil)
    }

    private func run(_ scenario: Scenario, directory: URL, games: ScenarioGames?) -> ScenarioReport {
        let clock = ContinuousClock()
        let start = clock.now
        var report = ScenarioReport(file: scenario.file, title: scenario.title, status: .passed, duration: 0,
                                    stepCount: scenario.steps.count)
        do {
            switch try ScenarioExecution.prepare(scenario, configuration: configuration, directory: directory, games: games) {
            case .setupFailed(let failure):
                report.status = .failed
                report.failure = failure
            case .ready(let execution):
                for step in scenario.steps {
                    report.stepsRun += 1
                    if let failure = try execution.run(step) {
                        report.status = .failed
                        report.failure = failure
                        break
                    }
                }
            }
        } catch {
            report.status = .badInput
            report.problem = ScenarioRunner.problem(error, file: scenario.file)
        }
        games?.finished(passed: report.status == .passed)
        report.duration = clock.now.seconds(since: start)
        return report
    }

    /// The one-line problem of a bad-input error.
    static func problem(_ error: RulebenchError, file: String) -> InputProblem {
        switch error {
        case .badInput(let problem), .packLoad(let problem):
            return problem.file == nil ? InputProblem(problem.message, file: file) : problem
        default:
            return InputProblem(error.description, file: file)
        }
    }
}

extension ContinuousClock.Instant {
    /// Seconds from `start` to this instant.
    func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = start.duration(to: self).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
}
