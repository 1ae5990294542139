import Foundation
import XCTest
@testable import Rulebench

/// The hostile corpus (Fixtures/hostile): every case ends in a clear error of
/// the expected kind, with the state hash, the state and the history
/// unchanged, and the game (and the process) still able to play.
///
/// Where a case is expected to fail is marked in its Lua file: a line ending
/// in `--!` (action files, one case each) or containing `--! <case>` (files
/// that hold several cases, like hooks/pack.lua).
final class HostileScriptTests: XCTestCase {
    static let corpus = EngineFixtures.repository.appendingPathComponent("Tests/RulebenchTests/Fixtures/hostile")

    /// The kind of error a case must end in.
    enum Kind: String {
        case script, budget, memory, load, invariant
    }

    /// What the test does to provoke the case.
    enum Operation {
        /// `perform(name)`.
        case perform
        /// `perform(name)` succeeds, then `undo()` fails.
        case undo
        /// `perform(name)` succeeds, then the same again fails.
        case performTwice
        /// `perform("arm", mode: name)` fails (invariant modes).
        case arm
        /// `perform("arm", mode: name)` succeeds, then `legalActions()` fails.
        case legal
        /// `perform("arm", mode: name)` succeeds, then `render()` fails.
        case render
        /// Loading the pack folder `name` fails.
        case load
    }

    /// Where the error must point.
    enum Place {
        /// The marked line of this file (a path under the corpus folder).
        case marked(String)
        /// Somewhere in this file (a budget can run out on any line of a loop).
        case inFile(String)
        /// Nowhere: the error has no position (memory errors, engine limits).
        case unplaced
    }

    struct Case {
        let pack: String
        let name: String
        let operation: Operation
        let kind: Kind
        let message: String
        let place: Place
        var memory = 256 << 20
        var params: [String: StateValue] = [:]
    }

    // MARK: The table of cases

    static let runaway: [Case] = {
        func loop(_ name: String) -> Case {
            Case(pack: "runaway", name: name, operation: .perform, kind: .budget,
                 message: "instruction budget exceeded", place: .inFile("runaway/actions/\(name).lua"))
        }
        func memory(_ name: String, cap: Int = 256 << 20) -> Case {
            Case(pack: "runaway", name: name, operation: .perform, kind: .memory,
                 message: "memory cap exceeded", place: .unplaced, memory: cap)
        }
        func script(_ name: String, _ message: String) -> Case {
            Case(pack: "runaway", name: name, operation: .perform, kind: .script,
                 message: message, place: .marked("runaway/actions/\(name).lua"))
        }
        /// A C call the count hook cannot see into, charged before it runs.
        func prepaid(_ name: String) -> Case {
            Case(pack: "runaway", name: name, operation: .perform, kind: .budget,
                 message: "instruction budget exceeded", place: .marked("runaway/actions/\(name).lua"))
        }
        return [
            loop("loop_plain"), loop("loop_xpcall"), loop("loop_coroutine_yield"), loop("loop_coroutine_resume"),
            loop("loop_index"), loop("loop_sort"), loop("loop_lt"), loop("loop_tostring"),
            loop("loop_gsub_callback"), loop("loop_close"), loop("recursion_tail"),
            loop("pattern_loop"), loop("plain_find_loop"), loop("rep_loop"), loop("concat_loop"),
            prepaid("c_table_move"), prepaid("c_rep_empty"), prepaid("c_collect_loop"), prepaid("c_sort_loop"),
            script("c_pattern_long", "is too costly on a subject of 200000 characters"),
            script("gc_late", "the finalizer never ran"),
            script("gc_stop", "collectgarbage('stop') is not available to rules"),
            script("pattern_find", "is too costly on a subject of 1000000 characters"),
            script("pattern_method", "is too costly on a subject of 20000 characters"),
            script("pattern_gsub", "is too costly on a subject of 5000 characters"),
            script("pattern_gmatch", "is too costly on a subject of 100000 characters"),
            Case(pack: "runaway", name: "pattern_tail", operation: .perform, kind: .script,
                 message: "is too costly on a subject of 50000 characters", place: .unplaced),
            script("recursion_plain", "stack overflow"),
            script("recursion_metamethod", "stack overflow"),
            script("recursion_coroutines", "stack overflow"),
            memory("memory_concat"), memory("memory_table", cap: 32 << 20), memory("memory_rep_many"),
            memory("memory_rep_huge"), memory("memory_coroutines", cap: 32 << 20), memory("memory_in_state"),
            Case(pack: "runaway", name: "memory_rescued", operation: .perform, kind: .script,
                 message: "an ordinary error after 12000000 bytes", place: .marked("runaway/actions/memory_rescued.lua"),
                 memory: 32 << 20),
        ]
    }()

