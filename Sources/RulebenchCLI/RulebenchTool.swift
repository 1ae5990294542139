import ArgumentParser
import Foundation
import Rulebench
import RulebenchCommandLine

/// The `rulebench` command. It only parses arguments and calls the library.
@main
struct RulebenchTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rulebench",
        abstract: "Run, check and fuzz game rules written in Lua, with undo the engine proves.",
        discussion: """
            Exit codes: 0 all passed; 1 a check failed; 2 bad input (files, arguments, an output, standard output included, \
            that cannot be written); 130 interrupted by Ctrl-C (SIGINT), 143 stopped by SIGTERM (fuzz, \
            explore and solve stop cleanly on either and report what they found).
            """,
        version: RulebenchRelease.version,
        subcommands: [
            RunCommand.self,
            FuzzCommand.self,
            CorpusCommand.self,
            ExploreCommand.self,
            SolveCommand.self,
            GenerateCommand.self,
            TimelineCommand.self,
            StateCommand.self,
            ReplayCommand.self,
            PlayCommand.self,
            StudioCommand.self,
            ServeCommand.self,
            JoinCommand.self,
            CheckCommand.self,
            NewCommand.self,
        ]
    )

    static func main() {
        // `solve --levels FILE` takes its pack from the file: a command of its own.
        let arguments = Array(CommandLine.arguments.dropFirst())
        if SolveLevelsCommand.isAsked(arguments) { SolveLevelsCommand.runAsMain(Array(arguments.dropFirst())) }
        runAsMain()
    }
}
