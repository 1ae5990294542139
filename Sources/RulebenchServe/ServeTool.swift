import ArgumentParser
import RulebenchCommandLine

/// `rulebench-serve serve ...` and `rulebench-serve join ...`: the match
/// server and its command-line client, which `rulebench serve` and
/// `rulebench join` run in their place. A program of its own so that the
/// server's networking and database stay out of every other command's start.
@main
struct ServeTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rulebench-serve",
        abstract: "The match server of Rulebench (rulebench serve) and its command-line client (rulebench join).",
        subcommands: [ServeServerCommand.self, JoinClientCommand.self]
    )

    static func main() { runAsMain() }
}