    static let escape: [Case] = {
        func script(_ name: String, _ message: String, file: String? = nil) -> Case {
            Case(pack: "escape", name: name, operation: .perform, kind: .script, message: message,
                 place: .marked(file ?? "escape/actions/\(name).lua"))
        }
        return [
            script("os_exit", "attempt to call a nil value (field 'exit')"),
            script("os_remove", "attempt to call a nil value (field 'remove')"),
            script("os_getenv", "attempt to call a nil value (field 'getenv')"),
            script("io_lines", "attempt to index a nil value (global 'io')"),
            script("require_io", "module 'io' not found"),
            script("require_absolute", "\"/etc/passwd\" is not a module name"),
            script("require_parent", "is not a module name"),
            script("require_action", "module 'actions.inc' not found"),
            script("package_loadlib", "attempt to index a nil value (global 'package')"),
            script("debug_getregistry", "module 'debug' not found"),
            script("load_binary_reader", "attempt to load a binary chunk (mode is 't')"),
            Case(pack: "escape", name: "load_env_escape", operation: .perform, kind: .script,
                 message: "attempt to index a nil value (global 'debug')", place: .unplaced),
            Case(pack: "escape", name: "load_env_nil", operation: .perform, kind: .script,
                 message: "attempt to index a nil value (global 'io')", place: .unplaced),
            script("dump_method", "attempt to call a nil value (local 'dump')"),
            script("string_meta_rawset", "bad argument #1 to 'rawset' (table expected, got string)"),
            script("string_meta_index", "attempt to index a nil value (local 'lib')"),
            script("rawset_nested", "rawset cannot write the game state"),
            script("setmetatable_root", "cannot change the metatable of a state table"),
            script("getmetatable_state", "attempt to index a string value (local 'mt')"),
            script("rawset_globals", "rawset cannot write a global while the game runs"),
            script("setmetatable_globals", "cannot change a protected metatable"),
            script("randomseed", "the engine seeds the random generator"),
            script("action_context", "attempt to index a string value"),
            script("library_poison", "'string.rep' assigned while the game runs; the libraries are read-only"),
            script("library_poison_rawset", "'table.insert' assigned while the game runs"),
            script("require_yield", "module 'yielder' yielded while it loaded"),
            Case(pack: "escape", name: "require_spin", operation: .perform, kind: .budget,
                 message: "instruction budget exceeded", place: .inFile("escape/actions/require_spin.lua")),
            script("set_global", "global 'late_global' assigned while the game runs"),
        ]
    }()

