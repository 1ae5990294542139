import XCTest
@testable import Rulebench

/// The kernel's Lua files are modules with visible dependencies: each file's
/// first line receives exactly what `KernelSource.modules` passes it, no
/// file reads a name it neither declares nor receives (no shared table, no
/// kernel global), the load order has no cycle, and docs/architecture.md's
/// table of the kernel's modules is the loader's.
final class KernelModulesTests: XCTestCase {
    static let folder = TestPaths.repository("Sources/Rulebench/Kernel")

    static func source(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name + ".lua"), encoding: .utf8)
    }

    func testEveryKernelFileIsAModuleOfTheLoader() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
            .filter { $0.hasSuffix(".lua") }.map { String($0.dropLast(4)) }.sorted()
        XCTAssertEqual(files, KernelSource.modules.map(\.name).sorted())
        let package = try String(contentsOf: TestPaths.repository("Package.swift"), encoding: .utf8)
        let list = try XCTUnwrap(package.range(of: #"let kernelLua = \[[^\]]*\]"#, options: .regularExpression))
        let listed = LuaFreeNames.strings(in: String(package[list]))
        XCTAssertEqual(listed.sorted(), files, "Package.swift's kernelLua embeds every kernel file")
    }

    func testEachFileReceivesWhatTheLoaderPassesIt() throws {
        for module in KernelSource.modules {
            let head = LuaFreeNames.head(of: try Self.source(module.name))
            XCTAssertEqual(head, module.receives, "\(module.name).lua's first line against KernelSource.modules")
            let used = LuaFreeNames.scan(try Self.source(module.name)).used
            XCTAssertEqual(head.filter { !used.contains($0) }, [], "\(module.name).lua receives modules it never uses")
        }
    }

    func testNoKernelFileReadsANameItDidNotReceive() throws {
        for module in KernelSource.modules {
            let allowed = module.name == "core" ? LuaFreeNames.standard : LuaFreeNames.standardAfterCore
            let free = LuaFreeNames.free(in: try Self.source(module.name)).subtracting(allowed)
            XCTAssertEqual(free, [], "\(module.name).lua reads names it neither declares nor receives")
        }
    }

    /// The scan itself finds what it must: the old shared table, a part
    /// read without receiving it, a global written; and skips fields, keys,
    /// strings and comments.
    func testTheScanFindsAnUnreceivedName() {
        let source = """
        local core, state = ...
        -- K.history in a comment, and "engine.ops" in a string
        local t = { history = 1, [[K]] }
        local function f(a, ...) return a.engine, core.show(state.game()), K.encode(a) end
        for i, v in ipairs(t) do history.step(i, v) end
        leaked = 1
        """
        XCTAssertEqual(LuaFreeNames.head(of: source), ["core", "state"])
        XCTAssertEqual(LuaFreeNames.free(in: source).subtracting(LuaFreeNames.standardAfterCore), ["K", "history", "leaked"])
    }

    func testTheLoadOrderHasNoCycle() {
        XCTAssertEqual(KernelSource.misordered(KernelSource.modules), [])
        // A module that receives one loaded after it (engine <-> history) is refused.
        var swapped = KernelSource.modules
        let engine = swapped.firstIndex { $0.name == "engine" }!, history = swapped.firstIndex { $0.name == "history" }!
        swapped.swapAt(engine, history)
        XCTAssertEqual(KernelSource.misordered(swapped), ["history receives engine"])
    }

    /// docs/architecture.md's table ("The kernel's modules") lists each
    /// module and what it receives, in load order, as the loader does.
    func testTheArchitectureDocumentDescribesTheLoader() throws {
        let doc = try String(contentsOf: TestPaths.repository("docs/architecture.md"), encoding: .utf8)
        let after = try XCTUnwrap(doc.components(separatedBy: "### The kernel's modules").dropFirst().first)
        let section = after.components(separatedBy: "\n#").first ?? ""
        var rows: [(String, [String])] = []
        for line in section.components(separatedBy: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let name = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let receives = cells[2].contains("every module above")
                ? rows.map(\.0)
                : cells[2].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "` ")) }.filter { !$0.isEmpty }
            rows.append((name, receives))
        }
        XCTAssertEqual(rows.map(\.0), KernelSource.modules.map(\.name), "the doc's modules in load order")
        for (row, module) in zip(rows, KernelSource.modules) {
            XCTAssertEqual(row.1, module.receives, "docs/architecture.md: what \(module.name) receives")
        }
    }
}

