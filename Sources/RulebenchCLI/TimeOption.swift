import ArgumentParser
import RulebenchCommandLine

/// `--time SECONDS`, declared once for every command whose whole run a time
/// bounds, and shared through `@OptionGroup`: a positive, finite number of
/// seconds. What the time bounds, and the time without `--time` (nil: no
/// limit), is the command's (`TimedCommand`).
struct TimeOption<Command: TimedCommand>: ParsableArguments {
    @Option(parsing: .unconditional, help: Command.timeHelp, transform: NumberArgument.seconds("--time"))
    var time: Double?

    /// The time limit: `--time`, or else the command's default.
    var seconds: Double? { time ?? Command.defaultTime }

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

/// A command that takes `--time` (`TimeOption`).
protocol TimedCommand {
    /// The option's help: what the time bounds, its default included.
    static var timeHelp: ArgumentHelp { get }
    /// The time without `--time`; nil (the default) when there is then no limit.
    static var defaultTime: Double? { get }
}

extension TimedCommand {
    static var defaultTime: Double? { nil }
}
