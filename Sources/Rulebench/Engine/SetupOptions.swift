/// Setup options checked against what a pack declares.
///
/// A pack declares its options in pack.lua's `options`: `name = default`,
/// whose default gives the type (an integer default takes integers, a float
/// default any number; a string, boolean or table default takes that), or
/// `name = { type = "T", default = v }` for an option of another type, of
/// several types (`any`) or with no default. Those names are the only
/// options it takes: a misspelled option would otherwise be ignored without
/// a word and the game set up with the default.
extension PackInfo {
    /// Throws `.badInput` for an option the pack does not declare (with a
    /// "did you mean") or of another type than declared; its subject names
    /// the option, so a caller can point at where it was given.
    public func validate(options given: [String: StateValue]) throws(RulebenchError) {
        let declared = optionTypes.keys.sorted()
        for (name, value) in given.sorted(by: { $0.key < $1.key }) {
            guard let type = optionTypes[name] else {
                let list = declared.isEmpty
                    ? "it declares none; a pack that reads it declares it in pack.lua: `options = { \(name) = DEFAULT }`"
                    : "it takes: \(declared.joined(separator: ", "))"
                throw .badInput(InputProblem("option '\(name)' is not an option of pack '\(self.name)'"
                                             + Suggestion.hint(for: name, in: declared) + " (\(list))", subject: .option(name)))
            }
            guard value.fits(declaredType: type) else {
                let fallback = options[name].map { " like its default \($0)" } ?? ""
                throw .badInput(InputProblem("option '\(name)' must be \(PackInfo.article(type))\(fallback), not \(value)"
                                             + " (a pack that takes other types declares `\(name) = { type = \"any\", default = ... }`)",
                                             subject: .option(name)))
            }
        }
    }

    /// Setup options given as text (`--option key=value`), each read as the
    /// type the pack declares for it. An option declared `string` takes the
    /// text exactly as written (`012345678` keeps its zero, `867254301` is no
    /// number), less one pair of quotes around it (`'text'`, as before typing
    /// by declaration). Any other option, and one the pack does not declare,
    /// is read as `play` reads values (`3`, `1.5`, `true`, `'text'`,
    /// `[a,b]`); `validate(options:)` then judges it.
    public func options(fromText given: [String: String]) -> [String: StateValue] {
        given.reduce(into: [:]) { typed, option in
            typed[option.key] = optionTypes[option.key] == "string" ? .string(PackInfo.unquoted(option.value)) : StateValue(argument: option.value)
        }
    }

    /// The text without one pair of matching quotes around it.
    private static func unquoted(_ text: String) -> String {
        guard text.count >= 2, let first = text.first, first == text.last, first == "\"" || first == "'" else { return text }
        return String(text.dropFirst().dropLast())
    }

    /// "an integer", "a string", ... for a type name.
    static func article(_ type: String) -> String {
        type == "integer" || type == "any" ? "an \(type)" : "a \(type)"
    }
}
