import Foundation

/// The animations one step of a scenario plays: what `rulebench timeline` draws.
public struct StepAnimation: Sendable {
    /// The step (1-based) whose animations these are; nil for the opening (step 0).
    public let step: ScenarioStep?
    /// One animation per action the step performed, undid or redid, in order
    /// (for the opening, the pack's `opening` as an action named "setup").
    public let animations: [ActionAnimation]
    /// The last step, when these are the animations of several steps played one after another.
    public private(set) var lastStep: ScenarioStep? = nil

    /// The animations of one step.
    init(step: ScenarioStep?, animations: [ActionAnimation]) {
        self.step = step
        self.animations = animations
    }

    /// The step's number: 0 for the opening.
    public var number: Int { step?.number ?? 0 }

    /// What the step does, in a few words (for several steps, the first's and the last's).
    public var summary: String {
        let first = step?.summary ?? "the opening (the pack's opening after setup)"
        guard let lastStep else { return first }
        return "\(first) … step \(lastStep.number): \(lastStep.summary)"
    }

    /// The animations of consecutive steps played one after another, as one.
    public static func combined(_ steps: [StepAnimation]) -> StepAnimation {
        var result = StepAnimation(step: steps.first?.step, animations: steps.flatMap(\.animations))
        if steps.count > 1 { result.lastStep = steps.last?.step }
        return result
    }

    /// Whether the step undoes actions: its plans play backwards.
    public var isUndo: Bool { !animations.isEmpty && animations.allSatisfy { $0.direction == .undo } }

    /// The step's animations on one timeline, one after the other.
    public var timeline: Timeline { Timeline(playing: animations) }

    /// How much the step's plan holds, to pick the step worth drawing:
    /// events, then animated properties, then length.
    var richness: (Int, Int, Double) {
        let timeline = self.timeline
        return (timeline.events.count, timeline.keys.count, timeline.duration)
    }

    /// Plays a scenario up to `stepNumber` (default: the step with the
    /// richest plan, see `richest`) and returns that step's animations;
    /// step 0 is the opening. Expectations are not checked: `rulebench run` does that.
    public static func of(_ scenario: Scenario, directory: URL, step stepNumber: Int?,
                          configuration: Game.Configuration = Game.Configuration()) throws(RulebenchError) -> StepAnimation {
        if let stepNumber, stepNumber != 0, !scenario.steps.contains(where: { $0.number == stepNumber }) {
            throw .badInput(InputProblem("the scenario has no step \(stepNumber) (it has \(scenario.steps.count); 0 is the opening)",
                                         file: scenario.file))
        }
        let all = try every(scenario, directory: directory, through: stepNumber, configuration: configuration)
        if let stepNumber {
            if let found = all.first(where: { $0.number == stepNumber }) { return found }
            throw .badInput(InputProblem("the pack has no opening to show as step 0 (give it opening = function(anim, game, options))",
                                         file: scenario.file))
        }
        // Nothing animates: the last step that performs, undoes or redoes, as before.
        return richest(all) ?? all.last { $0.step.map { $0.operation != .check } ?? false } ?? StepAnimation(step: nil, animations: [])
    }

    /// The step with the richest plan: the most events, then the most
    /// animated properties, then the longest; the earliest on a tie.
    /// Nil when no step has any animation.
    public static func richest(_ steps: [StepAnimation]) -> StepAnimation? {
        var best: StepAnimation?
        var bestRichness = (0, 0, 0.0)
        for step in steps where step.richness > bestRichness {
            best = step
            bestRichness = step.richness
        }
        return best
    }

    /// The animations of every step (the opening first, when the pack has
    /// one), playing the scenario once up to `last` (every step when nil).
    /// A step meant to be rejected changes nothing and has no animation; a
    /// failing step `last` is an error, as is a setup that fails.
    public static func every(_ scenario: Scenario, directory: URL, through last: Int? = nil,
                             configuration: Game.Configuration = Game.Configuration()) throws(RulebenchError) -> [StepAnimation] {
        guard case .ready(let execution) = try ScenarioExecution.prepare(scenario, configuration: configuration, directory: directory) else {
            throw .badInput(InputProblem("the scenario's setup fails; run it with `rulebench run` to see why", file: scenario.file))
        }
        let game = execution.game
        var result: [StepAnimation] = []
        if let opening = game.openingAnimation { result.append(StepAnimation(step: nil, animations: [opening])) }
        for current in scenario.steps {
            if let last, current.number > last { break }
            var animations: [ActionAnimation] = []
            do {
                switch current.operation {
                case .perform(let action, let params):
                    animations = [try game.perform(action, params).animation]
                case .undo(let count):
                    for _ in 0..<min(count, game.history.cursor) { animations.append(try game.undo().animation) }
                case .undoTurn:
                    animations = try game.undoTurn().map(\.animation)
                case .undoLastTurn:
                    animations = try game.undoLastTurn().map(\.animation)
                case .redo(let count):
                    for _ in 0..<min(count, game.history.redoable.count) { animations.append(try game.redo().animation) }
                case .check:
                    break
                }
            } catch {
                if current.number == last {
                    throw .badInput(current.location.problem("step \(current.number) fails (\(error.kind)): \(error)"))
                }
                // A step that was meant to be rejected changes nothing; go on.
                animations = []
            }
            result.append(StepAnimation(step: current, animations: animations))
        }
        return result
    }
}
