import XCTest
@testable import Rulebench

/// A travel (seek, rewind, undo turn) that a stop ends partway: the steps it
/// committed before the stop stay done in the kernel, and `Game`'s copy of
/// the history must hold what its redos gave, or a history saved afterwards
/// carries hashes no replay reaches. The stop here is a signal's
/// (`Interruption.request`), asked for by the rules' own `print` in the
/// middle of a step: it lands in that step, or at the latest as the next
/// one begins, on every run (no timing decides whether it comes).
final class TravelStopTests: XCTestCase {
    /// A pack whose `mark` gives another state on every other run (a
    /// module-level count outside the game state): performed, undone and
    /// performed again, its entry holds what its second run gave, a redo
    /// gives what a first run (a fresh replay's) gives. `clear` makes the
    /// states meet again, so the steps after it hash alike either way.
    /// `tick` asks for the stop the second time it runs (its first redo).
    private func stoppingPack() throws -> URL {
        try temporaryPack([
            "mark": "local runs = 0\nreturn { apply = function(g) runs = runs + 1; g.m = runs % 2 end }",
            "clear": "return { apply = function(g) g.m = nil end }",
            "tick": "local runs = 0\nreturn { apply = function(g) runs = runs + 1; if runs == 2 then print('stop') end; g.n = g.n + 1 end }",
            "step": "return { apply = function(g) g.n = g.n + 1 end }",
            // Its own undo asks for the stop, every time it runs.
            "tock": "return { apply = function(g) g.n = g.n + 1 end, undo = function(g) print('stop'); g.n = g.n - 1 end }",
        ], manifest: "return { name = 'stopping', setup = function(g) g.n = 0 end }", prefix: "travelstop")
    }

    /// A game of the pack whose rules' "stop" asks the process to stop, as
    /// a signal handler would.
    private func stoppingGame(_ pack: URL, strict: Bool) throws -> Game {
        var configuration = Game.Configuration()
        configuration.strict = strict
        configuration.printHandler = { text in if text == "stop" { Interruption.request(signal: SIGINT) } }
        return try Game(pack: pack.path, seed: 5, configuration: configuration)
    }

    /// A seek stopped by a signal after redoing `mark` (which gave another
    /// hash) leaves Swift's entries equal to the kernel's: the history saved
    /// then replays in a fresh game, step by step, hash by hash.
    func testASeekStoppedPartwayKeepsWhatItsRedosGave() throws {
        let game = try stoppingGame(try stoppingPack(), strict: false)
        try game.perform("mark")
        try game.undo()
        for name in ["mark", "clear", "tick", "step", "step"] { try game.perform(name) }
        try game.rewind()
        let first = game.history.entries[0].hash
        try assertInterrupted { try game.seek(to: 5) }
        XCTAssertTrue((2...3).contains(game.history.cursor), "stopped in or after the third redo: \(game.history.cursor)")
        XCTAssertNotEqual(game.history.entries[0].hash, first, "mark's redo gave another hash, taken as the entry")
        try assertSameAsTheKernelAndReplays(game)
    }

    /// A rewind stopped in an undo (or as the next begins) stands where the
    /// kernel's history does: the undos before the stop stay done, the
    /// entries are untouched (an undo replaces none), and the history
    /// saved then replays.
    func testARewindStoppedPartwayStandsWhereTheKernelDoes() throws {
        let game = try stoppingGame(try stoppingPack(), strict: true)
        for name in ["step", "tock", "step", "step"] { try game.perform(name) }
        let hashes = game.history.entries.map(\.hash)
        try assertInterrupted { try game.rewind() }
        XCTAssertTrue((1...2).contains(game.history.cursor), "stopped in or after tock's undo: \(game.history.cursor)")
        XCTAssertEqual(game.history.entries.map(\.hash), hashes)
        try assertSameAsTheKernelAndReplays(game)
    }

    /// `body` throws the interruption; the stop request is cleared after.
    private func assertInterrupted(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) throws {
        defer { Interruption.clear() }
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard case RulebenchError.budgetExceeded(let failure)? = error as? RulebenchError else {
                return XCTFail("expected an interruption, got \(error)", file: file, line: line)
            }
            XCTAssertEqual(failure.resource, .interrupt, file: file, line: line)
        }
    }

    /// The applied entries as Swift holds them are the kernel's (hash,
    /// subaction tree and plan, read as the failure path reads them), the
    /// live state is the history's, and the history saved now replays in a
    /// fresh game to the same entries, cursor and state.
    private func assertSameAsTheKernelAndReplays(_ game: Game, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try game.liveStateHash(), game.stateHash, file: file, line: line)
        let kernel = try game.kernel.travelStopped(from: 0)
        XCTAssertEqual(kernel.position.cursor, game.history.cursor, file: file, line: line)
        XCTAssertEqual(kernel.steps.count, game.history.cursor, file: file, line: line)
        for (step, entry) in zip(kernel.steps, game.history.performed) {
            guard case .redone(let redone) = step else { return XCTFail("\(step)", file: file, line: line) }
            XCTAssertEqual(redone.call, entry.call, "\(entry.call)", file: file, line: line)
            XCTAssertEqual(redone.hash, entry.hash, "\(entry.call)", file: file, line: line)
            XCTAssertEqual(redone.tree, entry.tree, "\(entry.call)", file: file, line: line)
            XCTAssertEqual(redone.plan, entry.plan, "\(entry.call)", file: file, line: line)
        }
        let url = try scratchFolder("travelstop-history").appendingPathComponent("game.json")
        try game.save(to: url)
        var quiet = Game.Configuration()
        quiet.printHandler = { _ in }
        let copy = try Game.replay(contentsOf: url, configuration: quiet)
        XCTAssertEqual(copy.history.entries.map(\.hash), game.history.entries.map(\.hash), file: file, line: line)
        XCTAssertEqual(copy.history.cursor, game.history.cursor, file: file, line: line)
        XCTAssertEqual(copy.stateHash, game.stateHash, file: file, line: line)
    }
}