    static let hooks: [Case] = {
        func action(_ name: String, _ operation: Operation = .perform, _ kind: Kind = .script, _ message: String) -> Case {
            Case(pack: "hooks", name: name, operation: operation, kind: kind, message: message,
                 place: kind == .budget ? .inFile("hooks/actions/\(name).lua") : .marked("hooks/actions/\(name).lua"))
        }
        func mode(_ name: String, _ operation: Operation, _ kind: Kind = .script, _ message: String) -> Case {
            let file = operation == .legal ? "hooks/actions/probe.lua" : "hooks/pack.lua"
            return Case(pack: "hooks", name: name, operation: operation, kind: kind, message: message,
                        place: kind == .budget ? .inFile(file) : .marked(file))
        }
        let yield = "attempt to yield from outside a coroutine"
        return [
            action("check_error", .perform, .script, "check broke"),
            action("check_yield", .perform, .script, yield),
            action("check_bad_reason", .perform, .script, "check must return nil or a reason string, not a table"),
            action("check_write", .perform, .script, "the game state is read-only in check of 'check_write'"),
            action("apply_yield", .perform, .script, yield),
            action("apply_error_false", .perform, .script, "error object is a boolean value"),
            action("apply_error_number", .perform, .script, "404"),
            action("apply_error_state", .perform, .script, "error object is a table value"),
            action("apply_error_tostring", .perform, .script, "error object is a table value"),
            action("apply_error_function", .perform, .script, "error object is a function value"),
            Case(pack: "hooks", name: "sub_self", operation: .perform, kind: .script,
                 message: "subactions nested more than 64 deep", place: .unplaced),
            action("sub_unknown", .perform, .script, "unknown subaction \"no_such_action\""),
            action("sub_late", .perform, .script, "act:sub can only be called while apply runs"),
            action("undo_error", .undo, .script, "undo broke"),
            action("undo_yield", .undo, .script, yield),
            action("undo_loop", .undo, .budget, "instruction budget exceeded"),
            action("animate_error", .perform, .script, "animate broke on do"),
            action("animate_yield", .perform, .script, yield),
            action("animate_write", .perform, .script, "the game state is read-only in animate"),
            action("animate_bad_plan", .perform, .script, "'seconds' must be a finite number"),
            action("animate_undo_error", .undo, .script, "no way back"),
            action("animate_bytes", .perform, .script, "anim.tween: 'target' is not UTF-8 text (byte 0xE9 at position 6)"),
            action("sound_error", .perform, .script, "sound broke"),
            action("sound_yield", .perform, .script, yield),
            action("sound_bad_return", .perform, .script, "sound must return a sound name or nil"),
            action("sound_write", .perform, .script, "the game state is read-only in sound"),
            action("sound_bytes", .perform, .script, "sound returned a name that is not UTF-8 text"),
            action("deferred_write", .performTwice, .script, "the game state is read-only in check of 'deferred_write'"),
            mode("legal_error", .legal, .script, "legal broke"),
            mode("legal_yield", .legal, .script, yield),
            mode("legal_emit_bad", .legal, .script, "emit expects a param table"),
            mode("legal_write", .legal, .script, "the game state is read-only in legal"),
            mode("legal_loop", .legal, .budget, "instruction budget exceeded"),
            mode("render_error", .render, .script, "error object is a table value"),
            mode("render_yield", .render, .script, yield),
            mode("render_write", .render, .script, "the game state is read-only in render"),
            mode("render_nonstring", .render, .script, "render must return a string"),
            mode("invariant_error", .arm, .script, "the invariant broke"),
            mode("invariant_yield", .arm, .script, yield),
            mode("invariant_error_nil", .arm, .script, "error object is a nil value"),
            mode("invariant_loop", .arm, .budget, "instruction budget exceeded"),
            mode("invariant_write", .arm, .script, "the game state is read-only in an invariant"),
            mode("invariant_bad_return", .arm, .invariant, "it returned \"yes\""),
            mode("legal_emit_cycle", .legal, .script, "nested more than 200 levels deep (or a cycle)"),
            mode("legal_emit_bytes", .legal, .script, "emit: param 'note' holds a string that is not UTF-8 text (byte 0xE9 at position 4)"),
            mode("legal_emit_byte_key", .legal, .script, "emit: param 'list' holds a string that is not UTF-8 text (byte 0xFF at position 1)"),
        ]
    }()

    static let values: [Case] = {
        func script(_ name: String, _ message: String) -> Case {
            Case(pack: "values", name: name, operation: .perform, kind: .script, message: message,
                 place: .marked("values/actions/\(name).lua"))
        }
        return [
            script("nan_nested", "NaN cannot be stored in the state"),
            script("inf_value", "an infinite number cannot be stored in the state"),
            script("neg_inf_value", "an infinite number cannot be stored in the state"),
            script("nan_key", "a state key must be a string or an integer"),
            script("float_key", "a state key must be a string or an integer, not 1.5"),
            script("boolean_key", "a state key must be a string or an integer, not a boolean"),
            script("table_key", "a state key must be a string or an integer, not a table"),
            script("thread_value", "a thread cannot be stored in the state"),
            script("metatable_value", "a table with a metatable cannot be stored in the state"),
            script("cycle_root", "a state table cannot be stored inside itself"),
            script("cycle_deep", "the same table appears twice in the value"),
            script("deep_value", "a table nested more than 100 levels cannot be stored"),
            Case(pack: "values", name: "huge_value", operation: .perform, kind: .budget,
                 message: "instruction budget exceeded", place: .marked("values/actions/huge_value.lua")),
            Case(pack: "values", name: "huge_key", operation: .perform, kind: .memory,
                 message: "memory cap exceeded", place: .unplaced),
            Case(pack: "values", name: "param_nan", operation: .perform, kind: .script,
                 message: "NaN cannot be stored in the state", place: .marked("values/actions/param_nan.lua"),
                 params: ["v": .double(.nan)]),
            script("moved_then_bad", "NaN cannot be stored in the state"),
            script("pairs_table_keys", "pairs has no stable order for a table whose keys are tables"),
            script("deep_stepwise", "a table nested more than 100 levels cannot be stored"),
            script("deep_moved", "a table nested more than 100 levels cannot be stored"),
        ]
    }()

