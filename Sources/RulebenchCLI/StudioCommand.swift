import ArgumentParser
import Foundation
import RulebenchCommandLine

/// `rulebench studio ...`: checks the arguments as `rulebench-studio` reads
/// them, then runs that program in this process's place (exec: the same
/// process, so Ctrl-C, the exit code and the terminal are the studio's).
/// The studio is a program of its own so that its web server, and the
/// libraries it loads, stay out of every other command's start.
struct StudioCommand: ParsableCommand {
    static let configuration = StudioArguments.configuration

    @OptionGroup var arguments: StudioArguments

    func run() throws {
        let program = StudioLauncher.program()
        guard FileManager.default.isExecutableFile(atPath: program) else {
            complain("rulebench studio runs \(program), which is not there: build it with "
                     + "`swift build --product rulebench-studio` (or `make build` for both programs)")
            throw Outcome.badInput.exitCode
        }
        let failure = StudioLauncher.replaceProcess(with: program, arguments: arguments.written)
        complain("cannot start \(program): \(failure)")
        throw Outcome.badInput.exitCode
    }
}

/// Where `rulebench-studio` (and `rulebench-serve`) is, and the exec that runs it.
enum StudioLauncher {
    /// The program `name` (the studio's by default) beside this executable (the folder `swift build`
    /// and `make build` put both in), found through the executable's real
    /// path, so a symbolic link to rulebench elsewhere still finds it.
    static func program(named name: String = "rulebench-studio") -> String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Runs `program` with `arguments` in this process's place; returns only
    /// when that failed, with the reason.
    static func replaceProcess(with program: String, arguments: [String]) -> String {
        fflush(nil)   // nothing printed so far may be lost with this process's buffers
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        execv(program, argv)
        let reason = String(cString: strerror(errno))
        argv.forEach { free($0) }
        return reason
    }
}
