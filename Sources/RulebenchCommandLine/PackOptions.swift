import ArgumentParser
import Rulebench

/// What every command that plays a pack takes: the pack, and setup options
/// over its defaults (`--option key=value`, repeatable).
package struct PackOptions: ParsableArguments {
    package init() {}

    @Argument(help: "The pack: a name under rules/ or a path to a pack folder.")
    package var pack: String

    @Option(name: .customLong("option"), help: "A setup option, key=value (repeatable), over the pack's defaults; the value is read as the option's declared type (a string option takes the text as written).")
    package var setupOptions: [String] = []

    /// The setup options as values, each read as the type the pack declares
    /// for it (`PackInfo.options(fromText:)`): a string option takes its text
    /// as written. When the pack does not load, they are read as `play` reads
    /// values, and the command's own load reports the pack's problem.
    package func setupOptionValues() throws -> [String: StateValue] {
        try PackOptions.setupOptionValues(setupOptions, pack: pack)
    }

    /// `--option` pairs read for `pack`, as `setupOptionValues()` reads them.
    package static func setupOptionValues(_ setupOptions: [String], pack: String) throws -> [String: StateValue] {
        let texts = try splitPairs(setupOptions, what: "--option")
        guard !texts.isEmpty else { return [:] }
        if let info = try? Game.packInfo(pack) { return info.options(fromText: texts) }
        return texts.mapValues { StateValue(argument: $0) }
    }
}

/// Splits `k=v` pairs into their keys and the text of their values; a key
/// given twice is refused by name (neither value is taken), as a typed call's is.
package func splitPairs(_ pairs: [String], what: String) throws -> [String: String] {
    var texts: [String: String] = [:]
    for pair in pairs {
        guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
            throw ValidationError("\(what) expects key=value, got '\(pair)'")
        }
        let key = String(pair[..<equals])
        guard texts[key] == nil else { throw ValidationError("\(what) \(key) is given twice (give each once)") }
        texts[key] = String(pair[pair.index(after: equals)...])
    }
    return texts
}