    static let loading: [Case] = [
        Case(pack: "load_loop", name: "load_loop", operation: .load, kind: .budget,
             message: "instruction budget exceeded", place: .marked("load_loop/pack.lua")),
        Case(pack: "load_error_table", name: "load_error_table", operation: .load, kind: .load,
             message: "error object is a table value", place: .marked("load_error_table/pack.lua")),
        Case(pack: "load_yield", name: "load_yield", operation: .load, kind: .load,
             message: "attempt to yield from outside a coroutine", place: .marked("load_yield/pack.lua")),
        Case(pack: "load_memory", name: "load_memory", operation: .load, kind: .memory,
             message: "memory cap exceeded", place: .unplaced, memory: 64 << 20),
        Case(pack: "setup_error", name: "setup_error", operation: .load, kind: .script,
             message: "setup broke", place: .marked("setup_error/pack.lua")),
        Case(pack: "setup_yield", name: "setup_yield", operation: .load, kind: .script,
             message: "attempt to yield from outside a coroutine", place: .marked("setup_yield/pack.lua")),
        Case(pack: "setup_loop", name: "setup_loop", operation: .load, kind: .budget,
             message: "instruction budget exceeded", place: .marked("setup_loop/pack.lua")),
        Case(pack: "setup_nan", name: "setup_nan", operation: .load, kind: .script,
             message: "NaN cannot be stored in the state", place: .marked("setup_nan/pack.lua")),
        Case(pack: "require_cycle", name: "require_cycle", operation: .load, kind: .load,
             message: "module 'a' requires itself (a require cycle)", place: .marked("require_cycle/b.lua")),
    ]

    static var all: [Case] { runaway + escape + hooks + values + loading }

    /// A module load that never finished (it yielded, or ran out of budget)
    /// leaves nothing open: the globals are frozen again, and the next
    /// require loads the module afresh rather than calling it a cycle.
    func testABrokenModuleLoadLeavesNothingOpen() throws {
        for broken in ["require_yield", "require_spin"] {
            for budget: Int64 in [1_000_000, 10_000_000] {   // counted, and watched
                var configuration = configuration(memory: 256 << 20)
                configuration.instructionBudget = budget
                let game = try Game(pack: Self.corpus.appendingPathComponent("escape").path, seed: 3, configuration: configuration)
                XCTAssertThrowsError(try game.perform(broken), broken)
                XCTAssertThrowsError(try game.perform("set_global"), "\(broken): the globals must be frozen again") { error in
                    XCTAssertTrue("\(error)".contains("assigned while the game runs"), "\(broken): \(error)")
                }
                XCTAssertThrowsError(try game.perform(broken)) { error in
                    XCTAssertFalse("\(error)".contains("requires itself"), "\(broken): \(error)")
                }
                try game.perform("inc")
            }
        }
    }

    // MARK: Running a case

    private func configuration(memory: Int) -> Game.Configuration {
        var configuration = Game.Configuration()
        configuration.memoryCap = memory
        configuration.printHandler = { _ in }
        return configuration
    }

    private func game(_ pack: String, memory: Int = 256 << 20) throws(RulebenchError) -> Game {
        try Game(pack: Self.corpus.appendingPathComponent(pack).path, seed: 3, configuration: configuration(memory: memory))
    }

