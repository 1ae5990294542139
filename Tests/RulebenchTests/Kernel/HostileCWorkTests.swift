import Foundation
import XCTest
@testable import Rulebench

/// The hostile corpus's C work (Fixtures/hostile/cwork): C work that
/// the count hook cannot see. Each action does a bounded amount of C work
/// that costs few VM instructions (without the charges of `workcost.c` and
/// the sandbox it ends with no error); under a small counted budget the
/// charges must end it in a budget error in the action's file (at the line
/// marked `--!` where one call is refused before it runs), the same error
/// in two fresh games, with the state and history unchanged and the game
/// still playing. The `backstop_*` actions do work no charge sees and never
/// end: the wall-clock backstop must stop them, saying so.
final class HostileCWorkTests: XCTestCase {
    static let pack = HostileScriptTests.corpus.appendingPathComponent("cwork")
    /// Counted (under RB_WATCH_MIN_BUDGET), so every run counts from its start.
    static let budget: Int64 = 2_000_000

    /// Each case's action; true where one call is refused at a marked line.
    static let charged: [(name: String, refusedAtOnce: Bool)] = [
        ("load_chunk", true), ("load_reader", false), ("concat_empty", false), ("tonumber_long", false),
        ("pack_padding", false), ("utf8_offset", false), ("utf8_len", false), ("utf8_codepoint", false),
        ("utf8_char", false), ("format_q", false), ("format_s", false), ("lower_method", false),
        ("upper_reverse", false), ("byte_range", false), ("select_unpack", false), ("select_vararg", false),
        ("insert_front", false), ("remove_front", false), ("insert_len", true), ("sort_c_comparator", false),
        ("rep_separator", false), ("max_args", false), ("char_args", false), ("coroutine_pass", false),
        ("unpack_range", true), ("concat_range", true),
    ]

    private func game(budget: Int64) throws -> Game {
        var configuration = Game.Configuration()
        configuration.instructionBudget = budget
        configuration.printHandler = { _ in }
        return try Game(pack: Self.pack.path, seed: 3, configuration: configuration)
    }

    /// Performs `name` in a fresh game after one good action; checks that
    /// nothing changed and that the game plays on; returns the error.
    private func provoke(_ name: String, budget: Int64) throws -> BudgetFailure? {
        let game = try game(budget: budget)
        try game.perform("inc")
        let hash = game.stateHash, state = try game.state(), entries = game.history.entries.map(\.hash)
        var caught: Error?
        do { try game.perform(name) } catch { caught = error }
        XCTAssertEqual(game.stateHash, hash, "\(name): the state hash changed")
        XCTAssertEqual(try game.state(), state, "\(name): the state changed")
        XCTAssertEqual(game.history.entries.map(\.hash), entries, "\(name): the history changed")
        try game.perform("inc")
        XCTAssertEqual(try game.state(at: "counter"), .int(2), name)
        guard let caught else { XCTFail("\(name) did not fail"); return nil }
        guard case RulebenchError.budgetExceeded(let failure)? = caught as? RulebenchError else {
            XCTFail("\(name): expected a budget error, got \(caught)")
            return nil
        }
        return failure
    }

    private func assertInOwnFile(_ failure: BudgetFailure, _ name: String) {
        let file = "cwork/actions/\(name).lua"
        XCTAssertEqual(failure.location.map(HostileScriptTests.wholePath), HostileScriptTests.wholePath(of: file),
                       "\(name): \(failure)")
        XCTAssertGreaterThan(failure.location?.line ?? 0, 0, "\(name): \(failure)")
    }

    /// Every class of C work ends in the budget error, deterministically.
    func testCWorkIsChargedToTheBudget() throws {
        for (name, refusedAtOnce) in Self.charged {
            guard let first = try provoke(name, budget: Self.budget) else { continue }
            XCTAssertEqual(first.resource, .instructions, "\(name): \(first)")
            XCTAssertEqual(first.limit, Self.budget, name)
            assertInOwnFile(first, name)
            if refusedAtOnce {
                let file = "cwork/actions/\(name).lua"
                XCTAssertEqual(first.location?.line, HostileScriptTests.markedLine(file, case: name), "\(name): \(first)")
            }
            // The same pack, the same error, at the same place: in a new game.
            let again = try provoke(name, budget: Self.budget)
            XCTAssertEqual(again?.description, first.description, name)
        }
    }

