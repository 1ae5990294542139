import ArgumentParser
import Foundation
import Rulebench
import RulebenchCommandLine

/// `rulebench new NAME`: scaffolds a pack and its first scenario.
struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create a new rule pack (rules/NAME) and its first scenario (scenarios/NAME).",
        discussion: """
            Writes rules/NAME/pack.lua, a helper module (track.lua), two actions (step, with its \
            own undo and animation; dash, made of two step subactions, with an animation and a \
            sound), one short story sequence (sequences/start.yaml, shown when a game opens: \
            docs/sequences.md) and scenarios/NAME/first.yaml. The new pack passes `rulebench check`, `run` and \
            `fuzz` as it is. Nothing is overwritten: an existing folder is an error.

            Examples:
              rulebench new race
              rulebench new race --rules games/rules --scenarios games/scenarios

            Exit codes: 0 created; 2 NAME is not a plain name (a letter or _, then letters, digits \
            and _), a folder exists already, or a file cannot be written.
            """
    )

    @Argument(help: "The pack's name: a plain identifier such as race or my_game.")
    var name: String

    @Option(help: "The folder the pack folder goes in.")
    var rules: String = "rules"

    @Option(help: "The folder the scenario folder goes in.")
    var scenarios: String = "scenarios"

    func run() throws {
        let scaffold = PackScaffold(name: name, rulesDirectory: URL(fileURLWithPath: rules),
                                    scenariosDirectory: URL(fileURLWithPath: scenarios))
        let files: [URL]
        do {
            files = try scaffold.create()
        } catch {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        let cwd = FileManager.default.currentDirectoryPath + "/"
        func shown(_ url: URL) -> String { url.path.hasPrefix(cwd) ? String(url.path.dropFirst(cwd.count)) : url.path }
        for file in files { print("created \(shown(file))") }
        let packPath = shown(scaffold.packDirectory)
        let pack = rules == "rules" ? name : packPath
        print("""

            Next:
              rulebench check \(pack)
              rulebench play \(pack)
              rulebench run \(shown(scaffold.scenarioDirectory))
              rulebench fuzz \(pack) --runs 50
            Add an action: create \(packPath)/actions/NAME.lua (see README.md, "Your first rule").
            """)
    }
}
