import XCTest
@testable import Rulebench

/// `Game.seek(to:)`: time travel by the engine's own verified undos and redos,
/// which the studio's History slider runs.
final class SeekTests: XCTestCase {
    private func game(_ pack: String = "desert") throws -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        configuration.rulesDirectory = EngineFixtures.repository.appendingPathComponent("rules")
        return try Game(pack: pack, seed: 3, configuration: configuration)
    }

    func testSeekingVisitsEveryPositionWithItsHashAndVerifiesEachStep() throws {
        let game = try game()
        let hashes = try game.playFirstLegal(steps: 12)
        let end = hashes.count - 1
        let back = try game.seek(to: 0)
        XCTAssertEqual(back.map(\.step), Array((1...end).reversed()))
        XCTAssertTrue(back.allSatisfy { $0.direction == .undo && $0.verified })
        XCTAssertEqual(try game.liveStateHash(), hashes[0])
        for position in [5, 2, end, 7] {
            let checks = try game.seek(to: position)
            XCTAssertTrue(checks.allSatisfy(\.verified))
            XCTAssertEqual(game.history.cursor, position)
            XCTAssertEqual(try game.liveStateHash(), hashes[position], "position \(position)")
        }
        XCTAssertEqual(game.history.entries.count, end, "seeking keeps the whole history")
    }

    func testAnUndoCheckCarriesTheMirroredAnimationAndARedoTheDoneOne() throws {
        let game = try game("cards")
        _ = try game.playFirstLegal(steps: 2)
        let undo = try XCTUnwrap(game.seek(to: 1).first)
        XCTAssertEqual(undo.animation?.direction, .undo)
        let redo = try XCTUnwrap(game.seek(to: 2).first)
        XCTAssertEqual(redo.animation?.direction, .do)
        XCTAssertEqual(redo.animation, game.history.entries[1].animation)
    }

    func testAPositionOutsideTheHistoryIsBadInputAndChangesNothing() throws {
        let game = try game()
        _ = try game.playFirstLegal(steps: 3)
        for position in [-1, 4] {
            XCTAssertThrowsError(try game.seek(to: position)) { error in
                XCTAssertTrue("\(error)".contains("positions 0 to 3"), "\(error)")
            }
        }
        XCTAssertEqual(game.history.cursor, 3)
    }

    func testAnUndoThatDoesNotRestoreTheStateIsRecordedAndTheSeekGoesOn() throws {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        let game = try Game(pack: EngineFixtures.repository.appendingPathComponent("Tests/RulebenchTests/Fixtures/hostile-cli/rules/broken").path, configuration: configuration)
        for _ in 0..<2 { try game.perform(try XCTUnwrap(game.legalActions().first)) }
        let checks = try game.seek(to: 0)
        XCTAssertEqual(checks.count, 2)
        XCTAssertFalse(checks.allSatisfy(\.verified), "the planted undo must be caught")
        XCTAssertEqual(game.history.cursor, 0)
    }

    /// A seek forward stops at a redo that differs (rolled back) or fails,
    /// and throws what `redo()` would; the redos before it stay done.
    func testASeekStopsAtARedoThatDiffersOrFailsAndThrowsIt() throws {
        let pack = try temporaryPack([
            "step": "return { apply = function(g) g.n = g.n + 1 end }",
            // Another state each time it runs: a redo cannot reproduce it.
            "wobble": "local count = 0\nreturn { apply = function(g) count = count + 1; g.w = count end }",
            // Fails every time but the first.
            "once": "local ran = false\nreturn { apply = function(g) if ran then error('only once') end; ran = true; g.o = 1 end }",
        ], manifest: "return { name = 'seeking', setup = function(g) g.n = 0 end }", prefix: "seek")
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        for culprit in ["wobble", "once"] {
            let game = try Game(pack: pack.path, configuration: configuration)
            for name in ["step", culprit, "step"] { try game.perform(name) }
            try game.seek(to: 0)
            XCTAssertThrowsError(try game.seek(to: 3)) { error in
                switch (culprit, error as? RulebenchError) {
                case ("wobble", .redoMismatch(let mismatch)?):
                    XCTAssertEqual(mismatch.what, "state hash")
                    XCTAssertEqual(mismatch.action, "wobble")
                case ("once", let failure?):
                    XCTAssertTrue("\(failure)".contains("only once"), "\(failure)")
                default:
                    XCTFail("\(culprit): \(error)")
                }
            }
            XCTAssertEqual(game.history.cursor, 1, "\(culprit): the first redo stays done, the culprit's is rolled back")
            XCTAssertEqual(try game.liveStateHash(), game.history.currentHash, culprit)
        }
    }
}
