import ArgumentParser
import Foundation
import Rulebench

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
            TimelineCommand.self,
            StateCommand.self,
            ReplayCommand.self,
            PlayCommand.self,
            StudioCommand.self,
            CheckCommand.self,
            NewCommand.self,
        ]
    )

    /// Parses and runs a subcommand, mapping outcomes to the exit codes of the
    /// design: argument errors are bad input (2), not ArgumentParser's 64.
    static func main() {
        StandardOutput.prepare()
        do {
            var command = try parseAsRoot()
            try command.run()
            exit(0)
        } catch let code as ExitCode {
            exit(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))   // --help, --version
                exit(0)
            }
            // One line, like every other bad input (the usage block is what --help is for).
            let message = self.message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
            if !message.isEmpty { complain(message + (code == .validationFailure ? " (see --help)" : "")) }
            exit(code == .validationFailure ? Outcome.badInput.rawValue : code.rawValue)
        }
    }

    /// Ends the process with `code`, or with bad input (2) when the results
    /// printed could not be written (`StandardOutput`); a signal's code
    /// (130, 143) stands: the user asked to stop.
    private static func exit(_ code: Int32) -> Never {
        if let failure = StandardOutput.failure(), code != Outcome.interrupted.rawValue, code != Outcome.terminated.rawValue {
            complain(failure)
            Foundation.exit(Outcome.badInput.rawValue)
        }
        Foundation.exit(code)
    }
}

/// The exit codes every command uses.
enum Outcome: Int32 {
    case passed = 0
    case failed = 1
    case badInput = 2
    /// Stopped by SIGINT (Ctrl-C): 128 + 2.
    case interrupted = 130
    /// Stopped by SIGTERM (`timeout`, CI runners, Kubernetes): 128 + 15.
    case terminated = 143

    /// The code for ArgumentParser's `throw`.
    var exitCode: ExitCode { ExitCode(rawValue) }
}

/// Writes a one-line message to standard error.
func complain(_ message: String) {
    FileHandle.standardError.write(Data(("rulebench: " + TerminalText.safe(message) + "\n").utf8))
}
