import Foundation
import XCTest
@testable import Rulebench

/// Determinism in the hostile corpus: nothing that differs between processes
/// reaches rules (Fixtures/hostile/nondeterminism, Fixtures/nondeterminism).
/// The cases that must fail run through the corpus's harness (the error, its
/// marked line, nothing changed, the game plays on); the others check what
/// rules see instead of an address, a clock or a hash order, and that a
/// game gives the same answers in two Lua states (whose string hash seeds
/// and addresses differ) and through undo, redo and failed actions.
extension HostileScriptTests {
    static let nondeterminism: [Case] = {
        func script(_ name: String, _ message: String) -> Case {
            Case(pack: "nondeterminism", name: name, operation: .perform, kind: .script,
                 message: message, place: .marked("nondeterminism/actions/\(name).lua"))
        }
        let pointer = "string.format('%p') shows a memory address, which differs from run to run; use tostring(value)"
        return [
            script("clock", "os.clock is not available to rules: the time an action takes differs from run to run"
                   + ", so a replay would go another way; count turns in the game state instead"),
            script("format_pointer", pointer),
            script("format_pointer_method", pointer),
            script("format_pointer_nil", pointer),
            script("gc_count", "collectgarbage('count') is not available to rules: the heap's size differs from run to run"),
            script("gc_incremental", "collectgarbage('incremental') is not available to rules: the collector's mode is the engine's"),
            script("gc_generational", "collectgarbage('generational') is not available to rules"),
            script("pairs_mixed_keys", "pairs has no stable order for a table whose keys are tables, functions and coroutines"),
            script("pairs_function_keys", "pairs has no stable order for a table whose keys are functions (it would follow memory"),
            script("pairs_function_thread", "pairs has no stable order for a table whose keys are functions and coroutines"),
            script("next_mixed_keys", "next has no stable order for a table whose keys are tables and functions"),
            script("next_loop_tables", "next has no stable order for a table whose keys are tables (it would follow memory"),
        ]
    }()

    static let nondeterminismFixtures = EngineFixtures.repository.appendingPathComponent("Tests/RulebenchTests/Fixtures/nondeterminism")

