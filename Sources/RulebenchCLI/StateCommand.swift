import ArgumentParser
import Foundation
import Rulebench
import RulebenchCommandLine

/// `rulebench state SCENARIO [--step N] [--path P] [--json]`: the state and its hash after a step.
struct StateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Print the state of a scenario's game after a step, and its hash.",
        discussion: """
            Plays the scenario up to the step, checking each step as `rulebench run` does, and prints \
            the state hash (ready to paste into `expect: { hash: "..." }`) and the state as JSON. Without \
            --step, after the last step; --step 0 is the state after setup. A step whose expectations do \
            not hold is noted on standard error (exit 1); the state is still printed. A scenario being \
            written may hold placeholders where its hashes go (`hash: H4`): they are not checked, and each \
            one up to the step is listed on standard error with the hash to write there.

            Examples:
              rulebench state scenarios/template/dash.yaml
              rulebench state scenarios/template/dash.yaml --step 1 --path tokens.p1
              rulebench state scenarios/template/dash.yaml --json
            """
    )

    @Argument(help: "A scenario file.")
    var scenario: String

    @Option(parsing: .unconditional, help: "The step number (1-based; 0: after setup).",
            transform: NumberArgument.whole("--step"))
    var step: Int?

    @Option(help: "Print only the value at this dotted state path.")
    var path: String?

    @OptionGroup var jsonOption: JSONOption<StateCommand>

    func run() throws {
        let url = URL(fileURLWithPath: scenario)
        let result: ScenarioState
        let value: StateValue?
        do {
            let parsed = try ScenarioParser.parse(contentsOf: url, displayPath: scenario, placeholders: true)
            var configuration = Game.Configuration()
            configuration.printHandler = { _ in }
            result = try ScenarioState.after(parsed, directory: url.deletingLastPathComponent(), step: step, configuration: configuration)
            let statePath: StatePath
            do {
                statePath = try StatePath(parsing: path ?? "")
            } catch {
                throw RulebenchError.badInput(InputProblem("--path: \(error)"))
            }
            value = statePath.keys.reduce(Optional(result.state)) { $0?[$1] }
        } catch {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        let text = JSONValue(value).serialized(pretty: true)
        if jsonOption.json {
            var members: [(String, JSONValue)] = [("step", .int(Int64(result.step))), ("hash", .string(result.hash.hex)),
                                                  ("state", JSONValue(value))]
            if !result.placeholders.isEmpty {
                members.append(("placeholders", .array(result.placeholders.map { placeholder in
                    .object([("step", .int(Int64(placeholder.step))), ("placeholder", .string(placeholder.text.value)),
                             ("hash", .string(placeholder.hash.hex))])
                })))
            }
            let object = JSONValue.object(members)
            print(object.serialized(pretty: true))
        } else {
            print("hash: \"\(result.hash.hex)\"  (after step \(result.step) of \(scenario))")
            print((path.map { "\($0) = " } ?? "") + text)
        }
        for placeholder in result.placeholders {
            complain("note: step \(placeholder.step) at \(placeholder.text.location) holds the placeholder hash: "
                     + "\(placeholder.text.value); write hash: \"\(placeholder.hash.hex)\"")
        }
        for failure in result.failedSteps {
            complain("note: step \(failure.step) at \(failure.location) did not meet its expectations (rulebench run \(scenario) says why)")
        }
        if !result.failedSteps.isEmpty { throw Outcome.failed.exitCode }
    }
}

extension StateCommand: JSONReportingCommand {
    static let jsonHelp: ArgumentHelp = "Print {\"step\", \"hash\", \"state\"} as JSON."
}