/// A scope-blind scan of a Lua file's names: the names it uses that it never
/// declares (as a local, a parameter or a loop variable) anywhere. Comments,
/// strings, fields (`a.b`, `a:b()`), table keys (`{ b = 1 }`) and labels are
/// not names. Blind to scope, it can miss a name declared in one function and
/// read in another; it never reports a declared name.
enum LuaFreeNames {
    static let keywords: Set<String> = ["and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto",
                                        "if", "in", "local", "nil", "not", "or", "repeat", "return", "then", "true",
                                        "until", "while"]
    /// What core.lua may read: Lua's standard globals, as the kernel's state opens them.
    static let standard: Set<String> = ["_G", "_ENV", "_VERSION", "assert", "collectgarbage", "debug", "dofile", "error",
                                        "getmetatable", "ipairs", "load", "loadfile", "next", "os", "pairs", "pcall",
                                        "print", "rawequal", "rawget", "rawlen", "rawset", "require", "select",
                                        "setmetatable", "string", "table", "math", "utf8", "coroutine", "tonumber",
                                        "tostring", "type", "xpcall", "warn"]
    /// What every later file may read: core.lua removes these from the globals.
    static let standardAfterCore = standard.subtracting(["debug", "os", "dofile", "loadfile", "require", "collectgarbage"])

    enum Token: Equatable {
        case name(String), string(String), symbol(String)
    }