    private func quietGame(_ path: String, seed: Int64 = 3, printed: (@Sendable (String) -> Void)? = nil) throws -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = printed ?? { _ in }
        return try Game(pack: path, seed: seed, configuration: configuration)
    }

    private func corpusGame(printed: (@Sendable (String) -> Void)? = nil) throws -> Game {
        try quietGame(Self.corpus.appendingPathComponent("nondeterminism").path, printed: printed)
    }

    func testNondeterminismIsRefusedAtItsLine() throws { try run(Self.nondeterminism) }

    /// tostring and %s number tables, functions and coroutines per game, in
    /// the order rules ask, and keep __tostring and __name; the same in a
    /// second Lua state (another hash seed, other addresses).
    func testTostringGivesEachObjectANumberInTheOrderAsked() throws {
        let expected: [String: StateValue] = [
            "table": .string("table: #1"), "again": .string("table: #1"), "print": .string("function: #2"),
            "coroutine": .string("thread: #3"), "named": .string("Card: #4"), "custom": .string("the ace"),
            "format": .string("[table: #1   |the ace|7]"), "method": .string("Card: #4"),
            "number": .string("7"), "float": .string("1.5"), "error": .string("a table"), "state": .string("table: #5"),
        ]
        var concats: Set<String> = []
        for _ in 0..<2 {
            let game = try corpusGame()
            try game.perform("names")
            for (key, value) in expected {
                XCTAssertEqual(try game.state(at: StatePath(parsing: "vars.\(key)")), value, key)
            }
            guard case .string(let concat)? = try game.state(at: "vars.concat") else { return XCTFail("no concat message") }
            XCTAssertTrue(concat.hasSuffix("attempt to concatenate a Card value (upvalue 'named')"), concat)
            concats.insert(concat)
        }
        XCTAssertEqual(concats.count, 1, "the same message in both states: \(concats)")
    }

    /// print shows numbers, never an address.
    func testPrintShowsNumbersNotAddresses() throws {
        final class Lines: @unchecked Sendable { var all: [String] = [] }
        let lines = Lines()
        let game = try corpusGame(printed: { lines.all.append($0) })
        try game.perform("printing")
        XCTAssertEqual(lines.all, ["table: #1\tfunction: #2\tthread: #3\t1.5\ttext\tnil\ttrue"])
    }

    /// The collector's answers are fixed: a full cycle each time, always running.
    func testCollectorAnswersAreFixed() throws {
        let game = try corpusGame()
        try game.perform("collector")
        XCTAssertEqual(try game.state(at: "vars.collect"), .int(0))
        XCTAssertEqual(try game.state(at: "vars.full"), .int(0))
        XCTAssertEqual(try game.state(at: "vars.step"), .bool(true))
        XCTAssertEqual(try game.state(at: "vars.running"), .bool(true))
    }

    /// table.sort with a comparator keeps tied elements in their order from
    /// 128 elements on (where Lua may take pivots from the clock).
    func testSortBreaksTiesByPlaceFrom128Elements() throws {
        let game = try corpusGame()
        try game.perform("sort_ties")
        let bySuit = (0..<4).flatMap { suit in (1...200).filter { ($0 * 7) % 4 == suit } }
        XCTAssertEqual(try game.state(at: "vars.sorted"), .string(bySuit.map(String.init).joined(separator: ",")))
    }

    /// The numbers follow the history, not what happened on the way: an
    /// undone action's numbers are handed out again by the next action,
    /// numbers that legal, render and a custom undo hand out are scratch,
    /// and a failed action's are forgotten. So the game ends in the state a
    /// fresh game reaches by playing only the history, in another Lua state.
    func testNumbersFollowTheHistoryThroughUndoRedoAndFailures() throws {
        let pack = Self.nondeterminismFixtures.appendingPathComponent("idtags").path
        let game = try quietGame(pack)
        try game.perform("draw")
        _ = try game.render()
        _ = try game.legalActions()
        try game.perform("draw")
        try game.undo()
        try game.redo()
        try game.perform("burn")
        try game.undo()                       // burn's own undo numbers a scratch table
        XCTAssertThrowsError(try game.perform("no_such_action"))
        try game.perform("draw")
        XCTAssertEqual(try game.state(at: "log.1"), .string("table: #1 of table: #2 via function: #3"))
        XCTAssertEqual(try game.state(at: "log.2"), .string("table: #4 of table: #2 via function: #3"))
        XCTAssertEqual(try game.state(at: "log.3"), .string("table: #5 of table: #2 via function: #3"))

        let fresh = try quietGame(pack)
        for _ in 0..<3 { try fresh.perform("draw") }
        XCTAssertEqual(fresh.stateHash, game.stateHash, "a fresh game playing only the history")
        let replayed = try quietGame(pack)
        try SavedHistory(of: game).verify(in: replayed, restarting: false, source: "(test)")
    }

    /// next walks in the order pairs does (strings sorted), over plain and
    /// state tables, so a game that records the order replays in any state.
    func testNextAndPairsWalkStringKeysInOrder() throws {
        let pack = Self.nondeterminismFixtures.appendingPathComponent("keywalk").path
        var hashes: Set<StateHash> = []
        for _ in 0..<3 {
            let game = try quietGame(pack)
            try game.perform("walk")
            try game.perform("walk")
            XCTAssertEqual(try game.state(at: "seen.1"),
                           .string("amber,basil,cedar,dune,elm,fern,gale,heath|down|down,east,north,south,up,west"))
            XCTAssertEqual(try game.state(at: "scores.amber"), .int(21))
            hashes.insert(game.stateHash)
        }
        XCTAssertEqual(hashes.count, 1)
    }
}
