import ArgumentParser
import RulebenchCommandLine

/// `--time SECONDS`, a session's whole time, shared through `@OptionGroup`:
/// a positive, finite number of seconds, or nil when not given.
struct TimeOption: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("The whole session's time: runs go on until it is spent (or --runs is reached, when given), and a finding's shrinking, its searches for shorter instances, lines and endings, and the writing end by then too (within 1 s more); a shrink the time stops writes the shortest reproduction found so far.",
                                                        valueName: "seconds"),
            transform: NumberArgument.seconds("--time"))
    var time: Double?

    /// Refuses a time that is not a positive, finite number of seconds.
    /// The command calls it in its own `validate()`, where its other
    /// options are checked, so that of two bad options the first named
    /// there is the one refused (a group's `validate()` would run first).
    func check() throws {
        if let time, !(time > 0 && time.isFinite) {
            throw ValidationError("--time expects a positive number of seconds, got \(time)")
        }
    }
}
