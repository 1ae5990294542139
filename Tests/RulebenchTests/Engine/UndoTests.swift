import XCTest
@testable import Rulebench

/// Perform, undo and redo: exact undo, journal undo, nested undo, blame and repair.
final class UndoTests: XCTestCase {
    func testDeclaredUndoRestoresStateAndHash() throws {
        let game = try EngineFixtures.labGame()
        let before = game.stateHash
        let entry = try game.perform("inc", ["by": 3])
        XCTAssertEqual(try game.state(at: "counter"), .int(3))
        XCTAssertNotEqual(entry.hash, before)
        let outcome = try game.undo()
        XCTAssertEqual(outcome.hash, before)
        XCTAssertEqual(try game.state(at: "counter"), .int(0))
        XCTAssertEqual(game.history.cursor, 0)
        XCTAssertEqual(game.history.redoable.count, 1)
    }

    func testJournalUndoRestoresAbsentAndFalseDistinctly() throws {
        let game = try EngineFixtures.labGame()
        let before = game.stateHash
        try game.perform("set", ["key": "k", "value": false])
        XCTAssertEqual(try game.state(at: "vars.k"), .bool(false))
        let afterFalse = game.stateHash
        try game.perform("set", ["key": "k", "value": ["nested": [1, 2.5, "x"]]])
        XCTAssertEqual(try game.state(at: "vars.k.nested.2"), .double(2.5))
        try game.undo()
        XCTAssertEqual(try game.state(at: "vars.k"), .bool(false))
        XCTAssertEqual(game.stateHash, afterFalse)
        try game.undo()
        XCTAssertNil(try game.state(at: "vars.k"), "absent, not false")
        XCTAssertEqual(game.stateHash, before)
    }

    func testMovingTablesAndUndoingTheMove() throws {
        let game = try EngineFixtures.labGame()
        let before = game.stateHash
        try game.perform("draw")
        XCTAssertEqual(try game.state(at: "hand.1.id"), .string("c"))
        XCTAssertNil(try game.state(at: "deck.3"))
        try game.undo()
        XCTAssertEqual(game.stateHash, before)
        XCTAssertEqual(try game.state(at: "deck.3.id"), .string("c"))
    }

    func testNestedSubactionsUndoInReverse() throws {
        let game = try EngineFixtures.labGame()
        let before = game.stateHash
        let entry = try game.perform("nest")
        XCTAssertEqual(entry.subactions.subactionNames, ["nest_mid"])
        XCTAssertEqual(entry.subactions.subactions[0].subactionNames, ["inc"])
        XCTAssertEqual(try game.state(at: "counter"), .int(5))
        XCTAssertEqual(try game.state(at: "vars.depth"), .int(2))
        try game.undo()
        XCTAssertEqual(game.stateHash, before)
        XCTAssertNil(try game.state(at: "vars.depth"))
    }

    func testUndoBugIsReportedWithPathAndBlameThenRepaired() throws {
        let game = try EngineFixtures.labGame()
        let before = game.stateHash
        try game.perform("forget")
        XCTAssertThrowsError(try game.undo()) { error in
            guard case RulebenchError.undoMismatch(let problems) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(problems.count, 1)
            XCTAssertEqual(problems[0].action, "forget")
            XCTAssertEqual(problems[0].undoFunction?.file.hasSuffix("actions/forget.lua"), true)
            XCTAssertEqual(problems[0].undoFunction?.line, 4)
            XCTAssertEqual(problems[0].differences.map(\.path), ["flag"])
            XCTAssertEqual(problems[0].differences[0].before, "false")
            XCTAssertEqual(problems[0].differences[0].after, "true")
        }
        // The state was repaired from the journal and the undo took effect.
        XCTAssertEqual(game.stateHash, before)
        XCTAssertEqual(try game.state(at: "flag"), .bool(false))
        XCTAssertEqual(game.history.cursor, 0)
        try game.perform("inc")
    }

    func testUndoRestoringACopyIsABug() throws {
        let game = try EngineFixtures.labGame()
        try game.perform("draw_copy_undo")
        XCTAssertThrowsError(try game.undo()) { error in
            guard case RulebenchError.undoMismatch(let problems) = error else { return XCTFail("\(error)") }
            let difference = problems[0].differences.first { $0.path == "deck.3" }
            XCTAssertNotNil(difference?.note, "the report says it is a copy")
        }
        XCTAssertEqual(try game.state(at: "deck.3.id"), .string("c"))
    }

    func testNestedUndoBugBlamesTheSubaction() throws {
        let game = try EngineFixtures.labGame()
        let before = game.stateHash
        try game.perform("nest_bad")
        XCTAssertThrowsError(try game.undo()) { error in
            guard case RulebenchError.undoMismatch(let problems) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(problems.map(\.action), ["nest_bad > nest_bad_leaf"])
            XCTAssertEqual(problems[0].differences.first?.path, "vars.leaf")
            XCTAssertEqual(problems[0].differences.first?.before, StateChange.absent, "an absent value reads as absent, not as Lua's nil")
        }
        XCTAssertEqual(game.stateHash, before)
    }

