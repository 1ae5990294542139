import Foundation
import Rulebench

/// A fuzz finding as its reproduction's header states it (see `Reproduction`):
/// the property that failed, its message, the blamed action path, the slots
/// that differ, and the rule file:line the blame or message names, with the
/// source around that line. The page shows exactly these, so what it shows
/// is what the header says.
struct StudioFinding {
    /// The header's property (`undo restores the state`, ...).
    var property: String
    /// The lines under `# Finding:`.
    var message: [String] = []
    /// The `# Blame:` line, when there is one.
    var blame: String?
    /// The differing slots listed under the blame (`path: before -> after`).
    var slots: [String] = []
    /// The rule file and line the blame (else the message) names.
    var location: (file: String, line: Int)?
    /// Up to three lines either side of `location`, numbered; empty when the file cannot be read.
    var source: [(number: Int, text: String)] = []

    /// The finding a reproduction file's header describes; nil when the file has no `# Finding:` line.
    init?(header text: String, file: URL) {
        var property: String?
        var inBlame = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(while: { $0.hasPrefix("#") }) {
            if line.hasPrefix("# Finding: ") {
                property = String(line.dropFirst("# Finding: ".count)).replacingOccurrences(of: " failed", with: "")
            } else if line.hasPrefix("# Blame: ") {
                blame = String(line.dropFirst("# Blame: ".count))
                inBlame = true
            } else if line.hasPrefix("#   "), property != nil {
                let item = String(line.dropFirst(4))
                if inBlame { slots.append(item) } else { message.append(item) }
            } else if line.hasPrefix("# Shrunk") {
                break
            }
        }
        guard let property else { return nil }
        self.property = property
        location = StudioFinding.location(in: [blame].compactMap { $0 } + message)
        if let location { source = StudioFinding.source(around: location, beside: file) }
    }

    /// The first `file.lua:line` in the texts.
    static func location(in texts: [String]) -> (file: String, line: Int)? {
        for text in texts {
            guard let match = text.firstMatch(of: /([A-Za-z0-9_.\/-]+\.lua):([0-9]+)/), let line = Int(match.2) else { continue }
            return (String(match.1), line)
        }
        return nil
    }

    /// The lines around `location`: the file is looked for from the working
    /// directory (fuzz names files so) and then from the finding's folder upwards.
    static func source(around location: (file: String, line: Int), beside finding: URL) -> [(number: Int, text: String)] {
        var candidates = [URL(fileURLWithPath: location.file)]
        var folder = finding.standardizedFileURL.deletingLastPathComponent()
        while folder.path != "/" {
            candidates.append(folder.appendingPathComponent(location.file))
            folder = folder.deletingLastPathComponent()
        }
        guard let text = candidates.lazy.compactMap({ try? String(contentsOf: $0, encoding: .utf8) }).first else { return [] }
        // The line is any integer the header held (past the end, 2^63 - 1): the library checks it first.
        return SourceLocation(file: location.file, line: location.line).lines(in: text, spread: 3)
    }

    /// The finding as the page reads it.
    var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("property", .string(property)), ("message", .array(message.map(JSONValue.string))),
            ("blame", blame.map(JSONValue.string) ?? .null), ("slots", .array(slots.map(JSONValue.string))),
        ]
        if let location {
            members.append(("location", .string("\(location.file):\(location.line)")))
            members.append(("line", .int(Int64(location.line))))
        }
        members.append(("source", .array(source.map { .object([("number", .int(Int64($0.number))), ("text", .string($0.text))]) })))
        return .object(members)
    }
}
