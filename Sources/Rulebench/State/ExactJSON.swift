/// A small JSON reader and writer that keeps integers and floats apart.
///
/// Saved histories must round-trip state values exactly: `1` and `1.0` are
/// different Lua values and hash differently, which Foundation's JSON
/// classes do not preserve. Floats are always written with a point or an
/// exponent; a number without either reads back as an integer.
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Members in the order they were written (kept for stable output).
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a.bitPattern == b.bitPattern
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .int(let i): hasher.combine(i)
        case .double(let d): hasher.combine(d.bitPattern)
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let o): for (k, v) in o { hasher.combine(k); hasher.combine(v) }
        }
    }

    /// The member named `key` of an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members.first { $0.0 == key }?.1 }
        return nil
    }

    /// A JSON text that could not be read.
    public struct ParseError: Error, CustomStringConvertible {
        public let message: String
        public let line: Int
        public let column: Int
        public var description: String { "\(line):\(column): \(message)" }
    }

    /// How deeply arrays and objects may nest in a text `parse` reads.
    ///
    /// The parser recurses once per level, so without a cap `[[[[...` 100,000
    /// deep overflows the stack. A saved history nests far less: the state
    /// may nest 100 levels, and a table with integer keys is written as
    /// `{"$table": [[key, value]]}`, three JSON levels per state level.
    public static let maximumDepth = 512

    /// Parses a whole JSON text.
    public static func parse(_ text: String) throws -> JSONValue {
        try parse(utf8: Array(text.utf8))
    }

    /// Parses a whole JSON text given as UTF-8 bytes (a leading byte order
    /// mark is skipped). Bytes that are not UTF-8 are a `ParseError` at their
    /// line and column, where decoding them into a `String` first would have
    /// replaced them with U+FFFD without a word.
    public static func parse(utf8 bytes: [UInt8]) throws -> JSONValue {
        var parser = Parser(bytes: bytes)
        return try parser.document()
    }

    /// The JSON text, pretty-printed with two-space indents when `pretty`.
    public func serialized(pretty: Bool = true) -> String {
        var out = ""
        write(to: &out, indent: pretty ? 0 : nil)
        return out
    }

    private func write(to out: inout String, indent: Int?) {
        let newline = indent.map { "\n" + String(repeating: "  ", count: $0) } ?? ""
        let inner = indent.map { "\n" + String(repeating: "  ", count: $0 + 1) } ?? ""
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += StateValue.render(d)
        case .string(let s): JSONValue.quote(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            let flat = items.allSatisfy { if case .array = $0 { return false }; if case .object = $0 { return false }; return true }
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += flat || indent == nil ? (indent == nil ? "," : ", ") : "," }
                if !flat { out += inner }
                item.write(to: &out, indent: indent.map { $0 + 1 })
            }
            out += flat ? "]" : newline + "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                out += inner
                JSONValue.quote(member.0, into: &out)
                out += indent == nil ? ":" : ": "
                member.1.write(to: &out, indent: indent.map { $0 + 1 })
            }
            out += newline + "}"
        }
    }

    /// `s` in double quotes, with JSON's escapes for `"`, `\`, line feed,
    /// carriage return and tab, and `\uXXXX` for the other controls below
    /// U+0020 (JSON's).
    static func quote(_ s: String, into out: inout String) {
        // The usual string needs no escape: one scan of its UTF-8 bytes
        // (every byte JSON escapes is ASCII, which no multi-byte scalar
        // holds) and it is appended whole.
        let plain = s.utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        }
        guard plain == true else {
            quote(s, into: &out) { $0.value < 0x20 }
            return
        }
        out += "\""
        out += s
        out += "\""
    }

    /// `s` quoted as `quote(_:into:)` does, `\uXXXX` written for the
    /// scalars `escaping` names instead of the controls. YAML reads the same
    /// escapes (`YAMLText`); every scalar escaped must lie in the Basic Multilingual Plane.
    static func quote(_ s: String, into out: inout String, escaping: (Unicode.Scalar) -> Bool) {
        out += "\""
        // Runs of scalars that need no escape are appended whole: a 12 MiB
        // string costs one copy, not twelve million appends.
        let scalars = s.unicodeScalars
        var run = scalars.startIndex
        var index = run
        while index != scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            if let escaped = escape(scalar, escaping) {
                out += Substring(scalars[run..<index])
                out += escaped
                run = next
            }
            index = next
        }
        out += Substring(scalars[run..<scalars.endIndex])
        out += "\""
    }

    /// How a scalar is written inside a JSON string; nil when as it is.
    private static func escape(_ scalar: Unicode.Scalar, _ escaping: (Unicode.Scalar) -> Bool) -> String? {
        switch scalar {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case _ where escaping(scalar):
            let hex = String(scalar.value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: return nil
        }
    }

    /// A recursive-descent reader over UTF-8 bytes. Every way a text can be
    /// wrong is a `ParseError` at the offending byte: no input traps, and the
    /// depth cap bounds the recursion.
    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        private static let hexDigits: [UInt8] = Array("0123456789abcdefABCDEF".utf8)

        /// The one value of the text, with nothing but white space around it.
        mutating func document() throws -> JSONValue {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
            skipSpace()
            let value = try value(depth: 0)
            skipSpace()
            guard position == bytes.count else {
                throw error("unexpected \(describeCurrent()) after the JSON value: a file holds one value")
            }
            return value
        }

        /// An error at the current position. Columns count characters, not bytes.
        func error(_ message: String) -> ParseError {
            error(message, at: position)
        }

        /// An error at byte `offset`.
        func error(_ message: String, at offset: Int) -> ParseError {
            var line = 1, column = 1
            for byte in bytes[..<min(offset, bytes.count)] {
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
            }
            return ParseError(message: message, line: line, column: column)
        }

        /// The byte at the current position as a message shows it.
        func describeCurrent() -> String {
            guard position < bytes.count else { return "end of the text" }
            let byte = bytes[position]
            if byte == 0x20 { return "space" }
            if (0x21...0x7E).contains(byte) { return "character '\(Character(Unicode.Scalar(byte)))'" }
            if let length = utf8Length(at: position), length > 1 {
                return "character '\(String(decoding: bytes[position..<position + length], as: UTF8.self))'"
            }
            return "byte 0x" + String(byte, radix: 16, uppercase: true)
        }

        /// Skips JSON's four white-space characters (nothing else counts).
        mutating func skipSpace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x0A, 0x0D, 0x09: position += 1
                default: return
                }
            }
        }

        /// The value at the position, inside `depth` arrays and objects.
        mutating func value(depth: Int) throws -> JSONValue {
            guard position < bytes.count else { throw error("the text ends where a value should be: the file may be cut short") }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default:
                throw error("unexpected \(describeCurrent()): expected a value (an object, array, string, number, true, false or null)")
            }
        }

        /// `true`, `false` or `null`, spelled out in full.
        mutating func literal(_ word: String, _ value: JSONValue) throws -> JSONValue {
            let chars = Array(word.utf8)
            guard bytes[position...].starts(with: chars) else { throw error("unexpected \(describeCurrent()): expected '\(word)'") }
            position += chars.count
            return value
        }

        /// Refuses to open one more array or object past `maximumDepth`.
        func checkDepth(_ depth: Int) throws {
            guard depth <= JSONValue.maximumDepth else {
                throw error("arrays and objects nested more than \(JSONValue.maximumDepth) levels deep: "
                            + "Rulebench reads at most \(JSONValue.maximumDepth) (a saved history needs far fewer)")
            }
        }

        /// After an item of an array or object: true for ',', false for `close`.
        mutating func separator(closing close: UInt8, in what: String) throws -> Bool {
            skipSpace()
            guard position < bytes.count else { throw error("the text ends inside \(what): the file may be cut short") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; return true }
            if bytes[position] == close { position += 1; return false }
            throw error("unexpected \(describeCurrent()) in \(what): expected ',' or '\(Character(Unicode.Scalar(close)))'")
        }

        mutating func object(depth: Int) throws -> JSONValue {
            try checkDepth(depth)
            position += 1
            var members: [(String, JSONValue)] = []
            var firstAt: [String: Int] = [:]
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
            repeat {
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                    throw error("unexpected \(describeCurrent()) in an object: expected a member name in quotes")
                }
                let keyStart = position
                let key = try string()
                try refuseDuplicate(key, at: keyStart, firstAt: &firstAt)
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                    throw error("unexpected \(describeCurrent()) after the member name: expected ':'")
                }
                position += 1
                skipSpace()
                members.append((key, try value(depth: depth)))
            } while try separator(closing: UInt8(ascii: "}"), in: "an object")
            return .object(members)
        }

        /// Refuses a member name given twice in one object: readers differ on
        /// which one counts (this one took the first, Python's json the last),
        /// so the file means two things. Names are compared as Swift compares
        /// strings, canonically equivalent forms alike (`é` and `e` + U+0301),
        /// since a Swift dictionary of the state would keep only one of them.
        mutating func refuseDuplicate(_ key: String, at start: Int, firstAt: inout [String: Int]) throws {
            guard let first = firstAt[key] else { firstAt[key] = start; return }
            let firstKey = firstAt.keys.first { $0 == key } ?? key
            let written = firstKey.utf8.elementsEqual(key.utf8) ? "" : " (written another way: the same text in Unicode)"
            let firstLine = error("", at: first).line
            position = start
            throw error("member \(JSONValue.string(key).serialized(pretty: false)) appears twice in one object\(written), "
                        + "first on line \(firstLine): give each name once")
        }

        mutating func array(depth: Int) throws -> JSONValue {
            try checkDepth(depth)
            position += 1
            var items: [JSONValue] = []
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
            repeat {
                skipSpace()
                items.append(try value(depth: depth))
            } while try separator(closing: UInt8(ascii: "]"), in: "an array")
            return .array(items)
        }

        // MARK: Strings

        /// A quoted string; the position is at its opening quote.
        mutating func string() throws -> String {
            let opening = position
            position += 1
            var utf8: [UInt8] = []
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    return String(decoding: utf8, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    try escape(into: &utf8)
                case 0..<0x20:
                    throw error("a control character (U+00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
                                + ") in a string: write it as an escape such as \\n or \\u001F")
                case 0..<0x80:
                    utf8.append(byte)
                    position += 1
                default:
                    guard let length = utf8Length(at: position) else {
                        throw error("invalid UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true))) in a string: save the file as UTF-8")
                    }
                    utf8.append(contentsOf: bytes[position..<position + length])
                    position += length
                }
            }
            position = opening
            throw error("a string that never ends (no closing '\"'): the file may be cut short")
        }

        /// One escape sequence; the position is at its backslash.
        mutating func escape(into utf8: inout [UInt8]) throws {
            guard position + 1 < bytes.count else {
                position += 1
                throw error("the text ends inside an escape: the file may be cut short")
            }
            let simple: UInt8
            switch bytes[position + 1] {
            case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
            case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
            case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
            case UInt8(ascii: "b"): simple = 0x08
            case UInt8(ascii: "f"): simple = 0x0C
            case UInt8(ascii: "n"): simple = 0x0A
            case UInt8(ascii: "r"): simple = 0x0D
            case UInt8(ascii: "t"): simple = 0x09
            case UInt8(ascii: "u"):
                UTF8.encode(try unicodeEscape()) { utf8.append($0) }
                return
            default:
                throw error("unknown escape '\\\(describeEscaped())' in a string: write a backslash as \\\\")
            }
            utf8.append(simple)
            position += 2
        }

        /// The character after a backslash, as a message shows it.
        func describeEscaped() -> String {
            let byte = bytes[position + 1]
            return (0x21...0x7E).contains(byte) ? String(Character(Unicode.Scalar(byte))) : "0x" + String(byte, radix: 16)
        }

        /// A `\uXXXX` escape, or two for a character outside the Basic
        /// Multilingual Plane (a UTF-16 surrogate pair). A surrogate without
        /// its partner names no character; it is refused, not replaced.
        mutating func unicodeEscape() throws -> Unicode.Scalar {
            let start = position
            guard let code = hex4(at: position + 2) else {
                throw error("malformed \\u escape: it takes exactly four hex digits, as in \\u00E9")
            }
            position += 6
            var value = code
            switch code {
            case 0xD800..<0xDC00:
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u"),
                      let low = hex4(at: position + 2), (0xDC00..<0xE000).contains(low) else {
                    position = start
                    throw error("a lone UTF-16 surrogate \(escapeText(at: start)): a high surrogate (\\uD800-\\uDBFF) "
                                + "must be followed by a low one (\\uDC00-\\uDFFF); write the character itself instead")
                }
                position += 6
                // Both halves were checked above, so no step can overflow: at most 0x10FFFF.
                value = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            case 0xDC00..<0xE000:
                position = start
                throw error("a lone UTF-16 surrogate \(escapeText(at: start)): a low surrogate (\\uDC00-\\uDFFF) "
                            + "must follow a high one (\\uD800-\\uDBFF); write the character itself instead")
            default:
                break
            }
            guard let scalar = Unicode.Scalar(value) else {
                position = start
                throw error("\\u escape \(escapeText(at: start)) names no character")
            }
            return scalar
        }

        /// The six characters of the escape at `index`, as written.
        func escapeText(at index: Int) -> String {
            String(decoding: bytes[index..<index + 6], as: UTF8.self)
        }

        /// The value of four hex digits at `index`, or nil. (Not `UInt32(_:radix:)`,
        /// which would also take a sign: `\u+123`.)
        func hex4(at index: Int) -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var code: UInt32 = 0
            for byte in bytes[index..<index + 4] {
                guard let digit = Parser.hexDigits.firstIndex(of: byte) else { return nil }
                code = (code << 4) + UInt32(digit < 16 ? digit : digit - 6)
            }
            return code
        }

        /// The length of the well-formed UTF-8 sequence at `index`, or nil
        /// (overlong forms, surrogates and code points past U+10FFFF are not
        /// well formed: Unicode's table 3-7).
        func utf8Length(at index: Int) -> Int? {
            let lead = bytes[index]
            var second: ClosedRange<UInt8> = 0x80...0xBF
            let length: Int
            switch lead {
            case 0x00...0x7F: return 1
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; second = 0xA0...0xBF
            case 0xED: length = 3; second = 0x80...0x9F
            case 0xE1...0xEF: length = 3
            case 0xF0: length = 4; second = 0x90...0xBF
            case 0xF4: length = 4; second = 0x80...0x8F
            case 0xF1...0xF3: length = 4
            default: return nil
            }
            guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return nil }
            for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) { return nil }
            return length
        }

        // MARK: Numbers

        /// A number as JSON writes it: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`.
        /// Without a fraction or an exponent it is a 64-bit integer, never
        /// silently a float; a float must be finite.
        mutating func number() throws -> JSONValue {
            let start = position
            if bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digitHere() else { throw error("unexpected \(describeCurrent()) in a number: expected a digit") }
            if bytes[position] == UInt8(ascii: "0") {
                position += 1
                if digitHere() { throw error("a number with a leading zero: JSON writes 7, not 07") }
            } else {
                skipDigits()
            }
            var isFloat = false
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                isFloat = true
                position += 1
                guard digitHere() else { throw error("a digit must follow the decimal point: write 1.0, not 1.") }
                skipDigits()
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
                isFloat = true
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+") { position += 1 }
                guard digitHere() else { throw error("an exponent needs digits: write 1e5, not 1e") }
                skipDigits()
            }
            return try numberValue(from: start, isFloat: isFloat)
        }

        private mutating func numberValue(from start: Int, isFloat: Bool) throws -> JSONValue {
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            let shown = text.count > 40 ? String(text.prefix(40)) + "..." : text
            if !isFloat {
                guard let integer = Int64(text) else {
                    position = start
                    throw error("integer \(shown) is out of range: integers are 64-bit "
                                + "(-9223372036854775808 to 9223372036854775807); write it as a float (with .0) or a string")
                }
                return .int(integer)
            }
            guard let double = Double(text), double.isFinite else {
                position = start
                throw error("number \(shown) is too large for a 64-bit float")
            }
            return .double(double)
        }

        private func digitHere() -> Bool {
            position < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position])
        }

        private mutating func skipDigits() {
            while digitHere() { position += 1 }
        }
    }
}