    func testErrorInThirdOfFourSubactionsRollsEverythingBack() throws {
        let game = try EngineFixtures.labGame()
        try game.perform("inc")
        let hash = game.stateHash
        let state = try game.state()
        XCTAssertThrowsError(try game.perform("compose", ["fail_at": 3])) { error in
            guard case RulebenchError.script(let failure) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(failure.message, "part 3 failed on purpose")
            XCTAssertEqual(failure.location?.file.hasSuffix("actions/part.lua"), true)
            XCTAssertEqual(failure.location?.line, 6)
            XCTAssertEqual(failure.action, "compose > part")
            XCTAssertEqual(failure.phase, "apply")
        }
        XCTAssertEqual(game.stateHash, hash)
        XCTAssertEqual(try game.state(), state)
        XCTAssertEqual(game.history.entries.count, 1)
        let entry = try game.perform("compose")
        XCTAssertEqual(entry.subactions.subactionNames, ["part", "part", "part", "part"])
        XCTAssertEqual(try game.state(at: "log"), ["compose", "part 1", "part 2", "part 3", "part 4"])
    }

    func testRejectionAndInvariantFailureChangeNothing() throws {
        let game = try EngineFixtures.labGame()
        let hash = game.stateHash
        XCTAssertThrowsError(try game.perform("reject")) { error in
            guard case RulebenchError.rejected(let reason, let action) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(reason, "never allowed here")
            XCTAssertEqual(action, "reject")
        }
        XCTAssertThrowsError(try game.perform("overflow")) { error in
            guard case RulebenchError.invariant(let name, let message, let location) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "counter_below_100")
            XCTAssertTrue(message.contains("counter reached 100"), message)
            XCTAssertEqual(location?.file.hasSuffix("lab/pack.lua"), true)
        }
        XCTAssertEqual(game.stateHash, hash)
        XCTAssertTrue(game.history.entries.isEmpty)
    }

    func testBadParamsAndUnknownActions() throws {
        let game = try EngineFixtures.labGame()
        XCTAssertThrowsError(try game.perform("inc", ["by": "two"])) { error in
            XCTAssertTrue("\(error)".contains("param 'by' of 'inc' must be integer"), "\(error)")
        }
        XCTAssertThrowsError(try game.perform("inc", ["bz": 1])) { error in
            XCTAssertTrue("\(error)".contains("did you mean 'by'"), "\(error)")
        }
        XCTAssertThrowsError(try game.perform("incc")) { error in
            XCTAssertTrue("\(error)".contains("unknown action 'incc' (did you mean 'inc'?)"), "\(error)")
        }
    }

    func testRedoReproducesAndUndoTurnStopsAtCheckpoint() throws {
        let game = try EngineFixtures.labGame()
        try game.perform("inc")
        try game.perform("checkpoint")
        let atCheckpoint = game.stateHash
        try game.perform("inc", ["by": 2])
        try game.perform("shuffle")
        let end = game.stateHash
        let undone = try game.undoTurn()
        XCTAssertEqual(undone.map(\.entry.call.name), ["shuffle", "inc"])
        XCTAssertEqual(game.stateHash, atCheckpoint)
        XCTAssertEqual(try game.undoTurn().count, 0, "the checkpoint itself stays")
        try game.redo()
        try game.redo()
        XCTAssertEqual(game.stateHash, end, "redo replays the shuffle identically: the generator lives in the state")
        try game.rewind()
        XCTAssertEqual(game.stateHash, game.history.initialHash)
    }

    func testSameSeedSameHashesDifferentSeedDifferentShuffle() throws {
        func play(_ seed: Int64) throws -> [StateHash] {
            let game = try EngineFixtures.labGame(seed: seed)
            var hashes = [game.stateHash]
            for call in [ActionCall("shuffle"), ActionCall("draw"), ActionCall("shuffle"), ActionCall("inc")] {
                hashes.append(try game.perform(call).hash)
            }
            return hashes
        }
        XCTAssertEqual(try play(7), try play(7))
        XCTAssertNotEqual(try play(7).last, try play(8).last)
    }

    func testHashIsStableAcrossRunsAndIndependentOfWriteOrder() throws {
        let a = try EngineFixtures.labGame()
        try a.perform("set", ["key": "x", "value": 1])
        try a.perform("set", ["key": "y", "value": 2])
        let b = try EngineFixtures.labGame()
        try b.perform("set", ["key": "y", "value": 2])
        try b.perform("set", ["key": "x", "value": 1])
        XCTAssertEqual(a.stateHash, b.stateHash)
        // A fixed state has a fixed hash on every machine: this constant must only
        // change together with the hash function (and the saved histories it invalidates).
        XCTAssertEqual(a.history.initialHash.hex, EngineFixtures.labInitialHash)
        let c = try EngineFixtures.labGame()
        try c.perform("set", ["key": "x", "value": 1.0])
        try c.perform("set", ["key": "y", "value": 2])
        XCTAssertNotEqual(a.stateHash, c.stateHash, "1 and 1.0 are different values")
    }
}
