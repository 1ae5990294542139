import Foundation

/// A Lua file seen as code only: comments and the contents of string literals
/// are blanked to spaces (newlines kept), so simple patterns can look for
/// names, fields and keys without matching prose. A heuristic reader for
/// lint messages, not a parser.
struct LuaSourceScan {
    /// The blanked text: same length and lines as the source, ASCII only.
    let code: String
    /// The source as written.
    let source: String
    private let lineStarts: [Int]

    init(_ source: String) {
        self.source = source
        let bytes = Array(source.utf8)
        var out = bytes
        let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " ")
        func blank(_ range: Range<Int>) {
            for index in range where out[index] != newline { out[index] = space }
        }
        /// `[==[` at `index` opens a long bracket of level 2; nil when it is no long bracket.
        func longBracketLevel(at index: Int) -> Int? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
            var cursor = index + 1
            while cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") { cursor += 1 }
            return cursor < bytes.count && bytes[cursor] == UInt8(ascii: "[") ? cursor - index - 1 : nil
        }
        /// The index just past the `]==]` closing a long bracket whose contents start at `start`.
        func longBracketEnd(from start: Int, level: Int) -> Int {
            let closing = [UInt8(ascii: "]")] + Array(repeating: UInt8(ascii: "="), count: level) + [UInt8(ascii: "]")]
            var cursor = start
            while cursor + closing.count <= bytes.count {
                if bytes[cursor] == closing[0] && Array(bytes[cursor..<cursor + closing.count]) == closing { return cursor + closing.count }
                cursor += 1
            }
            return bytes.count
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "-"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "-") {
                if let level = longBracketLevel(at: index + 2) {
                    let end = longBracketEnd(from: index + 4 + level, level: level)
                    blank(index..<end)
                    index = end
                } else {
                    var end = index
                    while end < bytes.count, bytes[end] != newline { end += 1 }
                    blank(index..<end)
                    index = end
                }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                var end = index + 1
                while end < bytes.count, bytes[end] != byte, bytes[end] != newline {
                    end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                end = min(end, bytes.count)
                blank(index + 1..<end)
                index = end + 1
            } else if let level = longBracketLevel(at: index) {
                let end = longBracketEnd(from: index + 2 + level, level: level)
                blank(index + 2 + level..<max(index + 2 + level, end - 2 - level))
                index = end
            } else {
                if byte >= 0x80 { out[index] = space }
                index += 1
            }
        }
        code = String(decoding: out, as: UTF8.self)
        var starts = [0]
        for (offset, byte) in out.enumerated() where byte == newline { starts.append(offset + 1) }
        lineStarts = starts
    }

    /// The 1-based line of a byte offset into `code`.
    func line(at offset: Int) -> Int {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low + 1
    }

    /// Every match of `pattern` in the blanked code: the capture groups' texts and the match's offset.
    func matches(_ pattern: String) -> [(groups: [String], offset: Int)] {
        LuaSourceScan.matches(pattern, in: code)
    }

    /// Every match of `pattern` in `text`: capture groups (empty when a group did not take part) and offsets.
    static func matches(_ pattern: String, in text: String) -> [(groups: [String], offset: Int)] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { match in
            let groups = (1..<max(1, match.numberOfRanges)).map { index -> String in
                let range = match.range(at: index)
                return range.location == NSNotFound ? "" : ns.substring(with: range)
            }
            // Offsets count UTF-16 units; they equal byte offsets in the ASCII-only blanked code.
            return (groups, match.range.location)
        }
    }

    /// The line where a top-level-looking field `name = ...` of the returned table is set, or a
    /// function of that name is declared (`local function name(`); nil when there is none.
    func definitionLine(of name: String) -> Int? {
        let found = matches("(?<![\\w.:])\(name)\\s*=(?!=)").first ?? matches("\\bfunction\\s+\(name)\\s*\\(").first
        return found.map { line(at: $0.offset) }
    }

    /// The text of the `{ ... }` table literal assigned to field `name`, with its offset in `code`.
    func tableLiteral(of name: String) -> (text: Substring, offset: Int)? {
        guard let start = matches("(?<![\\w.:])\(name)\\s*=\\s*\\{").first else { return nil }
        let chars = Array(code.utf8)
        guard var cursor = chars[start.offset...].firstIndex(of: UInt8(ascii: "{")) else { return nil }
        let open = cursor
        var depth = 0
        while cursor < chars.count {
            if chars[cursor] == UInt8(ascii: "{") { depth += 1 }
            if chars[cursor] == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { break }
            }
            cursor += 1
        }
        let utf8 = code.utf8
        let from = utf8.index(utf8.startIndex, offsetBy: open + 1)
        let to = utf8.index(utf8.startIndex, offsetBy: min(cursor, chars.count))
        return (code[from..<to], open + 1)
    }
}
