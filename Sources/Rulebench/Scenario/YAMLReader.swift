import Foundation
import Yams

/// A YAML value as a scenario reads it: YAML 1.2 core-schema types, so that
/// `no` and `on` stay strings, `3` is a Lua integer and `3.0` a Lua float.
enum YAMLValue {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case sequence([Node])
    case mapping(Node.Mapping)

    /// The kind of value, as messages name it.
    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int: return "an integer"
        case .double: return "a float"
        case .string: return "a string"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }
}

/// Reads Yams nodes of one file into typed values, turning every problem into
/// an `InputProblem` at the node's `file:line:col`.
struct YAMLReader {
    /// The file as shown in messages.
    let file: String

    /// Composes the YAML text into nodes; a syntax error names its line and column.
    func compose(_ text: String) throws(RulebenchError) -> Node? {
        do {
            return try Yams.compose(yaml: text, .basic)
        } catch let error as YamlError {
            throw .badInput(problem(for: error))
        } catch {
            throw .badInput(InputProblem("cannot read YAML: \(error)", file: file, line: 1, column: 1))
        }
    }

    private func problem(for error: YamlError) -> InputProblem {
        func describe(_ context: YamlError.Context?, _ problem: String) -> String {
            guard let context else { return "malformed YAML: \(problem)" }
            return "malformed YAML: \(problem) (\(context.text) at line \(context.mark.line), column \(context.mark.column))"
        }
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            return InputProblem(describe(context, problem), file: file, line: mark.line, column: mark.column)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let names = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return InputProblem("key \(names) appears more than once in this mapping (first here): give each key once",
                                file: file, line: context.mark.line, column: context.mark.column)
        case .reader(let problem, let offset, _, let yaml):
            let (line, column) = YAMLReader.lineAndColumn(of: offset ?? 0, in: yaml)
            return InputProblem("unreadable text: \(problem) (scenario files are UTF-8)", file: file, line: line, column: column)
        default:
            return InputProblem("cannot read YAML: \(error)", file: file, line: 1, column: 1)
        }
    }

    private static func lineAndColumn(of offset: Int, in text: String) -> (Int, Int) {
        var line = 1, column = 1
        for (index, character) in text.enumerated() {
            if index >= offset { break }
            if character == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }

    // MARK: Locations and problems

    /// Where a node was written (1:1 when Yams does not know).
    func location(of node: Node) -> SourceLocation {
        SourceLocation(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
    }

    /// A bad-input error at `node`.
    func fail(_ node: Node, _ message: String) -> RulebenchError {
        .badInput(location(of: node).problem(message))
    }

    // MARK: Typed values

    /// The node as a typed value, resolving plain scalars by the YAML 1.2 core schema.
    func value(_ node: Node) throws(RulebenchError) -> YAMLValue {
        switch node {
        case .alias:
            throw fail(node, "an alias that names no anchor")
        case .sequence(let sequence):
            return .sequence(Array(sequence))
        case .mapping(let mapping):
            return .mapping(mapping)
        case .scalar(let scalar):
            return try scalarValue(scalar, node)
        }
    }

    private func scalarValue(_ scalar: Node.Scalar, _ node: Node) throws(RulebenchError) -> YAMLValue {
        let text = scalar.string
        let tagName = scalar.tag.rawValue
        let explicit: String?
        switch tagName {
        case Tag.Name.implicit.rawValue: explicit = scalar.style == .plain ? nil : "str"
        case Tag.Name.str.rawValue, Tag.Name.nonSpecific.rawValue: explicit = "str"
        case Tag.Name.int.rawValue: explicit = "int"
        case Tag.Name.float.rawValue: explicit = "float"
        case Tag.Name.bool.rawValue: explicit = "bool"
        case Tag.Name.null.rawValue: explicit = "null"
        default:
            throw fail(node, "unsupported YAML tag '\(tagName)': use plain values (strings, numbers, true/false, null)")
        }
        switch explicit {
        case "str": return .string(text)
        case "null": return .null
        case "bool":
            guard let value = YAMLReader.bool(text) else { throw fail(node, "'\(text)' is not a boolean (true or false)") }
            return .bool(value)
        case "int":
            guard case .int(let value)? = try YAMLReader.number(text, node: node, reader: self) else {
                throw fail(node, "'\(text)' is not an integer")
            }
            return .int(value)
        case "float":
            switch try YAMLReader.number(text, node: node, reader: self) {
            case .int(let value)?: return .double(Double(value))
            case .double(let value)?: return .double(value)
            default: throw fail(node, "'\(text)' is not a number")
            }
        default:
            break
        }
        if ["", "~", "null", "Null", "NULL"].contains(text) { return .null }
        if let value = YAMLReader.bool(text) { return .bool(value) }
        if let number = try YAMLReader.number(text, node: node, reader: self) { return number }
        return .string(text)
    }

    private static func bool(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: return nil
        }
    }

    /// A core-schema number, or nil when the text is not one.
    private static func number(_ text: String, node: Node, reader: YAMLReader) throws(RulebenchError) -> YAMLValue? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first else { return nil }
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        let body = (first == UInt8(ascii: "-") || first == UInt8(ascii: "+")) ? Array(bytes.dropFirst()) : bytes
        let negative = first == UInt8(ascii: "-")
        if !body.isEmpty && body.allSatisfy({ digits.contains($0) }) {
            guard let value = Int64(text.hasPrefix("+") ? String(text.dropFirst()) : text) else {
                throw reader.fail(node, "integer \(text) is out of range (Lua integers are 64-bit); write it as a float or a string")
            }
            return .int(value)
        }
        for (prefix, radix) in [("0x", 16), ("0o", 8)] where text.hasPrefix(prefix) && text.count > 2 {
            guard let value = Int64(text.dropFirst(2), radix: radix) else {
                if text.dropFirst(2).allSatisfy({ $0.isHexDigit }) {
                    throw reader.fail(node, "integer \(text) is out of range (Lua integers are 64-bit)")
                }
                return nil
            }
            return .int(value)
        }
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .double(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .double(-.infinity)
        case ".nan", ".NaN", ".NAN": return .double(.nan)
        default: break
        }
        // [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
        var index = 0
        var mantissaDigits = 0
        while index < body.count, digits.contains(body[index]) { index += 1; mantissaDigits += 1 }
        if index < body.count, body[index] == UInt8(ascii: ".") {
            index += 1
            while index < body.count, digits.contains(body[index]) { index += 1; mantissaDigits += 1 }
        }
        guard mantissaDigits > 0 else { return nil }
        if index < body.count, body[index] == UInt8(ascii: "e") || body[index] == UInt8(ascii: "E") {
            index += 1
            if index < body.count, body[index] == UInt8(ascii: "-") || body[index] == UInt8(ascii: "+") { index += 1 }
            let start = index
            while index < body.count, digits.contains(body[index]) { index += 1 }
            guard index > start else { return nil }
        }
        guard index == body.count, let value = Double(String(decoding: body, as: UTF8.self)) else { return nil }
        return .double(negative ? -value : value)
    }

    // MARK: Shapes

    /// The node as a mapping whose keys are strings, in file order, or a problem naming `what`.
    func mapping(_ node: Node, _ what: String) throws(RulebenchError) -> [(key: String, keyNode: Node, value: Node)] {
        guard case .mapping(let mapping) = node else {
            throw fail(node, "\(what) must be a mapping (key: value), not \(try value(node).kindName)")
        }
        var pairs: [(key: String, keyNode: Node, value: Node)] = []
        for (keyNode, valueNode) in mapping {
            guard case .scalar(let scalar) = keyNode else {
                throw fail(keyNode, "a key in \(what) must be a plain name, not \(try value(keyNode).kindName)")
            }
            pairs.append((scalar.string, keyNode, valueNode))
        }
        return pairs
    }

    /// The node's items when it is a list.
    func sequence(_ node: Node, _ what: String) throws(RulebenchError) -> [Node] {
        guard case .sequence(let items) = try value(node) else {
            throw fail(node, "\(what) must be a list, not \(try value(node).kindName)")
        }
        return items
    }

    /// The node as a string (quote numbers and booleans to make them strings).
    func string(_ node: Node, _ what: String) throws(RulebenchError) -> String {
        let typed = try value(node)
        guard case .string(let text) = typed else {
            let hint: String
            switch typed {
            case .int, .double, .bool, .null: hint = "; quote it if you mean the text"
            default: hint = ""
            }
            throw fail(node, "\(what) must be a string, not \(typed.kindName)\(hint)")
        }
        return text
    }

    /// The node as an integer.
    func integer(_ node: Node, _ what: String) throws(RulebenchError) -> Int64 {
        let typed = try value(node)
        guard case .int(let integer) = typed else { throw fail(node, "\(what) must be an integer, not \(typed.kindName)") }
        return integer
    }

    /// The node as a number (an integer is accepted as its float value).
    func number(_ node: Node, _ what: String) throws(RulebenchError) -> Double {
        switch try value(node) {
        case .int(let integer): return Double(integer)
        case .double(let double) where double.isFinite: return double
        case let typed: throw fail(node, "\(what) must be a finite number, not \(typed.kindName)")
        }
    }

    /// The node as a state value; nil for YAML null.
    ///
    /// Mappings become tables with string keys (null members are left out,
    /// since a table cannot hold nil); lists become sequences 1...n.
    func stateValue(_ node: Node, _ what: String) throws(RulebenchError) -> StateValue? {
        switch try value(node) {
        case .null: return nil
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .sequence(let items):
            var list: [StateValue] = []
            for item in items {
                guard let value = try stateValue(item, what) else {
                    throw fail(item, "a list in \(what) cannot hold null (Lua sequences have no holes)")
                }
                list.append(value)
            }
            return .list(list)
        case .mapping:
            var table: [StateKey: StateValue] = [:]
            for pair in try mapping(node, what) {
                table[StateReader.key(pair.key)] = try stateValue(pair.value, what)
            }
            return .table(table)
        }
    }

    /// The node as plain JSON, typed as the scenario reader types it.
    func json(_ node: Node) throws(RulebenchError) -> JSONValue {
        switch try value(node) {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .sequence(let items):
            var out: [JSONValue] = []
            for item in items { out.append(try json(item)) }
            return .array(out)
        case .mapping:
            var members: [(String, JSONValue)] = []
            for pair in try mapping(node, "a mapping") { members.append((pair.key, try json(pair.value))) }
            return .object(members)
        }
    }
}

/// Keys of tables written in YAML.
enum StateReader {
    /// A mapping key: digits make an integer key, as in state paths.
    static func key(_ text: String) -> StateKey {
        if let integer = Int64(text), text.allSatisfy({ $0.isNumber || $0 == "-" }) { return .int(integer) }
        return .string(text)
    }
}
