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
///
/// A hostile file cannot make it build without bound: the text is at most
/// `maximumFileBytes`, and the values read from it, counting an alias as a
/// full copy of its anchor each time it is read, are at most `maximumValues`
/// holding at most `maximumTextBytes` of text ("billion laughs": nine levels
/// of anchors, each a list of nine aliases of the one before, name 10^9
/// values in 700 bytes).
struct YAMLReader {
    /// The largest scenario file read, in bytes of UTF-8.
    static let maximumFileBytes = InputFile.maximumBytes
    /// The most values (scalars, lists, mappings) read from one file.
    static let maximumValues = 1_000_000
    /// The most bytes of scalar text (keys included) read from one file.
    static let maximumTextBytes = 64 << 20

    /// The file as shown in messages.
    let file: String
    /// What has been read so far; shared by the copies of this reader, since
    /// they all read the same file.
    private let tally = Tally()

    /// A reader of the file that messages call `file`.
    init(file: String) {
        self.file = file
    }

    /// Composes the YAML text into nodes; a syntax error names its line and column.
    func compose(_ text: String) throws(RulebenchError) -> Node? {
        try checkSize(of: text)
        tally.mayHoldAliases = text.utf8.contains(UInt8(ascii: "*"))
        tally.byteOrderMarks = LeadingByteOrderMarks(in: text)
        if tally.mayHoldAliases { try refuseAliasKeys(in: text) }
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

    // MARK: Bounds

    /// Refuses a text past `maximumFileBytes` before Yams builds its nodes.
    private func checkSize(of text: String) throws(RulebenchError) {
        let size = text.utf8.count
        guard size > YAMLReader.maximumFileBytes else { return }
        throw InputFile.tooLarge(size, file: file)
    }

    /// Refuses an alias used as a mapping key, or inside one, before Yams sees it.
    ///
    /// Yams looks for duplicate keys in every mapping by hashing each key in
    /// full, aliases expanded: a key `*a8` of a billion-laughs file is hashed
    /// for minutes before this reader can count anything. Keys of a scenario
    /// are plain names, so an alias is never needed there. To find one, the
    /// text is composed once with every `*` replaced by a character the text
    /// does not hold: aliases become plain scalars (cheap to hash) at the same
    /// line and column, and a key holding a plain scalar that starts with
    /// that character was an alias. A text that does not compose this way is
    /// left to the real composition, which reports its syntax error.
    private func refuseAliasKeys(in text: String) throws(RulebenchError) {
        let marker = YAMLReader.unusedCharacter(in: text)
        let masked = String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "*" ? marker : $0 }))
        guard let root = try? Yams.compose(yaml: masked, .basic),
              let key = YAMLReader.firstKeyHoldingAlias(in: root, marker: marker) else { return }
        throw fail(key, "an alias (*name) cannot be a mapping key or part of one: write the key out "
                   + "(keys are plain names, and Yams would expand the alias in full to compare keys)")
    }

    /// A private-use character that `text` does not contain (U+E000 in the
    /// absurd case that it holds all 6,400: then a key that really starts
    /// with U+E000 is taken for an alias, which is only a false refusal).
    private static func unusedCharacter(in text: String) -> Unicode.Scalar {
        let used = Set(text.unicodeScalars.lazy.filter { (0xE000...0xF8FF).contains($0.value) })
        let free = (UInt32(0xE000)...0xF8FF).lazy.compactMap(Unicode.Scalar.init).first { !used.contains($0) }
        return free ?? "\u{E000}"
    }

    /// The first mapping key, in file order, that is or holds a masked alias.
    private static func firstKeyHoldingAlias(in node: Node, marker: Unicode.Scalar) -> Node? {
        switch node {
        case .scalar, .alias:
            return nil
        case .sequence(let items):
            return items.lazy.compactMap { firstKeyHoldingAlias(in: $0, marker: marker) }.first
        case .mapping(let mapping):
            for (key, value) in mapping {
                if holdsAlias(key, marker: marker) { return key }
                if let found = firstKeyHoldingAlias(in: value, marker: marker) { return found }
            }
            return nil
        }
    }

    /// Whether `node` is, or holds anywhere inside it, a masked alias.
    private static func holdsAlias(_ node: Node, marker: Unicode.Scalar) -> Bool {
        switch node {
        case .scalar(let scalar): return scalar.style == .plain && scalar.string.unicodeScalars.first == marker
        case .alias: return true
        case .sequence(let items): return items.contains { holdsAlias($0, marker: marker) }
        case .mapping(let mapping): return mapping.contains { holdsAlias($0.key, marker: marker) || holdsAlias($0.value, marker: marker) }
        }
    }

    /// Counts one value read from `node` (and its text, for a scalar).
    private func count(_ node: Node) throws(RulebenchError) {
        let text = if case .scalar(let scalar) = node { scalar.string.utf8.count } else { 0 }
        try charge(values: 1, textBytes: text, at: node)
    }

    /// Adds to the tally, unless the value being read was measured whole
    /// beforehand, and refuses to read on past the bounds.
    private func charge(values: Int, textBytes: Int, at node: Node) throws(RulebenchError) {
        guard !tally.prepaid else { return }
        tally.values += values
        tally.textBytes += textBytes
        guard tally.values > YAMLReader.maximumValues || tally.textBytes > YAMLReader.maximumTextBytes else { return }
        tally.exceeded = true
        throw fail(node, tallyMessage(reading: nil))
    }

    /// Charges the tally for all of `node`, aliases expanded, without building
    /// anything: a walk over nodes is several times cheaper than reading
    /// them, so an expansion past the bounds is refused sooner, and before
    /// any of it is built.
    private func measure(_ node: Node) throws(RulebenchError) {
        try count(node)
        switch node {
        case .scalar, .alias:
            break
        case .sequence(let items):
            for item in items { try measure(item) }
        case .mapping(let mapping):
            for (key, value) in mapping {
                try measure(key)
                try measure(value)
            }
        }
    }

    /// Why reading stopped; `what` names the value being read when known.
    private func tallyMessage(reading what: String?) -> String {
        let amount = tally.values > YAMLReader.maximumValues
            ? "more than \(YAMLReader.grouped(YAMLReader.maximumValues)) values"
            : "more than \(YAMLReader.maximumTextBytes >> 20) MiB of text"
        let place = what.map { " (the limit was passed in \($0))" } ?? ""
        guard tally.mayHoldAliases else {
            return "this file holds \(amount)\(place): a scenario file may hold at most that; split it into several scenarios"
        }
        return "aliases expand this file to \(amount)\(place): write the values out or use fewer aliases"
    }

    /// `1000000` as `1,000,000`.
    private static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        return String(digits.enumerated().flatMap { index, digit in
            index > 0 && (digits.count - index) % 3 == 0 ? [",", digit] : [digit]
        })
    }

    /// Runs `read` on `node`, naming `node` and `what` when the tally stops it
    /// (instead of the anchor deep inside where the count happened to pass).
    private func reporting<Value>(_ node: Node, _ what: String, _ read: () throws(RulebenchError) -> Value) throws(RulebenchError) -> Value {
        do {
            return try read()
        } catch {
            guard tally.exceeded else { throw error }
            throw fail(node, tallyMessage(reading: what))
        }
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
        try count(node)
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
        let text = tally.byteOrderMarks.text(of: scalar, at: node.mark)
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
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        default: break
        }
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

    /// The bytes a core-schema number can start with (digits, a sign, or the point of `.5` and `.inf`).
    private static let numberStarts = Set("0123456789+-.".utf8)

    /// A core-schema number, or nil when the text is not one.
    private static func number(_ text: String, node: Node, reader: YAMLReader) throws(RulebenchError) -> YAMLValue? {
        // Most scalars are words: settle them before any work (aliases can make a file read millions).
        guard let first = text.utf8.first, YAMLReader.numberStarts.contains(first) else { return nil }
        let bytes = Array(text.utf8)
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
            // Only ASCII digits of the radix: `Int64(_:radix:)` alone would also take a sign (0x-5).
            let digitText = text.dropFirst(2)
            guard digitText.utf8.allSatisfy({ Int(String(UnicodeScalar($0)), radix: radix) != nil }) else { return nil }
            guard let value = Int64(digitText, radix: radix) else {
                throw reader.fail(node, "integer \(text) is out of range (Lua integers are 64-bit)")
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
            try charge(values: 0, textBytes: scalar.string.utf8.count, at: keyNode)
            pairs.append((tally.byteOrderMarks.text(of: scalar, at: keyNode.mark), keyNode, valueNode))
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
    /// No value holds NaN or an infinity: `inState`, the value is (or is
    /// expected to be) in the game state, which refuses them; else it is an
    /// option or a param, which a saved history writes as JSON text, which
    /// cannot carry them (and `emit` refuses them for the same reason).
    func stateValue(_ node: Node, _ what: String, inState: Bool = false) throws(RulebenchError) -> StateValue? {
        try reporting(node, what) { () throws(RulebenchError) in
            try measure(node)
            tally.prepaid = true
            defer { tally.prepaid = false }
            return try readState(node, what, inState: inState)
        }
    }

    private func readState(_ node: Node, _ what: String, inState: Bool) throws(RulebenchError) -> StateValue? {
        switch try value(node) {
        case .null: return nil
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d):
            // The state refuses them (state.lua), so an expectation of one could never pass;
            // a history could not save an option or param holding one.
            guard d.isFinite else {
                let why = inState ? "a rule cannot store one in the state" : "a saved history, JSON text, cannot carry one"
                throw fail(node, "\(what) cannot hold \(d.isNaN ? "NaN" : "an infinite number") (\(why)); write a finite number, or a string")
            }
            return .double(d)
        case .string(let s): return .string(s)
        case .sequence(let items):
            var list: [StateValue] = []
            for item in items {
                guard let value = try readState(item, what, inState: inState) else {
                    throw fail(item, "a list in \(what) cannot hold null (Lua sequences have no holes)")
                }
                list.append(value)
            }
            return .list(list)
        case .mapping:
            var table: [StateKey: StateValue] = [:]
            var written: [StateKey: String] = [:]
            for pair in try mapping(node, what) {
                let key = StateReader.key(pair.key)
                // "1" and "01" are both the integer key 1: one would silently replace the other.
                if let first = written[key] {
                    throw fail(pair.keyNode, "keys '\(first)' and '\(pair.key)' in \(what) are the same key \(key) of the state; keep one")
                }
                written[key] = pair.key
                table[key] = try readState(pair.value, what, inState: inState)
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

/// The counts behind `YAMLReader`'s bounds: a class, so that every copy of a
/// reader adds to the same counts.
private final class Tally {
    /// Values read so far (an alias counts again each time it is read).
    var values = 0
    /// Bytes of scalar text read so far, keys included.
    var textBytes = 0
    /// Whether a bound was passed (the error is then reworded where the read began).
    var exceeded = false
    /// Whether the value being read was already counted whole (`measure`).
    var prepaid = false
    /// Whether the text has a `*` at all: without one, no alias repeats anything.
    var mayHoldAliases = true
    /// The quoted scalars of the text that start with U+FEFF, which Yams drops.
    var byteOrderMarks = LeadingByteOrderMarks(in: "")
}

/// Keys of tables written in YAML.
enum StateReader {
    /// A mapping key: digits make an integer key, as in state paths.
    static func key(_ text: String) -> StateKey {
        if let integer = Int64(text), text.allSatisfy({ $0.isNumber || $0 == "-" }) { return .int(integer) }
        return .string(text)
    }
}
