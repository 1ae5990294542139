import XCTest
@testable import Rulebench

/// A travel (seek, rewind, undo turn) that a stop ends partway: the redos it
/// committed before the stop stay done in the kernel, and `Game`'s copy of
/// the history must hold what they gave, or a history saved afterwards
/// carries hashes no replay reaches. The stop here is a signal's
/// (`Interruption.request`), asked for by the rules' own `print` in the
/// middle of a redo, so it lands at the same step on every run.
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
        ], manifest: "return { name = 'stopping', setup = function(g) g.n = 0 end }", prefix: "travelstop")
    }

    /// A non-strict game of the pack, rewound after five actions; `mark`'s
    /// entry holds its second run.
    private func rewoundGame(_ pack: URL) throws -> Game {
        var configuration = Game.Configuration()
        configuration.strict = false
        configuration.printHandler = { text in if text == "stop" { Interruption.request(signal: SIGINT) } }
        let game = try Game(pack: pack.path, seed: 5, configuration: configuration)
        try game.perform("mark")
        try game.undo()
        for name in ["mark", "clear", "tick", "step", "step"] { try game.perform(name) }
        try game.rewind()
        return game
    }

    /// A seek stopped by a signal after redoing `mark` (which gave another
    /// hash) leaves Swift's entries equal to the kernel's: the history saved
    /// then replays in a fresh game, step by step, hash by hash.
    func testASeekStoppedPartwayKeepsWhatItsRedosGave() throws {
        let pack = try stoppingPack()
        let game = try rewoundGame(pack)
        let first = game.history.entries[0].hash
        defer { Interruption.clear() }
        XCTAssertThrowsError(try game.seek(to: 5)) { error in
            guard case RulebenchError.budgetExceeded(let failure)? = error as? RulebenchError else {
                return XCTFail("expected an interruption, got \(error)")
            }
            XCTAssertEqual(failure.resource, .interrupt)
        }
        Interruption.clear()
        XCTAssertTrue((2...3).contains(game.history.cursor), "stopped in or after the third redo: \(game.history.cursor)")
        XCTAssertNotEqual(game.history.entries[0].hash, first, "mark's redo gave another hash, taken as the entry")
        XCTAssertEqual(try game.liveStateHash(), game.stateHash)
        assertSameAsTheKernel(game)

        let url = try scratchFolder("travelstop-history").appendingPathComponent("game.json")
        try game.save(to: url)
        let copy = try Game.replay(contentsOf: url)
        XCTAssertEqual(copy.history.entries.map(\.hash), game.history.entries.map(\.hash))
        XCTAssertEqual(copy.history.cursor, game.history.cursor)
        XCTAssertEqual(copy.stateHash, game.stateHash)
    }

    /// The applied entries as Swift holds them are the kernel's: hash,
    /// subaction tree and plan (read as the failure path reads them).
    private func assertSameAsTheKernel(_ game: Game, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let kernel = try game.kernel.travelStopped(from: 0)
            XCTAssertEqual(kernel.position.cursor, game.history.cursor, file: file, line: line)
            XCTAssertEqual(kernel.steps.count, game.history.cursor, file: file, line: line)
            for (step, entry) in zip(kernel.steps, game.history.performed) {
                guard case .redone(let hash, let tree, let plan) = step else { return XCTFail("\(step)", file: file, line: line) }
                XCTAssertEqual(hash, entry.hash, "\(entry.call)", file: file, line: line)
                XCTAssertEqual(tree, entry.tree, "\(entry.call)", file: file, line: line)
                XCTAssertEqual(plan, entry.plan, "\(entry.call)", file: file, line: line)
            }
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }
}
