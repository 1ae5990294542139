import ArgumentParser

/// `--out PATH`, declared once for every command that writes a file (or a
/// folder of files) where its user says, and shared through `@OptionGroup`.
/// What is written there, and where without `--out`, is the command's
/// (`OutputCommand`): nil when not given.
struct OutOption<Command: OutputCommand>: ParsableArguments {
    @Option(help: Command.outHelp)
    var out: String?
}

/// A command that takes `--out` (`OutOption`).
protocol OutputCommand {
    /// The option's help: what is written, and where without `--out`.
    static var outHelp: ArgumentHelp { get }
}
