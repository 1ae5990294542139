import ArgumentParser
import Foundation
import RulebenchCommandLine

/// `rulebench serve ...`: checks the arguments as `rulebench-serve` reads
/// them, then runs `rulebench-serve serve` in this process's place (as
/// `rulebench studio` runs the studio), so the match server's networking
/// stays out of every other command's start.
struct ServeCommand: ParsableCommand {
    static let configuration = ServeArguments.configuration

    @OptionGroup var arguments: ServeArguments

    func run() throws {
        try ServeCommand.exec(["serve"] + arguments.written, what: "rulebench serve")
    }

    /// Runs `rulebench-serve ARGUMENTS` in this process's place; throws only when it could not.
    static func exec(_ arguments: [String], what: String) throws {
        let program = StudioLauncher.program(named: "rulebench-serve")
        guard FileManager.default.isExecutableFile(atPath: program) else {
            complain("\(what) runs \(program), which is not there: build it with "
                     + "`swift build --product rulebench-serve` (or `make build`)")
            throw Outcome.badInput.exitCode
        }
        let failure = StudioLauncher.replaceProcess(with: program, arguments: arguments)
        complain("cannot start \(program): \(failure)")
        throw Outcome.badInput.exitCode
    }
}