extension JSONValue {
    /// The JSON form of a state value. Sequences become arrays, string-keyed
    /// tables objects; other tables are written as `{"$table": [[key, value], ...]}`.
    public init(_ value: StateValue?) {
        guard let value else { self = .null; return }
        switch value {
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .double(let d): self = .double(d)
        case .string(let s): self = .string(s)
        case .table(let table):
            if table.isEmpty { self = .object([]); return }
            if let items = value.listItems { self = .array(items.map { JSONValue($0) }); return }
            if table.keys.allSatisfy({ if case .string = $0 { return true }; return false }) {
                self = .object(value.sortedEntries.map { ($0.key.description, JSONValue($0.value)) })
                return
            }
            self = .object([("$table", .array(value.sortedEntries.map { entry in
                let key: JSONValue
                switch entry.key {
                case .int(let i): key = .int(i)
                case .string(let s): key = .string(s)
                }
                return .array([key, JSONValue(entry.value)])
            }))])
        }
    }

    /// Appends `JSONValue(value).serialized(pretty: false)` to `out`,
    /// written straight from the state value, no JSON tree built (a
    /// server's messages, written once a step for every connection).
    public static func compact(_ value: StateValue?, into out: inout String) {
        guard let value else { out += "null"; return }
        switch value {
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += StateValue.render(d)
        case .string(let s): quote(s, into: &out)
        case .table(let table):
            if table.isEmpty { out += "{}"; return }
            if let items = value.listItems {
                out += "["
                for (index, item) in items.enumerated() {
                    if index > 0 { out += "," }
                    compact(item, into: &out)
                }
                out += "]"
                return
            }
            let named = table.keys.allSatisfy { if case .string = $0 { return true }; return false }
            out += named ? "{" : "{\"$table\":["
            for (index, entry) in value.sortedEntries.enumerated() {
                if index > 0 { out += "," }
                if named {
                    quote(entry.key.description, into: &out)
                    out += ":"
                } else {
                    out += "["
                    switch entry.key {
                    case .int(let i): out += String(i)
                    case .string(let s): quote(s, into: &out)
                    }
                    out += ","
                }
                compact(entry.value, into: &out)
                if !named { out += "]" }
            }
            out += named ? "}" : "]}"
        }
    }

