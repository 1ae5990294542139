import Foundation
/// A value of the game state, as Swift sees it.
///
/// The state is a tree of tables whose keys are strings or integers and whose
/// leaves are booleans, integers, floats or strings. An absent key is `nil`
/// (a Swift optional), which is different from `.bool(false)`. Integers and
/// floats are different values, as they are in Lua 5.4.
public enum StateValue: Hashable, Sendable {
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case table([StateKey: StateValue])

    /// An empty table.
    public static let emptyTable = StateValue.table([:])

    /// A table from a list: keys 1...n, as Lua stores sequences.
    public static func list(_ items: [StateValue]) -> StateValue {
        var table: [StateKey: StateValue] = [:]
        for (index, item) in items.enumerated() { table[.int(Int64(index + 1))] = item }
        return .table(table)
    }

    /// The value at `key` when this is a table.
    public subscript(key: StateKey) -> StateValue? {
        if case .table(let table) = self { return table[key] }
        return nil
    }

    /// The value at a string key when this is a table.
    public subscript(key: String) -> StateValue? { self[.string(key)] }

    /// The value at `path` below this value.
    public func value(at path: StatePath) -> StateValue? {
        var current: StateValue? = self
        for key in path.keys { current = current?[key] }
        return current
    }

    /// Whether NaN or an infinity is in it (the state refuses them; JSON cannot write them).
    public var holdsNonFiniteNumber: Bool {
        switch self {
        case .double(let d): return !d.isFinite
        case .table(let table): return table.values.contains(where: \.holdsNonFiniteNumber)
        default: return false
        }
    }

    /// The items 1...n when this table is a sequence, else nil.
    public var listItems: [StateValue]? {
        guard case .table(let table) = self else { return nil }
        var items: [StateValue] = []
        while let next = table[.int(Int64(items.count + 1))] { items.append(next) }
        return items.count == table.count ? items : nil
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The integer, when this is one.
    public var intValue: Int64? {
        if case .int(let i) = self { return i }
        return nil
    }

    /// The number as a Double, for integers and floats.
    public var numberValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// The boolean, when this is one.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The table's entries in the canonical order (integers, then strings).
    public var sortedEntries: [(key: StateKey, value: StateValue)] {
        guard case .table(let table) = self else { return [] }
        return table.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
    }
}

/// A key of a state table: a string or an integer.
public enum StateKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    case int(Int64)
    case string(String)

    /// Integers sort before strings; strings sort by their UTF-8 bytes, as Lua compares them.
    public static func < (lhs: StateKey, rhs: StateKey) -> Bool {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)): return a < b
        case (.int, .string): return true
        case (.string, .int): return false
        case (.string(let a), .string(let b)): return Array(a.utf8).lexicographicallyPrecedes(b.utf8)
        }
    }

    public var description: String {
        switch self {
        case .int(let i): return String(i)
        case .string(let s): return s
        }
    }
}

extension StateValue: CustomStringConvertible {
    /// A compact Lua-like rendering: strings quoted, floats always with a point.
    public var description: String {
        switch self {
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return StateValue.render(d)
        case .string(let s): return "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n") + "\""
        case .table:
            if let items = listItems { return "{" + items.map(\.description).joined(separator: ", ") + "}" }
            return "{" + sortedEntries.map { entry in
                let key: String
                switch entry.key {
                case .int(let i): key = "[\(i)]"
                case .string(let s): key = s.isLuaIdentifier ? s : "[\"\(s)\"]"
                }
                return "\(key) = \(entry.value)"
            }.joined(separator: ", ") + "}"
        }
    }

    /// A float printed so that it reads back exactly and is never mistaken for an integer.
    static func render(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d > 0 ? "inf" : "-inf" }
        var text = "\(d)"
        if !text.contains(".") && !text.contains("e") { text += ".0" }
        return text
    }
}

extension String {
    /// Whether this could be written as a bare Lua name.
    var isLuaIdentifier: Bool {
        guard let first = unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
        return unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }
}

extension StateValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(arrayLiteral elements: StateValue...) { self = .list(elements) }
    public init(dictionaryLiteral elements: (String, StateValue)...) {
        var table: [StateKey: StateValue] = [:]
        for (key, value) in elements { table[.string(key)] = value }
        self = .table(table)
    }
}

