import ArgumentParser
import RulebenchCommandLine

/// `rulebench join URL ...`: the command-line client of `rulebench serve`
/// (steps out as JSON lines, calls in from standard input); runs
/// `rulebench-serve join` in this process's place.
struct JoinCommand: ParsableCommand {
    static let configuration = JoinArguments.configuration

    @OptionGroup var arguments: JoinArguments

    func run() throws {
        try ServeCommand.exec(["join"] + arguments.written, what: "rulebench join")
    }
}