    /// Appends `s` as a JSON string (`JSONValue.string(s).serialized()`) to `out`.
    public static func compact(string s: String, into out: inout String) {
        quote(s, into: &out)
    }

    /// The state value this JSON denotes (nil for null).
    public var stateValue: StateValue? {
        switch self {
        case .null: return nil
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .array(let items): return .list(items.compactMap(\.stateValue))
        case .object(let members):
            if members.count == 1, members[0].0 == "$table", case .array(let pairs) = members[0].1 {
                var table: [StateKey: StateValue] = [:]
                for pair in pairs {
                    guard case .array(let kv) = pair, kv.count == 2 else { continue }
                    switch kv[0] {
                    case .int(let i): table[.int(i)] = kv[1].stateValue
                    case .string(let s): table[.string(s)] = kv[1].stateValue
                    default: continue
                    }
                }
                return .table(table)
            }
            var table: [StateKey: StateValue] = [:]
            for (key, item) in members { table[.string(key)] = item.stateValue }
            return .table(table)
        }
    }
}

extension JSONValue {
    /// The value as a message names it: "the float 100.0", "the string \"7\"".
    public var described: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return "the integer \(i)"
        case .double: return "the float \(serialized(pretty: false))"
        case .string: return "the string \(serialized(pretty: false).prefix(40))"
        case .array: return "a list"
        case .object: return "an object"
        }
    }

    /// The whole number member `name` of an object; otherwise why not, for
    /// a message: missing, or a float, a string... (`1E+2` and `-0.0` are
    /// floats in JSON, `"7"` a string: a seed or a count is neither).
    public func wholeNumber(_ name: String) -> Result<Int64, WholeNumberProblem> {
        switch self[name] {
        case .int(let value)?: return .success(value)
        case nil: return .failure(WholeNumberProblem(message: "missing \"\(name)\" (a whole number)"))
        case let other?:
            var fix = ""
            if case .double = other { fix = " (write it without a point or an exponent)" }
            if case .string = other { fix = " (write it without quotes)" }
            return .failure(WholeNumberProblem(message: "\"\(name)\" must be a whole number, not \(other.described)\(fix)"))
        }
    }

    /// Why a member is not a whole number.
    public struct WholeNumberProblem: Error, Sendable {
        public let message: String
    }
}
