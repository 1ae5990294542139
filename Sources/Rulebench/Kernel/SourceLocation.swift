/// A place in a file, for messages and reports: a line of a pack's Lua
/// (`file:line`), or a line and column of a scenario (`file:line:col`).
///
/// The one location type of the library: errors, scenario values, failure
/// reports and blame all carry it.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file, as shown in messages (relative to the working directory when possible).
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column, when known (scenario files; Lua reports lines only).
    public var column: Int?

    /// A location from its parts.
    public init(file: String, line: Int, column: Int? = nil) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line`, or `file:line:col` when the column is known.
    public var description: String { "\(file):\(line)" + (column.map { ":\($0)" } ?? "") }

    /// The numbered lines of `text` from `spread` lines before this
    /// location's line to `spread` after it. Empty when the line is not one
    /// of the text's (0, negative, past its end): a line read from a file or
    /// a message may be any integer, so it is checked against the text's
    /// lines before any arithmetic on it.
    public func lines(in text: String, spread: Int = 3) -> [(number: Int, text: String)] {
        let all = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard line >= 1, line <= all.count, spread >= 0 else { return [] }
        let first = line - min(spread, line - 1), last = line + min(spread, all.count - line)
        return (first...last).map { ($0, String(all[$0 - 1])) }
    }

    /// An `InputProblem` at this place.
    func problem(_ message: String) -> InputProblem {
        InputProblem(message, at: self)
    }

    /// Splits "file:line: message" (as Lua words an error) into its location and message.
    static func split(_ text: String) -> (SourceLocation?, String) {
        var search = text.startIndex
        while let colon = text[search...].firstIndex(of: ":") {
            let afterColon = text.index(after: colon)
            let digits = text[afterColon...].prefix { $0.isNumber }
            let end = text.index(afterColon, offsetBy: digits.count)
            if !digits.isEmpty, end < text.endIndex, text[end] == ":", colon > text.startIndex {
                let file = String(text[..<colon])
                if !file.contains("\n"), let line = Int(digits) {
                    var rest = text[text.index(after: end)...]
                    if rest.hasPrefix(" ") { rest = rest.dropFirst() }
                    return (SourceLocation(file: file, line: line), String(rest))
                }
            }
            search = afterColon
        }
        return (nil, text)
    }

    /// Parses "file:line".
    init?(_ text: String?) {
        guard let text, let colon = text.lastIndex(of: ":"), let line = Int(text[text.index(after: colon)...]) else { return nil }
        self.init(file: String(text[..<colon]), line: line)
    }
}

/// The name Lua locations had before every location was a `SourceLocation`.
@available(*, deprecated, renamed: "SourceLocation")
public typealias ScriptLocation = SourceLocation
