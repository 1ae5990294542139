import Foundation

/// The animations one step of a scenario plays: what `rulebench timeline` draws.
public struct StepAnimation: Sendable {
    /// The step (1-based) whose animations these are.
    public let step: ScenarioStep
    /// One animation per action the step performed, undid or redid, in order.
    public let animations: [ActionAnimation]

    /// The step's animations on one timeline, one after the other.
    public var timeline: Timeline {
        guard animations.count != 1 else { return animations[0].timeline() }
        let plan = AnimationPlan.sequence(animations.map(\.composedPlan))
        return Timeline(plan: plan, actionPath: animations.map(\.action).joined(separator: ", "))
    }

    /// Plays a scenario up to `stepNumber` (default: its last step that
    /// performs, undoes or redoes an action) and returns that step's animations.
    /// Expectations are not checked: `rulebench run` does that.
    public static func of(_ scenario: Scenario, directory: URL, step stepNumber: Int?,
                          configuration: Game.Configuration = Game.Configuration()) throws(RulebenchError) -> StepAnimation {
        let target = stepNumber ?? scenario.steps.last { $0.operation != .check }?.number ?? 0
        guard let step = scenario.steps.first(where: { $0.number == target }) else {
            throw .badInput(InputProblem("the scenario has no step \(target) (it has \(scenario.steps.count))", file: scenario.file))
        }
        guard case .ready(let execution) = try ScenarioExecution.prepare(scenario, configuration: configuration, directory: directory) else {
            throw .badInput(InputProblem("the scenario's setup fails; run it with `rulebench run` to see why", file: scenario.file))
        }
        let game = execution.game
        var animations: [ActionAnimation] = []
        for current in scenario.steps where current.number <= target {
            animations = []
            do {
                switch current.operation {
                case .perform(let action, let params):
                    animations = [try game.perform(action, params).animation]
                case .undo(let count):
                    for _ in 0..<min(count, game.history.cursor) { animations.append(try game.undo().animation) }
                case .undoTurn:
                    animations = try game.undoTurn().map(\.animation)
                case .redo(let count):
                    for _ in 0..<min(count, game.history.redoable.count) { animations.append(try game.redo().animation) }
                case .check:
                    break
                }
            } catch {
                if current.number == target {
                    throw .badInput(current.location.problem("step \(target) fails (\(error.kind)): \(error)"))
                }
                // An earlier step that was meant to be rejected changes nothing; go on.
            }
        }
        return StepAnimation(step: step, animations: animations)
    }
}
