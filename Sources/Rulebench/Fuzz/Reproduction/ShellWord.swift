import Foundation

/// Words of a command line as a POSIX shell reads them back.
enum ShellWord {
    /// `text` as one shell word: unchanged when it holds only characters
    /// no shell treats specially, else in single quotes.
    static func quoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_./=:,+@%".unicodeScalars.contains($0))
        }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// A setup option's value as `--option k=v` reads it back (`StateValue(argument:)`).
    static func argument(_ value: StateValue) -> String {
        if case .string(let text) = value {
            return StateValue(argument: text) == value ? text : "\"" + text + "\""
        }
        return ScenarioYAML.value(value)
    }
}