    /// The absolute path of a location's file: it must be the whole path,
    /// never one cut short with "..." (Lua's `short_src` does that).
    static func wholePath(_ location: SourceLocation) -> String {
        URL(fileURLWithPath: location.file).standardizedFileURL.path
    }

    /// The absolute path of a file of the corpus.
    static func wholePath(of file: String) -> String {
        corpus.appendingPathComponent(file).standardizedFileURL.path
    }

    /// The 1-based line marked for `name` in `file` (see the class comment).
    static func markedLine(_ file: String, case name: String) -> Int? {
        guard let text = try? String(contentsOf: corpus.appendingPathComponent(file), encoding: .utf8) else { return nil }
        let lines = text.components(separatedBy: "\n")
        if let index = lines.firstIndex(where: { $0.hasSuffix("--! \(name)") }) { return index + 1 }
        if let index = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasSuffix("--!") }) { return index + 1 }
        return nil
    }

    /// Provokes the case; returns the error it ended in, after checking that
    /// nothing changed and that the game still plays.
    private func provoke(_ c: Case) throws -> RulebenchError? {
        if c.operation == .load {
            var caught: RulebenchError?
            do {
                _ = try game(c.pack, memory: c.memory)
            } catch {
                caught = error
            }
            // The process is alive and a sound pack still loads and plays.
            let healthy = try game("hooks")
            try healthy.perform("inc")
            XCTAssertEqual(try healthy.state(at: "counter"), .int(1), c.name)
            return caught
        }
        let game = try game(c.pack, memory: c.memory)
        try game.perform("inc")
        switch c.operation {
        case .undo, .performTwice: try game.perform(c.name, c.params)
        case .legal, .render: try game.perform("arm", ["mode": .string(c.name)])
        default: break
        }
        let hash = game.stateHash
        let state = try game.state()
        let entries = game.history.entries.map(\.hash)
        let cursor = game.history.cursor
        let counter = try game.state(at: "counter")

        var caught: RulebenchError?
        do {
            switch c.operation {
            case .perform, .performTwice: try game.perform(c.name, c.params)
            case .undo: try game.undo()
            case .arm: try game.perform("arm", ["mode": .string(c.name)])
            case .legal: _ = try game.legalActions()
            case .render: _ = try game.render()
            case .load: break
            }
        } catch {
            caught = error
        }

        XCTAssertEqual(game.stateHash, hash, "\(c.name): the state hash changed")
        XCTAssertEqual(try game.state(), state, "\(c.name): the state changed")
        XCTAssertEqual(game.history.entries.map(\.hash), entries, "\(c.name): the history changed")
        XCTAssertEqual(game.history.cursor, cursor, "\(c.name): the history cursor moved")
        // The game plays on: a good action, its undo, and the invariants.
        try game.perform("inc")
        guard case .int(let before)? = counter else { XCTFail("\(c.name): no counter"); return caught }
        XCTAssertEqual(try game.state(at: "counter"), .int(before + 1), c.name)
        try game.undo()
        XCTAssertEqual(game.stateHash, hash, "\(c.name): undo after the case")
        if c.operation != .arm { try game.checkInvariants() }
        return caught
    }

    private func check(_ c: Case) throws {
        let error = try provoke(c)
        guard let error else { return XCTFail("\(c.pack)/\(c.name) did not fail") }
        let text = error.description
        XCTAssertTrue(text.contains(c.message), "\(c.name): expected '\(c.message)' in: \(text)")
        XCTAssertFalse(text.contains("stack traceback"), "\(c.name): \(text)")
        var location: SourceLocation?
        switch (c.kind, error) {
        case (.script, .script(let failure)):
            location = failure.location
        case (.budget, .budgetExceeded(let failure)):
            XCTAssertEqual(failure.resource, .instructions, c.name)
            XCTAssertEqual(failure.limit, 10_000_000, c.name)
            location = failure.location
        case (.memory, .budgetExceeded(let failure)):
            XCTAssertEqual(failure.resource, .memory, c.name)
            XCTAssertEqual(failure.limit, Int64(c.memory), c.name)
            location = failure.location
        case (.load, .packLoad(let problem)):
            location = problem.file.map { SourceLocation(file: $0, line: problem.line ?? 0) }
        case (.invariant, .invariant(_, _, let at)):
            location = at
        default:
            return XCTFail("\(c.name): expected a \(c.kind.rawValue) error, got \(error.kind): \(text)")
        }
        switch c.place {
        case .marked(let file):
            guard let expected = Self.markedLine(file, case: c.name) else { return XCTFail("\(c.name): no marker in \(file)") }
            XCTAssertEqual(location.map(Self.wholePath), Self.wholePath(of: file), "\(c.name): \(text)")
            XCTAssertEqual(location?.line, expected, "\(c.name): \(text)")
        case .inFile(let file):
            XCTAssertEqual(location.map(Self.wholePath), Self.wholePath(of: file), "\(c.name): \(text)")
            XCTAssertNotNil(location?.line, c.name)
        case .unplaced:
            break
        }
    }

    func run(_ cases: [Case]) throws {
        for c in cases {
            try check(c)
        }
    }

    // MARK: Tests

    func testRunawayWorkEndsInABudgetError() throws { try run(Self.runaway) }

    func testSandboxEscapesAreClosed() throws { try run(Self.escape) }

    func testErrorsAndYieldsInEveryHook() throws { try run(Self.hooks) }

    func testValuesTheStateCannotHold() throws { try run(Self.values) }

    func testBrokenLoadingAndSetup() throws { try run(Self.loading) }

    /// Every action file of the corpus packs is a case in the table (and the
    /// table names no file that is missing), so the corpus and its
    /// expectations cannot drift apart.
    func testTheTableCoversTheCorpus() throws {
        let fm = FileManager.default
        var files: Set<String> = []
        for pack in ["runaway", "escape", "hooks", "values"] {
            let folder = Self.corpus.appendingPathComponent(pack).appendingPathComponent("actions")
            for name in try fm.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".lua") {
                files.insert("\(pack)/\(name.dropLast(4))")
            }
        }
        let helpers: Set<String> = ["runaway/inc", "escape/inc", "hooks/inc", "values/inc", "hooks/arm", "hooks/probe"]
        let tabled = Set(Self.all.filter { $0.operation != .load && $0.operation != .legal && $0.operation != .render
                                              && $0.operation != .arm }.map { "\($0.pack)/\($0.name)" })
        XCTAssertEqual(files.subtracting(helpers).subtracting(tabled), [], "action files with no case in the table")
        XCTAssertEqual(tabled.subtracting(files), [], "cases with no action file")
        XCTAssertGreaterThanOrEqual(Self.all.count + 25, 100, "the corpus (with lab's hostile.lua) has at least 100 cases")
    }

    /// The pattern guard refuses only costly calls: ordinary patterns (the
    /// desert pack's idiom, method calls, gsub with a function, gmatch over a
    /// long string, a long subject with a single final repetition) all work
    /// and give Lua's own answers.
    func testPatternGuardLetsOrdinaryPatternsThrough() throws {
        let game = try Game(pack: EngineFixtures.repository.appendingPathComponent("Tests/RulebenchTests/Fixtures/patterns").path,
                            configuration: configuration(memory: 256 << 20))
        try game.perform("parse")
        XCTAssertEqual(try game.state(at: "out.direction"), .string("north"))
        XCTAssertEqual(try game.state(at: "out.strength"), .string("3"))
        XCTAssertEqual(try game.state(at: "out.words"), .int(4))
        XCTAssertEqual(try game.state(at: "out.upper"), .string("DIG,X,DIG"))
        XCTAssertEqual(try game.state(at: "out.digits"), .string("12345"))
        XCTAssertEqual(try game.state(at: "out.key"), .string("speed"))
        XCTAssertEqual(try game.state(at: "out.value"), .string("fast lane"))
        XCTAssertEqual(try game.state(at: "out.balanced"), .string("(a(b)c)"))
        XCTAssertEqual(try game.state(at: "out.plain"), .int(99_999))
        XCTAssertEqual(try game.state(at: "out.tail"), .int(1))
        XCTAssertEqual(try game.state(at: "out.malformed"), .bool(true))
        XCTAssertEqual(try game.state(at: "out.refused"), .bool(true))
    }
}
