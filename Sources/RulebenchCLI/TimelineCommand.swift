import ArgumentParser
import Foundation
import Rulebench

/// `rulebench timeline SCENARIO [--step N] [--svg FILE]`: the animation of one step.
struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Show the animation timeline of one step of a scenario, as text or as an SVG chart.",
        discussion: """
            Plays the scenario up to the step (expectations are not checked; `rulebench run` does that) and \
            draws the animation of what the step did: a row per target.property with bars over time, sounds \
            (*) and cues (^) marked, and any conflicts (two animations of one property overlapping) listed \
            with both sources. Without --step, the last step that performs, undoes or redoes an action.

            Examples:
              rulebench timeline scenarios/template/dash.yaml
              rulebench timeline scenarios/desert/jetpack.yaml --step 1 --svg jetpack.svg
            """
    )

    @Argument(help: "A scenario file.")
    var scenario: String

    @Option(help: "The step number (1-based).")
    var step: Int?

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
        let url = URL(fileURLWithPath: scenario)
        let result: StepAnimation
        do {
            let parsed = try ScenarioParser.parse(contentsOf: url, displayPath: scenario)
            var configuration = Game.Configuration()
            configuration.printHandler = { _ in }
            result = try StepAnimation.of(parsed, directory: url.deletingLastPathComponent(), step: step, configuration: configuration)
        } catch {
            // Both calls throw only RulebenchError (typed throws).
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        let timeline = result.timeline
        print("step \(result.step.number): \(result.step.summary)  (\(String(format: "%.3f", timeline.duration)) s, \(timeline.conflicts.count) conflicts)")
        print(timeline.textChart(width: width))
        if let chart {
            do {
                try chart.write(timeline.svg(title: "\(scenario) step \(result.step.number): \(result.step.summary)"))
            } catch {
                complain("\(error)")
                throw Outcome.badInput.exitCode
            }
            print("wrote \(chart.path)")
        }
    }
}