    /// The tokens of `source`, without comments, numbers and whitespace.
    static func tokens(_ source: String) -> [Token] {
        let s = Array(source.utf8)
        var out: [Token] = []
        var i = 0
        func isName(_ c: UInt8) -> Bool { c == 95 || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) }
        // The level of a long bracket opening at `at` (`[[`, `[=[`), or nil.
        func longOpen(_ at: Int) -> Int? {
            guard at < s.count, s[at] == 91 else { return nil }
            var j = at + 1, level = 0
            while j < s.count, s[j] == 61 { level += 1; j += 1 }
            return j < s.count && s[j] == 91 ? level : nil
        }
        func skipLong(_ at: Int, _ level: Int) -> (Int, String) {
            let close = [93] + Array(repeating: UInt8(61), count: level) + [93]
            var j = at + level + 2
            let start = j
            while j < s.count, !(s[j] == 93 && Array(s[j..<min(s.count, j + close.count)]) == close) { j += 1 }
            return (min(s.count, j + close.count), String(decoding: s[start..<min(j, s.count)], as: UTF8.self))
        }
        while i < s.count {
            let c = s[i]
            if c == 45, i + 1 < s.count, s[i + 1] == 45 {   // a comment
                if let level = longOpen(i + 2) { i = skipLong(i + 2, level).0 } else {
                    while i < s.count, s[i] != 10 { i += 1 }
                }
            } else if c == 34 || c == 39 {   // a quoted string
                var j = i + 1
                while j < s.count, s[j] != c { j += s[j] == 92 ? 2 : 1 }
                out.append(.string(String(decoding: s[(i + 1)..<min(j, s.count)], as: UTF8.self)))
                i = j + 1
            } else if let level = longOpen(i) {
                let (end, text) = skipLong(i, level)
                out.append(.string(text))
                i = end
            } else if c >= 48 && c <= 57 {   // a number
                while i < s.count, isName(s[i]) || s[i] == 46 { i += 1 }
            } else if isName(c) {
                var j = i
                while j < s.count, isName(s[j]) { j += 1 }
                out.append(.name(String(decoding: s[i..<j], as: UTF8.self)))
                i = j
            } else if c == 32 || c == 9 || c == 10 || c == 13 {
                i += 1
            } else {
                let three = String(decoding: s[i..<min(s.count, i + 3)], as: UTF8.self)
                let symbol = three == "..." ? three : ["==", "~=", "<=", ">=", "::", "..", "//", "<<", ">>"]
                    .first { three.hasPrefix($0) } ?? String(UnicodeScalar(c))
                out.append(.symbol(symbol))
                i += symbol.utf8.count
            }
        }
        return out
    }

    /// The names of the file's first statement when it is `local a, b = ...`
    /// (what the file receives), else [].
    static func head(of source: String) -> [String] {
        var names: [String] = []
        let t = tokens(source)
        guard t.first == .name("local") else { return [] }
        var i = 1
        while i < t.count, case .name(let n) = t[i] {
            names.append(n)
            i += 1
            if t[i] == .symbol(",") { i += 1 } else { break }
        }
        guard i + 1 < t.count, t[i] == .symbol("="), t[i + 1] == .symbol("...") else { return [] }
        return names
    }

    /// The quoted strings of `source`.
    static func strings(in source: String) -> [String] {
        tokens(source).compactMap { if case .string(let s) = $0 { return s } else { return nil } }
    }

    /// The names `source` reads or writes without declaring them anywhere.
    static func free(in source: String) -> Set<String> {
        let names = scan(source)
        return names.used.subtracting(names.declared)
    }

    /// The names `source` uses (reads, writes, calls) and those it declares.
    static func scan(_ source: String) -> (used: Set<String>, declared: Set<String>) {
        let t = tokens(source)
        var declared: Set<String> = [], used: Set<String> = []
        var braces: [String] = []
        func name(_ i: Int) -> String? { if i >= 0, i < t.count, case .name(let n) = t[i], !keywords.contains(n) { return n }; return nil }
        var i = 0
        while i < t.count {
            switch t[i] {
            case .symbol(let s) where s == "{" || s == "(" || s == "[": braces.append(s)
            case .symbol(let s) where s == "}" || s == ")" || s == "]": _ = braces.popLast()
            case .name("local"), .name("for"):
                // local a <const>, b = ... / local function f / for k, v in / for i =
                var j = i + 1
                if t.count > j, t[j] == .name("function") {   // its parameters: the function case below
                    if let n = name(j + 1) { declared.insert(n) }
                    i = j
                    continue
                }
                while let n = name(j) {
                    declared.insert(n)
                    j += 1
                    if j + 2 < t.count, t[j] == .symbol("<"), t[j + 2] == .symbol(">") { j += 3 }
                    if j < t.count, t[j] == .symbol(",") { j += 1 } else { break }
                }
                i = j
                continue
            case .name("function"):
                // function a.b:c(x, y, ...): the first name is used, the parameters declared
                var j = i + 1
                if let n = name(j) { used.insert(n); j += 1 }
                while j + 1 < t.count, t[j] == .symbol(".") || t[j] == .symbol(":") {
                    if t[j] == .symbol(":") { declared.insert("self") }   // a method's implicit parameter
                    j += 2
                }
                if j < t.count, t[j] == .symbol("(") {
                    j += 1
                    while j < t.count, t[j] != .symbol(")") { if let n = name(j) { declared.insert(n) }; j += 1 }
                    j += 1
                }
                i = j
                continue
            case .name(let n) where !keywords.contains(n):
                let previous = i > 0 ? t[i - 1] : .symbol(";")
                let field = previous == .symbol(".") || previous == .symbol(":")
                let label = previous == .name("goto") || previous == .symbol("::")
                let key = braces.last == "{" && i + 1 < t.count && t[i + 1] == .symbol("=")
                    && (previous == .symbol("{") || previous == .symbol(",") || previous == .symbol(";"))
                if !field && !label && !key { used.insert(n) }
            default: break
            }
            i += 1
        }
        return (used, declared)
    }
}
