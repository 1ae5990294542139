import ArgumentParser
import Rulebench

/// What every command that plays a pack takes: the pack, and setup options
/// over its defaults (`--option key=value`, repeatable).
struct PackOptions: ParsableArguments {
    @Argument(help: "The pack: a name under rules/ or a path to a pack folder.")
    var pack: String

    @Option(name: .customLong("option"), help: "A setup option, key=value (repeatable), over the pack's defaults.")
    var setupOptions: [String] = []

    /// The setup options as values (read as `play` reads values: `3`, `1.5`, `true`, `'text'`, `[a,b]`).
    func setupOptionValues() throws -> [String: StateValue] {
        try parsePairs(setupOptions, what: "--option")
    }
}

/// Parses `k=v` pairs (setup options, state overrides) into state values.
func parsePairs(_ pairs: [String], what: String) throws -> [String: StateValue] {
    var values: [String: StateValue] = [:]
    for pair in pairs {
        guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
            throw ValidationError("\(what) expects key=value, got '\(pair)'")
        }
        values[String(pair[..<equals])] = StateValue(argument: String(pair[pair.index(after: equals)...]))
    }
    return values
}
