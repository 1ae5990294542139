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
    var location: FindingSource?
    /// Up to `context` lines either side of `location`, numbered; empty when the file
    /// cannot be read or lies outside the finding's pack (then the page shows the path alone).
    var source: [(number: Int, text: String)] = []
    /// The lines of the blamed function (from `location` to its `end`) that assign to a slot
    /// the finding lists as differing (`game.moves = ...` for `moves: before 1, after undo 0`):
    /// where the page scrolls to, since the blame names the function's first line.
    var writes: [Int] = []
    /// Lines of source shown either side of the blamed line: a whole short function.
    static let context = 12

    /// The finding a reproduction file's header describes; nil when the file has no `# Finding:` line.
    /// Source lines are read only from `packFolders` (the pack the finding plays and its bases).
    init?(header text: String, file: URL, packFolders: [URL]) {
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
        location = FindingSource.first(in: [blame].compactMap { $0 } + message)
        if let location {
            source = location.lines(beside: file, packFolders: packFolders, context: Self.context)
            writes = Self.writes(in: source, from: location.line, slots: slots)
        }
    }

    /// The lines after `line`, up to the `end` that closes the block opened there (the first line
    /// indented no deeper that starts with `end`), that assign to the last key of one of `slots`.
    static func writes(in source: [(number: Int, text: String)], from line: Int, slots: [String]) -> [Int] {
        let keys = Set(slots.compactMap { slot -> String? in
            guard let path = slot.split(separator: ":", maxSplits: 1).first else { return nil }
            let last = path.split(whereSeparator: { ".[]\"' ".contains($0) }).last
            return last.map(String.init)
        })
        guard !keys.isEmpty, let start = source.firstIndex(where: { $0.number == line }) else { return [] }
        let indent = { (text: String) in text.prefix { $0 == " " || $0 == "\t" }.count }
        let depth = indent(source[start].text)
        var found: [Int] = []
        for entry in source[(start + 1)...] {
            let trimmed = entry.text.drop { $0 == " " || $0 == "\t" }
            if indent(entry.text) <= depth && trimmed.hasPrefix("end") { break }
            if keys.contains(where: { Self.assigns(String(trimmed), key: $0) }) { found.append(entry.number) }
        }
        return found
    }

    /// True when `code` assigns to a field named `key` (`x.key =`, `x["key"] =`), not compares it.
    private static func assigns(_ code: String, key: String) -> Bool {
        for target in [".\(key)", "[\"\(key)\"]", "['\(key)']"] {
            var rest = Substring(code)
            while let range = rest.range(of: target) {
                let after = rest[range.upperBound...].drop { $0 == " " }
                if after.hasPrefix("=") && !after.hasPrefix("==") { return true }
                rest = rest[range.upperBound...]
            }
        }
        return false
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
        members.append(("writes", .array(writes.map { .int(Int64($0)) })))
        return .object(members)
    }
}
