import Foundation

/// What an action file's source says about its params: which it declares,
/// which its functions read from the action object, which they record on it.
///
/// The action object is the second argument of `check`, `apply`, `undo` and a
/// `sound` function and the third of `animate` (usually `a`); uses are
/// `a.name` anywhere in the file outside comments and strings.
struct ActionSourceLint {
    /// The action's name (its file name).
    let name: String
    /// The file, as messages show it.
    let file: String
    let scan: LuaSourceScan

    init(name: String, file: String, source: String) {
        self.name = name
        self.file = file
        scan = LuaSourceScan(source)
    }

    /// The names the action object goes by in this file (always including `a`).
    var actionObjectNames: Set<String> {
        var names: Set<String> = ["a"]
        let identifier = "[A-Za-z_][A-Za-z0-9_]*"
        let second = "\\(\\s*\(identifier)\\s*,\\s*(\(identifier))"
        for pattern in ["\\b(?:check|apply|undo|sound)\\s*=\\s*function\\s*\(second)",
                        "\\bfunction\\s+(?:check|apply|undo|sound)\\s*\(second)",
                        "\\banimate\\s*=\\s*function\\s*\\(\\s*\(identifier)\\s*,\\s*\(identifier)\\s*,\\s*(\(identifier))",
                        "\\bfunction\\s+animate\\s*\\(\\s*\(identifier)\\s*,\\s*\(identifier)\\s*,\\s*(\(identifier))"] {
            for match in scan.matches(pattern) where !match.groups[0].isEmpty { names.insert(match.groups[0]) }
        }
        return names
    }

    /// Param names declared in the `params = { ... }` table, with their lines; nil when there is no such table.
    var declaredParams: [(name: String, line: Int)]? {
        guard let (table, offset) = scan.tableLiteral(of: "params") else { return nil }
        // Keys at the table's own level: `name =` not inside a nested table.
        var result: [(String, Int)] = []
        var depth = 0
        let bytes = Array(table.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "{") { depth += 1 }
            if byte == UInt8(ascii: "}") { depth -= 1 }
            let startsName = (byte == UInt8(ascii: "_") || (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"))
                && (index == 0 || !ActionSourceLint.isNameByte(bytes[index - 1]))
            if depth == 0 && startsName {
                var end = index
                while end < bytes.count, ActionSourceLint.isNameByte(bytes[end]) { end += 1 }
                var after = end
                while after < bytes.count, bytes[after] == UInt8(ascii: " ") || bytes[after] == UInt8(ascii: "\t") || bytes[after] == UInt8(ascii: "\n") { after += 1 }
                if after < bytes.count, bytes[after] == UInt8(ascii: "="), after + 1 >= bytes.count || bytes[after + 1] != UInt8(ascii: "=") {
                    result.append((String(decoding: bytes[index..<end], as: UTF8.self), scan.line(at: offset + index)))
                }
                index = end
                continue
            }
            index += 1
        }
        return result
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"))
    }

    /// Every `a.name` in the file: the field, its line, and whether it is assigned there (`a.name = ...`).
    var fieldUses: [(field: String, line: Int, assigned: Bool)] {
        // The targets of multiple assignments (`a.tile, a.before = id, sand`) are assignments too.
        let target = "[A-Za-z_][A-Za-z0-9_.]*(?:\\[[^\\]\\n]*\\])?"
        let lists = scan.matches("(?m)^[ \\t]*((?:\(target)\\s*,\\s*)+\(target))\\s*=(?!=)").map { match -> Range<Int> in
            let start = match.offset + (scan.code.utf8.dropFirst(match.offset).prefix { $0 == 32 || $0 == 9 }.count)
            return start..<start + match.groups[0].utf8.count
        }
        var uses: [(String, Int, Bool)] = []
        for object in actionObjectNames.sorted() {
            for match in scan.matches("(?<![\\w:])(?<![^.]\\.)\(object)\\s*\\.\\s*([A-Za-z_][A-Za-z0-9_]*)(\\s*=(?!=))?") {
                let assigned = !match.groups[1].isEmpty || lists.contains { $0.contains(match.offset) }
                uses.append((match.groups[0], scan.line(at: match.offset), assigned))
            }
        }
        return uses.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
    }

    /// Warnings about params: declared but never read, read but neither declared nor recorded by the action.
    ///
    /// - Parameter declared: the declared param names as the engine loaded them (nil: read them from the source).
    func paramProblems(declared loaded: Set<String>?) -> [PackProblem] {
        let source = declaredParams
        guard let declaredNames = loaded ?? source.map({ Set($0.map(\.name)) }) else { return [] }
        let uses = fieldUses
        let recorded = Set(uses.filter(\.assigned).map(\.field))
        let read = Set(uses.filter { !$0.assigned }.map(\.field))
        var problems: [PackProblem] = []
        for param in declaredNames.sorted() where !read.contains(param) && !recorded.contains(param) {
            let line = source?.first { $0.name == param }?.line ?? scan.definitionLine(of: "params")
            problems.append(PackProblem(.warning, file: file, line: line,
                "param '\(param)' of '\(name)' is declared but never used (no a.\(param) in the file): remove it from params, or use it"))
        }
        var reported: Set<String> = []
        for use in uses where !use.assigned && !declaredNames.contains(use.field) && !recorded.contains(use.field) {
            guard reported.insert(use.field).inserted else { continue }
            problems.append(PackProblem(.warning, file: file, line: use.line,
                "a.\(use.field) is used but '\(use.field)' is not a declared param of '\(name)' (nor recorded on a by apply): "
                    + "add \(use.field) = \"string\" (or its type) to params, or fix the name"
                    + suggestion(use.field, among: declaredNames)))
        }
        return problems
    }

    private func suggestion(_ word: String, among names: Set<String>) -> String {
        Suggestion.closest(to: word, in: names.sorted()).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// A warning when `animate` builds tweens but never reads its fourth
    /// argument, `direction`: it then returns the do motion on undo as well,
    /// which plays forwards again instead of backwards; nil otherwise.
    var directionProblem: PackProblem? {
        let list = "\\(([^)]*)\\)"
        guard let definition = scan.matches("\\banimate\\s*=\\s*function\\s*" + list).first
                ?? scan.matches("\\bfunction\\s+animate\\s*" + list).first,
              !scan.matches("\\.\\s*tween\\s*[{(]").isEmpty else { return nil }
        let params = definition.groups[0].split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        if params.contains("...") { return nil }
        if params.count >= 4 {
            let name = NSRegularExpression.escapedPattern(for: params[3])
            // The definition names it once; any other use reads it.
            if scan.matches("(?<![\\w.])\(name)(?!\\w)").count > 1 { return nil }
        }
        return PackProblem(.warning, file: file, line: scan.line(at: definition.offset),
            "animate of '\(name)' builds tweens but ignores direction, so its undo plays the do motion forwards again: "
                + "take direction as the fourth argument and start with `if direction == \"undo\" then return nil end` "
                + "(undo then plays the do plan backwards, mirrored in time), or build the undo motion yourself")
    }

    /// Names of the subactions this file queues with `act:sub("name", ...)` (literal names only).
    var queuedSubactions: Set<String> {
        Set(subactionCalls.map(\.name))
    }

    /// Every `act:sub("name", ...)` with a literal name, with its line, in file order.
    var subactionCalls: [(name: String, line: Int)] {
        LuaSourceScan.matches(":\\s*sub\\s*\\(\\s*[\"']([A-Za-z_][A-Za-z0-9_]*)[\"']", in: scan.source)
            .map { ($0.groups[0], scan.line(at: $0.offset)) }
    }
}
