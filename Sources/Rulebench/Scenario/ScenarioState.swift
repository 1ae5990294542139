import Foundation

/// The state of a scenario's game after one of its steps: what `rulebench
/// state` prints, so an author can read a state or copy its hash into a
/// `hash:` expectation instead of taking it from a failing run.
public struct ScenarioState: Sendable {
    /// The step after which the state was taken (0: after setup and `setup.state`).
    public let step: Int
    /// The whole state.
    public let state: StateValue
    /// Its hash, as `hash:` expects it.
    public let hash: StateHash
    /// The steps up to `step` whose expectations did not hold (the state is
    /// still the one they left: a failed action changes nothing).
    public let failedSteps: [StepFailure]
    /// The steps up to `step` whose `hash:` holds a placeholder (`hash:
    /// H4`, read with `ScenarioParser.parse(placeholders:)`), each with the
    /// hash to write there: the state hash after that step.
    public let placeholders: [Placeholder]

    /// A `hash:` placeholder and the hash it stands for.
    public struct Placeholder: Sendable {
        /// The step (1-based).
        public let step: Int
        /// The placeholder as written, where it is written.
        public let text: Located<String>
        /// The state hash after the step.
        public let hash: StateHash
    }

    /// Plays a scenario up to step `stepNumber` (default: its last step),
    /// checking every step as `rulebench run` does, and returns the state then.
    public static func after(_ scenario: Scenario, directory: URL, step stepNumber: Int?,
                             configuration: Game.Configuration = Game.Configuration()) throws(RulebenchError) -> ScenarioState {
        let target = stepNumber ?? scenario.steps.count
        guard (0...scenario.steps.count).contains(target) else {
            throw .badInput(InputProblem("the scenario has no step \(target) (it has \(scenario.steps.count); 0 is the state after setup)",
                                         file: scenario.file))
        }
        let execution = try ScenarioExecution.ready(scenario, configuration: configuration, directory: directory)
        var failures: [StepFailure] = []
        var placeholders: [Placeholder] = []
        for step in scenario.steps where step.number <= target {
            if let failure = try execution.run(step) { failures.append(failure) }
            if let text = step.expectations.hashPlaceholder {
                placeholders.append(Placeholder(step: step.number, text: text, hash: try execution.game.liveStateHash()))
            }
        }
        return ScenarioState(step: target, state: try execution.game.state(), hash: try execution.game.liveStateHash(),
                             failedSteps: failures, placeholders: placeholders)
    }
}
