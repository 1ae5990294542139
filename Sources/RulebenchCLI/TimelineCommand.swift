import ArgumentParser
import Foundation
import Rulebench
import RulebenchCommandLine

/// `rulebench timeline SCENARIO [--step N] [--svg FILE]`: the animation of one step.
struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Show the animation timeline of one step of a scenario, as text or as an SVG chart.",
        discussion: """
            Plays the scenario up to the step (expectations are not checked; `rulebench run` does that) and \
            draws the animation of what the step did: a row per target.property with bars over time, sounds \
            (*) and cues (^) marked, and any conflicts (two animations of one property overlapping) listed \
            with both sources. Without --step, the step with the richest plan (the most events), and the \
            first line says which; --step 0 is the pack's opening (its `opening` after setup). An undo step's \
            plans play backwards, and the chart marks them so.

            Examples:
              rulebench timeline scenarios/template/dash.yaml
              rulebench timeline scenarios/template/step-undo-redo.yaml --step 2
              rulebench timeline scenarios/cards/deal-staggered-and-undone.yaml --step 1 --through 2 --svg deal.svg
              rulebench timeline scenarios/desert/equipment-jetpack-flies-with-a-passenger.yaml --svg jetpack.svg
            """
    )

    @Argument(help: "A scenario file.")
    var scenario: String

    @Option(parsing: .unconditional, help: "The step number (1-based; 0 is the opening). Default: the step with the richest plan.",
            transform: NumberArgument.whole("--step"))
    var step: Int?

    @Option(parsing: .unconditional, help: "Play the steps from --step through this one, one after another, on one chart (a deal and its undo, say).",
            transform: NumberArgument.whole("--through"))
    var through: Int?

    @Option(help: "Also write the timeline as an SVG Gantt chart to this file.")
    var svg: String?

    @Option(help: "Width of the text chart in columns.")
    var width: Int = 80

    func run() throws {
        let chart = svg.map { OutputFile(path: $0, purpose: "the SVG chart") }
        do {
            try chart?.checkWritable()
        } catch {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        if let through, step.map({ through < $0 }) ?? true {
            complain("--through needs --step, at most as large (the steps played from --step through --through)")
            throw Outcome.badInput.exitCode
        }
        let url = URL(fileURLWithPath: scenario)
        let result: StepAnimation
        do {
            let parsed = try ScenarioParser.parse(contentsOf: url, displayPath: scenario)
            var configuration = Game.Configuration()
            configuration.printHandler = { _ in }
            let directory = url.deletingLastPathComponent()
            if let through, let step {
                _ = try StepAnimation.of(parsed, directory: directory, step: through, configuration: configuration)
                let all = try StepAnimation.every(parsed, directory: directory, through: through, configuration: configuration)
                result = StepAnimation.combined(all.filter { (step...through).contains($0.number) })
            } else {
                result = try StepAnimation.of(parsed, directory: directory, step: step, configuration: configuration)
            }
        } catch {
            // Both calls throw only RulebenchError (typed throws).
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        let timeline = result.timeline
        let why = step == nil ? " [the richest plan; pick another with --step N]" : ""
        let direction = result.isUndo ? ", played backwards" : ""
        print("step \(result.number): \(result.summary)  (\(String(format: "%.3f", timeline.duration)) s, \(timeline.conflicts.count) conflicts\(direction))\(why)")
        print(timeline.textChart(width: width))
        if let chart {
            do {
                try chart.write(timeline.svg(title: "\(scenario) step \(result.number): \(result.summary)", undo: result.isUndo))
            } catch {
                complain("\(error)")
                throw Outcome.badInput.exitCode
            }
            print("wrote \(chart.path)")
        }
    }
}
