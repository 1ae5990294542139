import Foundation

/// A scenario played to its end with its game kept: what the studio opens,
/// so an author can travel through the scenario's history and see each
/// failure at the history position where it happened.
///
/// Every step is checked as `rulebench run` checks it, but a failing step
/// does not stop the playback (a failed action changed nothing, so the
/// next step runs on the state the scenario's author expects).
public struct ScenarioPlayback {
    /// A failing step and the history position (`history.cursor`) right after it ran.
    public struct MarkedFailure: Sendable {
        /// The history position the failure belongs to.
        public let position: Int
        /// The step and its checks that did not hold.
        public let failure: StepFailure
    }

    /// The game after the scenario's last step.
    public let game: Game
    /// The failing steps, in step order.
    public let failures: [MarkedFailure]
    /// The history position after each step (`positions[0]`: after step 1), where
    /// `rulebench state SCENARIO --step N` takes its state.
    public let positions: [Int]

    /// Plays `scenario` (read from a file in `directory`) to its end.
    ///
    /// - Throws: `.badInput` when the scenario cannot be used (an unknown pack
    ///   or action, a bad override) or its setup fails, naming where.
    public static func play(_ scenario: Scenario, directory: URL,
                            configuration: Game.Configuration = Game.Configuration()) throws(RulebenchError) -> ScenarioPlayback {
        let execution = try ScenarioExecution.ready(scenario, configuration: configuration, directory: directory)
        var failures: [MarkedFailure] = []
        var positions: [Int] = []
        for step in scenario.steps {
            if let failure = try execution.run(step) {
                failures.append(MarkedFailure(position: execution.game.history.cursor, failure: failure))
            }
            positions.append(execution.game.history.cursor)
        }
        return ScenarioPlayback(game: execution.game, failures: failures, positions: positions)
    }
}

extension ScenarioExecution {
    /// A game ready for step 1; a setup that fails is bad input naming where
    /// (for the commands that show a state rather than judge a run).
    static func ready(_ scenario: Scenario, configuration: Game.Configuration,
                      directory: URL) throws(RulebenchError) -> ScenarioExecution {
        switch try prepare(scenario, configuration: configuration, directory: directory) {
        case .ready(let ready): return ready
        case .setupFailed(let failure):
            throw .badInput(InputProblem("the scenario's setup fails: " + failure.mismatches.map(\.actual).joined(separator: "; "),
                                         file: scenario.file, line: failure.location.line, column: failure.location.column))
        }
    }
}
