import XCTest
@testable import Rulebench

/// `table.insert` and `table.remove` on a state table, as rules call them:
/// the sandbox's charged wrappers (workcost.c) move the elements in C
/// against the backing table (statecore.c's shift). The kernel test
/// `Tests/KernelTests/stateshift.lua` compares every write with the library
/// function's own way; these check what a pack sees: the charge for the
/// elements moved, the library's errors at the rule's line, and the engine's
/// strict undo of a shift.
final class StateShiftTests: XCTestCase {
    /// `game.list` holds 2,000 integers; `rotate` moves its last element to
    /// the front `a.n` times (each insert at 1 moves 2,000 elements); `bad`
    /// inserts past the end; `shuffle` inserts and removes at every position
    /// of `game.short`, undone by the journal (no undo function).
    private func pack() throws -> URL {
        try temporaryPack([
            "rotate": """
                return { apply = function(game, a)
                  for _ = 1, a.n do table.insert(game.list, 1, table.remove(game.list)) end
                end }
                """,
            "bad": """
                return { apply = function(game)
                  table.insert(game.list, #game.list + 2, 0)
                end }
                """,
            "shuffle": """
                return { apply = function(game)
                  local list = game.short
                  for pos = 1, #list + 1 do table.insert(list, pos, "x" .. pos) end
                  for pos = #list, 1, -3 do table.remove(list, pos) end
                  table.insert(list, 1, { nested = true })
                  table.insert(list, 3, list[1])
                  list[5] = nil
                  table.remove(list, 2)
                end }
                """,
        ], manifest: """
            return { name = 'shift', version = '1',
                     setup = function(game)
                       local t = {} for i = 1, 2000 do t[i] = i end
                       game.list, game.short = t, { "a", "b", "c", "d", "e" }
                     end }
            """, prefix: "shift")
    }

    private func game(budget: Int64) throws -> Game {
        var configuration = Game.Configuration()
        configuration.instructionBudget = budget
        configuration.printHandler = { _ in }
        return try Game(pack: try pack().path, seed: 1, configuration: configuration)
    }

    /// Two hundred inserts at the front of a 2,000-element state list are
    /// charged 200 x 2,000 instructions of C work: over a 200,000 budget
    /// (counted), though their VM instructions are a few thousand; two are not.
    func testShiftingAStateListIsChargedByTheElementsMoved() throws {
        let game = try game(budget: 200_000)
        try game.perform("rotate", ["n": .int(2)])
        let hash = game.stateHash
        XCTAssertThrowsError(try game.perform("rotate", ["n": .int(200)])) { error in
            guard case RulebenchError.budgetExceeded(let failure)? = error as? RulebenchError else {
                return XCTFail("expected a budget error, got \(error)")
            }
            XCTAssertEqual(failure.resource, .instructions, "\(failure)")
            XCTAssertEqual(failure.location?.line, 2, "\(failure)")
        }
        XCTAssertEqual(game.stateHash, hash, "a refused call changes nothing")
        try game.perform("rotate", ["n": .int(2)])
        XCTAssertEqual(try game.state(at: "list.1"), .int(1997))
    }

    /// A position out of bounds is the library's own error, at the rule's line.
    func testABadPositionIsTheLibrarysError() throws {
        let game = try game(budget: 1_000_000)
        let hash = game.stateHash
        XCTAssertThrowsError(try game.perform("bad")) { error in
            XCTAssertTrue("\(error)".contains("bad argument #2 to 'insert' (position out of bounds)"), "\(error)")
            XCTAssertTrue("\(error)".contains("bad.lua:2"), "\(error)")
        }
        XCTAssertEqual(game.stateHash, hash)
    }

    /// Shifts at every position, with tables moved and holes made, undone
    /// by the journal under strict verification: the state and hash from
    /// before, and a redo gives the same hash again.
    func testShiftsUndoAndRedoExactly() throws {
        let game = try game(budget: 1_000_000)
        let before = game.stateHash, state = try game.state()
        let entry = try game.perform("shuffle")
        XCTAssertNotEqual(entry.hash, before)
        _ = try game.undo()
        XCTAssertEqual(game.stateHash, before)
        XCTAssertEqual(try game.state(), state)
        XCTAssertEqual(try game.redo().hash, entry.hash)
    }
}
