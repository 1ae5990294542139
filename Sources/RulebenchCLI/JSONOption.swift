import ArgumentParser

/// `--json`, declared once for every command that can write its report as
/// JSON to standard output, and shared through `@OptionGroup`. The report
/// itself is the command's (a `JSONReportingCommand` says in its help what
/// it prints).
struct JSONOption<Command: JSONReportingCommand>: ParsableArguments {
    @Flag(help: Command.jsonHelp)
    var json = false
}

/// A command that takes `--json` (`JSONOption`): what its help says the flag prints.
protocol JSONReportingCommand {
    static var jsonHelp: ArgumentHelp { get }
}

extension JSONReportingCommand {
    /// The help of a command whose JSON is its report.
    static var jsonHelp: ArgumentHelp { "Write a JSON report to standard output." }
}
