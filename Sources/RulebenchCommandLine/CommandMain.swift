import ArgumentParser
import Foundation

/// How both programs, `rulebench` and `rulebench-studio`, start and end:
/// the exit codes of the design and the one-line refusal of bad arguments.
/// Invariant: every exit of either process goes through `exit(_:)` here,
/// which asks `StandardOutput.failure()` first, so results that could not
/// be written are never a silent success.
extension ParsableCommand {
    /// Parses the arguments and runs the command they name, mapping outcomes
    /// to the exit codes of the design: argument errors are bad input (2),
    /// not ArgumentParser's 64. `arguments` (default: the process's) are
    /// those after the program's name.
    package static func runAsMain(_ arguments: [String]? = nil) -> Never {
        StandardOutput.prepare()
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            exitProcess(0)
        } catch let code as ExitCode {
            exitProcess(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                TerminalText.print([fullMessage(for: error)], separator: " ", terminator: "\n")   // --help, --version
                exitProcess(0)
            }
            // One line, like every other bad input (the usage block is what --help is for).
            let message = self.message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
            if !message.isEmpty { complain(message + (code == .validationFailure ? " (see --help)" : "")) }
            exitProcess(code == .validationFailure ? Outcome.badInput.rawValue : code.rawValue)
        }
    }
}

/// Ends the process with `code`, or with bad input (2) when the results
/// printed could not be written (`StandardOutput`); a signal's code
/// (130, 143) stands: the user asked to stop.
package func exitProcess(_ code: Int32) -> Never {
    if let failure = StandardOutput.failure(), code != Outcome.interrupted.rawValue, code != Outcome.terminated.rawValue {
        complain(failure)
        exit(Outcome.badInput.rawValue)
    }
    exit(code)
}

/// The exit codes every command uses.
package enum Outcome: Int32 {
    case passed = 0
    case failed = 1
    case badInput = 2
    /// Stopped by SIGINT (Ctrl-C): 128 + 2.
    case interrupted = 130
    /// Stopped by SIGTERM (`timeout`, CI runners, Kubernetes): 128 + 15.
    case terminated = 143

    /// The code for ArgumentParser's `throw`.
    package var exitCode: ExitCode { ExitCode(rawValue) }
}

/// Writes a one-line message to standard error.
package func complain(_ message: String) {
    FileHandle.standardError.write(Data(("rulebench: " + TerminalText.safe(message) + "\n").utf8))
}
