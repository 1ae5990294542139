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

    /// Parses a whole JSON text.
    public static func parse(_ text: String) throws -> JSONValue {
        var parser = Parser(bytes: Array(text.utf8))
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.position == parser.bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
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

    private static func quote(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        func error(_ message: String) -> ParseError {
            var line = 1, column = 1
            for byte in bytes[..<min(position, bytes.count)] {
                if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
            }
            return ParseError(message: message, line: line, column: column)
        }

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x0a, 0x0d, 0x09].contains(bytes[position]) { position += 1 }
        }

        mutating func expect(_ literal: String, _ value: JSONValue) throws -> JSONValue {
            let chars = Array(literal.utf8)
            guard position + chars.count <= bytes.count, Array(bytes[position..<position + chars.count]) == chars else {
                throw error("unexpected character")
            }
            position += chars.count
            return value
        }

        mutating func value(depth: Int) throws -> JSONValue {
            guard depth < 200 else { throw error("nested too deeply") }
            guard position < bytes.count else { throw error("unexpected end of file") }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try expect("true", .bool(true))
            case UInt8(ascii: "f"): return try expect("false", .bool(false))
            case UInt8(ascii: "n"): return try expect("null", .null)
            default: return try number()
            }
        }

        mutating func object(depth: Int) throws -> JSONValue {
            position += 1
            var members: [(String, JSONValue)] = []
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
            while true {
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
                let key = try string()
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':'") }
                position += 1
                skipSpace()
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                guard position < bytes.count else { throw error("unexpected end of file in an object") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
                throw error("expected ',' or '}'")
            }
        }

        mutating func array(depth: Int) throws -> JSONValue {
            position += 1
            var items: [JSONValue] = []
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard position < bytes.count else { throw error("unexpected end of file in an array") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
                throw error("expected ',' or ']'")
            }
        }

        mutating func string() throws -> String {
            position += 1
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() { scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars); raw.removeAll() }
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                if byte == UInt8(ascii: "\"") { flush(); return String(scalars) }
                if byte < 0x20 { throw error("control character in a string") }
                guard byte == UInt8(ascii: "\\") else { raw.append(byte); continue }
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                flush()
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{c}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), position + 6 <= bytes.count,
                       bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
                        position += 2
                        let low = try hex4()
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default: throw error("unknown escape in a string")
                }
            }
            throw error("unterminated string")
        }

        mutating func hex4() throws -> UInt32 {
            guard position + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else {
                throw error("malformed \\u escape")
            }
            position += 4
            return code
        }

        mutating func number() throws -> JSONValue {
            let start = position
            var isFloat = false
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { isFloat = true }
                guard (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || [UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(byte) else { break }
                position += 1
            }
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            if text.isEmpty { throw error("unexpected character") }
            if !isFloat, let integer = Int64(text) { return .int(integer) }
            if let double = Double(text), double.isFinite { return .double(double) }
            position = start
            throw error("malformed number '\(text)'")
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
