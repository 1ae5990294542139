/// A path into the game state, such as `players.p1.tile` or `deck.3`.
///
/// Segments are separated by dots. A segment of digits (with an optional
/// minus sign) is an integer key; any other segment is a string key. A string
/// key that is not a plain name can be written in brackets and quotes:
/// `tiles["a.b"].sand`.
public struct StatePath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The keys from the root.
    public var keys: [StateKey]

    /// A path from its keys.
    public init(keys: [StateKey]) { self.keys = keys }

    /// Parses a path; throws `StatePath.ParseError` on a malformed one.
    public init(parsing text: String) throws {
        keys = try StatePath.parse(text)
    }

    /// Parses a literal path; a malformed literal is a programming error.
    public init(stringLiteral value: String) {
        do { keys = try StatePath.parse(value) } catch { preconditionFailure("malformed state path literal \(value)") }
    }

    /// The root.
    public static let root = StatePath(keys: [])

    /// This path extended by one key.
    public func appending(_ key: StateKey) -> StatePath { StatePath(keys: keys + [key]) }

    public var description: String {
        var out = ""
        for (index, key) in keys.enumerated() {
            switch key {
            case .int(let i): out += (index == 0 ? "" : ".") + String(i)
            case .string(let s) where s.isLuaIdentifier: out += (index == 0 ? "" : ".") + s
            case .string(let s):
                out += "[\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"]"
            }
        }
        return out
    }

    /// A malformed path.
    public struct ParseError: Error, CustomStringConvertible {
        /// What is wrong, naming the path.
        public let description: String
    }

    private static func parse(_ text: String) throws -> [StateKey] {
        var keys: [StateKey] = []
        var chars = Array(text)
        var i = 0
        func fail(_ why: String) -> ParseError { ParseError(description: "malformed state path '\(text)': \(why)") }
        if chars.isEmpty { return [] }
        while i < chars.count {
            if chars[i] == "[" {
                guard i + 1 < chars.count, chars[i + 1] == "\"" else { throw fail("expected [\"...\"]") }
                var j = i + 2
                var key = ""
                while j < chars.count && chars[j] != "\"" {
                    if chars[j] == "\\" && j + 1 < chars.count { j += 1 }
                    key.append(chars[j])
                    j += 1
                }
                guard j + 1 < chars.count, chars[j + 1] == "]" else { throw fail("unterminated [\"...\"]") }
                keys.append(.string(key))
                i = j + 2
                if i < chars.count && chars[i] == "." { i += 1; if i == chars.count { throw fail("ends with a dot") } }
                continue
            }
            var j = i
            while j < chars.count && chars[j] != "." && chars[j] != "[" { j += 1 }
            let segment = String(chars[i..<j])
            if segment.isEmpty { throw fail("empty segment") }
            if let integer = Int64(segment), segment.allSatisfy({ $0.isNumber || $0 == "-" }) {
                keys.append(.int(integer))
            } else {
                keys.append(.string(segment))
            }
            i = j
            if i < chars.count && chars[i] == "." {
                i += 1
                if i == chars.count { throw fail("ends with a dot") }
            }
        }
        chars.removeAll()
        return keys
    }
}

extension StatePath {
    /// Whether path `a` comes before `b` in natural order: runs of digits
    /// compare as numbers, so `deck.2` comes before `deck.10`.
    public static func naturalOrder(_ a: String, _ b: String) -> Bool {
        var i = a.unicodeScalars.makeIterator(), j = b.unicodeScalars.makeIterator()
        var x = i.next(), y = j.next()
        while let p = x, let q = y {
            if p.properties.numericType != nil && q.properties.numericType != nil && p.isASCII && q.isASCII {
                var m = "", n = ""
                while let c = x, c.isASCII, c.properties.numericType != nil { m.unicodeScalars.append(c); x = i.next() }
                while let c = y, c.isASCII, c.properties.numericType != nil { n.unicodeScalars.append(c); y = j.next() }
                let m0 = m.drop { $0 == "0" }, n0 = n.drop { $0 == "0" }
                if m0.count != n0.count { return m0.count < n0.count }
                if m0 != n0 { return m0 < n0 }
                if m.count != n.count { return m.count < n.count }
                continue
            }
            if p != q { return p.value < q.value }
            x = i.next(); y = j.next()
        }
        return x == nil && y != nil
    }
}
