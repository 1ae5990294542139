import XCTest
@testable import Rulebench

/// Hostile scripts end in a clear error, with the state and history unchanged
/// and the game still playable.
final class SandboxTests: XCTestCase {
    /// Runs `hostile kind=...` and returns the error, after checking that
    /// nothing changed and the next action works.
    private func hostile(_ kind: String, memory: Int = 256 << 20, file: StaticString = #filePath, line: UInt = #line) throws -> RulebenchError {
        let game = try EngineFixtures.labGame(memory: memory)
        try game.perform("inc")
        let hash = game.stateHash
        let state = try game.state()
        var caught: RulebenchError?
        do {
            try game.perform("hostile", ["kind": .string(kind)])
        } catch {
            caught = error
        }
        guard let caught else {
            XCTFail("hostile \(kind) did not fail", file: file, line: line)
            throw RulebenchError.badInput(InputProblem("no error"))
        }
        XCTAssertEqual(game.stateHash, hash, "state changed after \(kind)", file: file, line: line)
        XCTAssertEqual(try game.state(), state, file: file, line: line)
        XCTAssertEqual(game.history.entries.count, 1, file: file, line: line)
        try game.perform("inc")
        XCTAssertEqual(try game.state(at: "counter"), .int(2), file: file, line: line)
        return caught
    }

    private func assertScriptError(_ kind: String, contains text: String, line expectedLine: Int? = nil,
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        let error = try hostile(kind, file: file, line: line)
        guard case .script(let failure) = error else { return XCTFail("\(kind): \(error)", file: file, line: line) }
        XCTAssertTrue(failure.message.contains(text), "\(kind): \(failure.message)", file: file, line: line)
        XCTAssertEqual(failure.location?.file.hasSuffix("actions/hostile.lua"), true, "\(kind): \(failure)", file: file, line: line)
        if let expectedLine { XCTAssertEqual(failure.location?.line, expectedLine, file: file, line: line) }
        XCTAssertEqual(failure.action, "hostile", file: file, line: line)
    }

    func testInfiniteLoopsRunOutOfInstructions() throws {
        for kind in ["loop", "pcall_loop", "coroutine_loop"] {
            let error = try hostile(kind)
            guard case .budgetExceeded(let failure) = error else { XCTFail("\(kind): \(error)"); continue }
            XCTAssertEqual(failure.resource, .instructions)
            XCTAssertEqual(failure.limit, 10_000_000)
            XCTAssertEqual(failure.location?.file.hasSuffix("actions/hostile.lua"), true, "\(failure)")
            XCTAssertEqual(failure.action, "hostile")
        }
    }

    func testMemoryBombsHitTheCap() throws {
        let rep = try hostile("rep_bomb")
        guard case .budgetExceeded(let failure) = rep else { return XCTFail("\(rep)") }
        XCTAssertEqual(failure.resource, .memory)
        let table = try hostile("table_bomb", memory: 32 << 20)
        guard case .budgetExceeded(let tableFailure) = table else { return XCTFail("\(table)") }
        XCTAssertEqual(tableFailure.resource, .memory)
    }

    func testRemovedLibrariesAndEscapes() throws {
        try assertScriptError("io_open", contains: "attempt to index a nil value (global 'io')", line: 11)
        try assertScriptError("os_execute", contains: "attempt to call a nil value (field 'execute')", line: 12)
        try assertScriptError("dump", contains: "attempt to call a nil value (field 'dump')", line: 13)
        try assertScriptError("binary", contains: "binary chunks are not allowed", line: 14)
        try assertScriptError("sethook", contains: "attempt to index a nil value (global 'debug')", line: 15)
        try assertScriptError("require_os", contains: "module 'os' not found", line: 16)
        try assertScriptError("require_path", contains: "is not a module name", line: 17)
        try assertScriptError("rawset_state", contains: "rawset cannot write the game state", line: 18)
        try assertScriptError("setmetatable_state", contains: "cannot change the metatable of a state table", line: 19)
        try assertScriptError("string_metatable", contains: "attempt to index a nil value", line: 20)
        try assertScriptError("gc_metamethod", contains: "__gc metamethods are not available", line: 21)
        try assertScriptError("global_write", contains: "global 'leaked' assigned while the game runs", line: 27)
        try assertScriptError("stack", contains: "stack overflow")
    }

    func testErrorsWithNonStringValues() throws {
        try assertScriptError("error_table", contains: "error object is a table value", line: 22)
        try assertScriptError("error_nil", contains: "error object is a nil value", line: 23)
    }

    func testValuesTheStateCannotHold() throws {
        try assertScriptError("nan", contains: "NaN cannot be stored", line: 24)
        try assertScriptError("cycle", contains: "appears twice", line: 25)
        try assertScriptError("function_value", contains: "a function cannot be stored", line: 26)
    }

    func testWritesOutsideActionsAreErrorsNamingFileAndLine() throws {
        let game = try EngineFixtures.labGame()
        let hash = game.stateHash
        XCTAssertThrowsError(try game.perform("write_in_check")) { error in
            guard case RulebenchError.script(let failure) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(failure.message.contains("read-only in check of 'write_in_check'"), failure.message)
            XCTAssertEqual(failure.location?.file.hasSuffix("actions/write_in_check.lua"), true)
            XCTAssertEqual(failure.location?.line, 2)
        }
        XCTAssertThrowsError(try game.perform("late_load")) { error in
            guard case RulebenchError.script(let failure) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(failure.message.contains("read-only"), failure.message)
            XCTAssertEqual(failure.location?.file.hasSuffix("lab/late.lua"), true, "\(failure)")
            XCTAssertEqual(failure.location?.line, 3)
        }
        XCTAssertEqual(game.stateHash, hash)
        try game.perform("inc")
    }

    func testHookCannotBeDisarmedByNestedPcallAndBudgetResets() throws {
        let game = try EngineFixtures.labGame(budget: 1_000_000)
        XCTAssertThrowsError(try game.perform("hostile", ["kind": "pcall_loop"]))
        // The next operation gets a fresh budget.
        for _ in 0..<3 { try game.perform("inc") }
        XCTAssertEqual(try game.state(at: "counter"), .int(3))
    }
}
