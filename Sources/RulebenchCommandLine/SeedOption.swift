import ArgumentParser

/// `--seed N`, declared once for every command that takes a seed, and
/// shared through `@OptionGroup`. What differs between the commands is what
/// the seed seeds (a game's random generator, or a fuzz session), its type
/// and its default: each command says those as a `SeededCommand`, so the
/// spelling, the parsing (`.unconditional`, `NumberArgument.whole`: a
/// negative or out-of-range number reaches the refusal that says what is
/// wrong with it) and the check live here alone.
package struct SeedOption<Command: SeededCommand>: ParsableArguments {
    @Option(parsing: .unconditional, help: Command.seedHelp, transform: NumberArgument.whole("--seed"))
    package var seed: Command.Seed = Command.defaultSeed

    package init() {}
}

/// A command that takes `--seed` (`SeedOption`): the seed's type, its
/// default and its help.
package protocol SeededCommand {
    /// The seed's type: `Int64` for a game's seed (as scenarios write it),
    /// `UInt64` for a fuzz session's.
    associatedtype Seed: FixedWidthInteger & Sendable
    /// The seed when `--seed` is not given.
    static var defaultSeed: Seed { get }
    /// The option's help, its default included.
    static var seedHelp: ArgumentHelp { get }
}

extension SeededCommand {
    /// The help of a game's seed: what it is, and why a hash copied from
    /// the command's output matches a scenario's only with the same seed.
    package static var seedHelp: ArgumentHelp {
        "Seed of the game's random generator. It is part of the state hash: a scenario without `seed:` uses 0, so a hash copied from here matches a scenario whose setup says `seed: N`. (default: \(defaultSeed))"
    }
}