extension StateValue {
    /// A value typed on a command line: `3` is an integer, `2.5` a float,
    /// `true`/`false` booleans, `[a, b]` a list, anything else a string
    /// (quotes, single or double, force a string). Lists nest (`[1,[2,3]]`
    /// is a list whose second item is a list) up to `maximumArgumentDepth`
    /// levels; an item that begins with a quote runs to the same quote, so
    /// `["a,b",c]` has two items. Brackets nested deeper stay text.
    public init(argument text: String) {
        self.init(argument: text, depth: 1)
    }

    /// How deeply lists typed as arguments nest (`[[1]]` is 2): deeper
    /// brackets are read as text, and `TypedCall` refuses them.
    public static let maximumArgumentDepth = 32

    private init(argument text: String, depth: Int) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.count >= 2, let first = trimmed.first, first == trimmed.last, first == "\"" || first == "'" {
            self = .string(String(trimmed.dropFirst().dropLast()))
        } else if let integer = Int64(trimmed) {
            self = .int(integer)
        } else if trimmed.contains(where: { $0 == "." || $0 == "e" }), let double = Double(trimmed), double.isFinite,
                  trimmed.first?.isNumber == true || trimmed.first == "-" {
            self = .double(double)
        } else if trimmed == "true" || trimmed == "false" {
            self = .bool(trimmed == "true")
        } else if trimmed.hasPrefix("[") && trimmed.hasSuffix("]") && depth <= StateValue.maximumArgumentDepth {
            let inner = trimmed.dropFirst().dropLast()
            self = .list(inner.isEmpty ? [] : StateValue.listItems(inner).map { StateValue(argument: String($0), depth: depth + 1) })
        } else {
            self = .string(trimmed)
        }
    }

    /// The items of a typed list's inside: split at the commas that are
    /// neither inside a nested `[...]` nor inside an item's opening quote.
    private static func listItems(_ inner: Substring) -> [Substring] {
        var items: [Substring] = []
        var start = inner.startIndex, index = inner.startIndex
        var depth = 0
        var quote: Character?
        while index < inner.endIndex {
            let char = inner[index]
            if let open = quote {
                if char == open { quote = nil }
            } else if (char == "\"" || char == "'") && inner[start..<index].allSatisfy({ $0 == " " || $0 == "\t" }) {
                quote = char
            } else if char == "[" {
                depth += 1
            } else if char == "]" {
                depth = max(0, depth - 1)
            } else if char == ",", depth == 0 {
                items.append(inner[start..<index])
                start = inner.index(after: index)
            }
            index = inner.index(after: index)
        }
        items.append(inner[start...])
        return items
    }

    /// How deeply `text`'s brackets nest outside quotes (`[1,[2]]` is 2): what
    /// `init(argument:)` reads as lists when it is at most `maximumArgumentDepth`.
    public static func argumentDepth(_ text: String) -> Int {
        var depth = 0, deepest = 0
        var quote: Character?
        for char in text {
            if let open = quote {
                if char == open { quote = nil }
            } else if char == "\"" || char == "'" {
                quote = char
            } else if char == "[" {
                depth += 1
                deepest = max(deepest, depth)
            } else if char == "]" {
                depth = max(0, depth - 1)
            }
        }
        return deepest
    }
}

extension StateValue {
    /// Whether the value is of a declared option type (`string`, `integer`,
    /// `number`, `boolean`, `table`, `any`): setup options are checked here,
    /// before a game is set up, by the rule params use in the kernel
    /// (`checkparams` in `Kernel/engine.lua`, which alone judges params).
    public func fits(declaredType type: String) -> Bool {
        switch (type, self) {
        case ("any", _), ("string", .string), ("integer", .int), ("number", .int), ("number", .double),
             ("boolean", .bool), ("table", .table): return true
        default: return false
        }
    }

    /// What Lua would call the value's type, with an article: "an integer", "a float", ...
    public var luaTypeName: String {
        switch self {
        case .bool: return "a boolean"
        case .int: return "an integer"
        case .double: return "a float"
        case .string: return "a string"
        case .table: return "a table"
        }
    }
}
