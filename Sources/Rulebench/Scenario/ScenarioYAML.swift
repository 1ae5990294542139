// The text of a scenario file as the library writes one (`play`'s `save`,
// fuzz reproductions, `solve --scenario`): header comments, the title, the
// pack, the setup, then the steps. Invariant: every value is written by
// `value(_:)` (flow YAML with JSON-compatible scalars, see `YAMLText`) and
// every comment by `YAMLText.comment`, so `ScenarioParser` reads back the
// very values written and skips every comment line.

/// A scenario file's text, built line by line.
struct ScenarioYAML {
    private var lines: [String] = []

    /// A comment line (`# TEXT`), its line breaks shown as `\n`.
    mutating func comment(_ text: String) { lines.append("# " + YAMLText.comment(text)) }

    /// `scenario:`, `rules:` and `setup:` (the seed, the options when there
    /// are any, the state overrides with `create: true`), then `steps:`.
    mutating func begin(title: String, packReference: String, seed: Int64, options: [String: StateValue],
                        state: [(path: StatePath, value: StateValue?)] = []) {
        lines.append("scenario: \(Self.value(.string(title)))")
        lines.append("rules: \(Self.value(.string(packReference)))")
        lines.append("setup:")
        lines.append("  seed: \(seed)")
        if !options.isEmpty { lines.append("  options: \(Self.value(Self.table(options)))") }
        if !state.isEmpty {
            lines.append("  create: true")
            lines.append("  state:")
            for (path, value) in state {
                lines.append("    \(Self.value(.string(path.description))): \(value.map(Self.value) ?? "null")")
            }
        }
        lines.append("steps:")
    }

    /// A `do` step of `call`, its params under `with:` (the step's other keys may follow).
    mutating func perform(_ call: ActionCall) { lines += Self.performLines(call) }

    /// A line of the steps as it is (`  - undo: 2`, `    expect: { ... }`, `  # a comment`).
    mutating func append(_ line: String) { lines.append(line) }

    /// Lines of the steps as they are.
    mutating func append(contentsOf more: [String]) { lines += more }

    /// The file's text: the lines, each ended by a line feed.
    var text: String { lines.joined(separator: "\n") + "\n" }

    /// `  - do: NAME` and, when the call has params, `    with: { ... }`.
    static func performLines(_ call: ActionCall) -> [String] {
        var lines = ["  - do: \(value(.string(call.name)))"]
        if !call.params.isEmpty { lines.append("    with: \(value(table(call.params)))") }
        return lines
    }

    /// Params as one table value, to render with `value`.
    static func table(_ params: [String: StateValue]) -> StateValue {
        .table(Dictionary(uniqueKeysWithValues: params.map { (StateKey.string($0.key), $0.value) }))
    }

    /// A YAML flow rendering (JSON-compatible scalars, so every string is
    /// quoted; see `YAMLText` for the characters written as escapes). NaN
    /// and infinities, which no history holds, are written as YAML's
    /// `.nan` and `.inf`, which the reader refuses at their line rather
    /// than reading a string.
    static func value(_ value: StateValue) -> String {
        switch value {
        case .table:
            if let items = value.listItems, !items.isEmpty { return "[" + items.map(Self.value).joined(separator: ", ") + "]" }
            return "{ " + value.sortedEntries.map { "\(key($0.key)): \(Self.value($0.value))" }.joined(separator: ", ") + " }"
        case .string(let text):
            return YAMLText.quoted(text)
        case .double(let d) where !d.isFinite:
            return d.isNaN ? ".nan" : d > 0 ? ".inf" : "-.inf"
        default:
            return JSONValue(value).serialized(pretty: false)
        }
    }

    /// A key of a flow mapping. libyaml gives up on an implicit key past
    /// 1,024 characters, so a longer one is written as an explicit key (`? key`).
    private static func key(_ key: StateKey) -> String {
        switch key {
        case .int(let i): return String(i)
        case .string(let s):
            let quoted = YAMLText.quoted(s)
            return quoted.unicodeScalars.count < 1_000 ? quoted : "? " + quoted
        }
    }
}