    /// Work no charge sees (comparing long equal strings) is stopped by the
    /// wall-clock backstop, which says it was the wall clock and not the
    /// budget, at the rule's file.
    func testTheWallClockBackstopStopsWhatNoChargeSees() throws {
        for name in ["backstop_eq", "backstop_lt"] {
            guard let failure = try provoke(name, budget: 1_000_000) else { continue }
            XCTAssertEqual(failure.resource, .wallClock, "\(name): \(failure)")
            XCTAssertTrue(failure.description.contains("stopped by the wall clock"), failure.description)
            XCTAssertEqual(RulebenchError.budgetExceeded(failure).kind, "wall clock")
            assertInOwnFile(failure, name)
        }
    }

    /// A stop request (what the CLI's SIGINT/SIGTERM handler makes) fails
    /// every later call at its first instruction as interrupted, rolled
    /// back like any failure; cleared, the game plays on.
    func testAStopRequestFailsCallsUntilCleared() throws {
        let game = try game(budget: 10_000_000)
        try game.perform("inc")
        let hash = game.stateHash
        Interruption.request(signal: SIGTERM)
        defer { Interruption.clear() }
        XCTAssertThrowsError(try game.perform("inc")) { error in
            guard case RulebenchError.budgetExceeded(let failure)? = error as? RulebenchError else {
                return XCTFail("expected an interruption, got \(error)")
            }
            XCTAssertEqual(failure.resource, .interrupt)
            XCTAssertTrue(failure.description.contains("interrupted by SIGTERM"), failure.description)
        }
        XCTAssertEqual(game.stateHash, hash)
        Interruption.clear()
        try game.perform("inc")
        XCTAssertEqual(try game.state(at: "counter"), .int(2))
    }

    /// The corpus folder and the table agree.
    func testTheTableCoversTheCorpusFolder() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.pack.appendingPathComponent("actions").path)
            .filter { $0.hasSuffix(".lua") }.map { String($0.dropLast(4)) }
        let tabled = Set(Self.charged.map(\.name) + ["backstop_eq", "backstop_lt", "inc"])
        XCTAssertEqual(Set(files), tabled)
        XCTAssertGreaterThanOrEqual(Self.charged.count, 20)
    }

    /// Ordinary calls of the charged functions give Lua's own answers (the
    /// wrapper passes arguments, results and errors through unchanged).
    func testChargedFunctionsAnswerAsLuaDoes() throws {
        let pack = try temporaryPack(["probe": """
            return { apply = function(game)
              local t = { "a", "b", "c" }
              table.insert(t, 1, "z"); table.insert(t, "e")
              local removed = table.remove(t, 2)
              game.out = table.concat(t, ",") .. "|" .. removed .. "|" .. select("#", table.unpack(t))
                .. "|" .. ("%q"):format("x\\n") .. "|" .. ("AbC"):lower() .. ("abc"):upper() .. ("abc"):reverse()
                .. "|" .. table.concat({ ("hi"):byte(1, -1) }, " ") .. "|" .. tonumber("101", 2) .. "|" .. utf8.len("h\\u{e9}")
                .. "|" .. utf8.offset("h\\u{e9}x", 3) .. "|" .. math.max(3, 9, 4) .. "|" .. string.char(72, 105)
                .. "|" .. #string.pack("i4", 7) .. "|" .. table.concat({ 1, 2, 3 }, "-", 2)
              local ok, message = pcall(function() return string.lower() end)
              game.err = message
              local len = setmetatable({}, { __len = function() game.lens = (game.lens or 0) + 1; return 2 end,
                                             __index = function(_, i) return "v" .. i end })
              game.viaLen = table.concat({ table.unpack(len) }, "+")
            end }
            """], manifest: "return { name = 'probe', version = '1' }")
        let game = try Game(pack: pack.path)
        try game.perform("probe")
        XCTAssertEqual(try game.state(at: "out"),
                       .string("z,b,c,e|a|4|\"x\\\n\"|abcABCcba|104 105|5|2|4|9|Hi|4|2-3"))
        guard case .string(let message)? = try game.state(at: "err") else { return XCTFail("no error message") }
        XCTAssertTrue(message.hasSuffix("probe.lua:10: bad argument #1 to 'lower' (string expected, got no value)"), message)
        XCTAssertEqual(try game.state(at: "viaLen"), .string("v1+v2"))
        XCTAssertEqual(try game.state(at: "lens"), .int(1), "table.unpack runs __len once, as without the charge")
    }
}
