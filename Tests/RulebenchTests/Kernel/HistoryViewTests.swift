import XCTest
@testable import Rulebench

/// Swift's `History` is a view of the kernel's one history
/// (`Kernel/history.lua`), not a copy: after every kind of step (perform,
/// undo, redo, the travels, a fuzz run, a restart) what it answers is what
/// the kernel holds, read afresh; it holds no entry it did not read; and a
/// kernel that moved without it is caught, never answered from.
final class HistoryViewTests: XCTestCase {
    private static var configuration: Game.Configuration {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        configuration.strict = false
        return configuration
    }

    /// A pack whose `wobble` gives another state each time it runs (a
    /// module-level count): a non-strict redo of it replaces its entry in
    /// the kernel, which a copy kept in Swift would miss.
    private func game() throws -> Game {
        let pack = try temporaryPack([
            "step": "return { apply = function(g) g.n = g.n + 1 end, legal = function(g, emit) emit({}) end }",
            "done": "return { apply = function(g) g.n = g.n + 10 end, checkpoint = true }",
            "wobble": "local count = 0\nreturn { apply = function(g) count = count + 1; g.w = count end }",
        ], manifest: "return { name = \"views\", setup = function(g) g.n = 0 end }", prefix: "historyview")
        return try Game(pack: pack.path, configuration: Self.configuration)
    }

    private func assertIsTheKernels(_ game: Game, _ step: String, line: UInt = #line) throws {
        XCTAssertEqual(try game.history.view.differences(), [], step, line: line)
        // What a reader sees, read from the kernel through the view.
        let entries = game.history.entries
        XCTAssertEqual(entries.count, game.history.count, step, line: line)
        XCTAssertEqual(game.stateHash, game.history.cursor == 0 ? game.history.initialHash : entries[game.history.cursor - 1].hash,
                       step, line: line)
    }

    func testTheViewIsTheKernelsHistoryAfterEveryKindOfStep() throws {
        let game = try game()
        for name in ["step", "done", "wobble", "step", "done", "step"] { try game.perform(name) }
        try assertIsTheKernels(game, "performs")
        try game.undo()
        try assertIsTheKernels(game, "undo")
        try game.redo()
        try assertIsTheKernels(game, "redo")
        try game.undoTurn()
        try assertIsTheKernels(game, "undo turn")
        try game.undoLastTurn()
        try assertIsTheKernels(game, "undo last turn")
        try game.rewind()
        try assertIsTheKernels(game, "rewind")
        // Seeking forward, not strict: the wobble's redo gives another hash,
        // and the kernel replaces its entry; the view reads the new one.
        let before = game.history.entry(at: 2).hash
        try game.seek(to: 6)
        XCTAssertNotEqual(game.history.entry(at: 2).hash, before, "the redone wobble's entry is the kernel's new one")
        try assertIsTheKernels(game, "seek")
        try game.seek(to: 2)
        try game.perform("step")
        try assertIsTheKernels(game, "a perform that dropped the redo tail")
        XCTAssertEqual(game.history.count, 3)
        try game.restart(seed: 0)
        try assertIsTheKernels(game, "restart")
        XCTAssertEqual(game.history.count, 0)
        let run = try game.play(Kernel.RunRequest(program: [.perform(ActionCall("step")), .perform(ActionCall("done")), .undo(1)],
                                                   depth: 3))
        XCTAssertNil(run.finding)
        try assertIsTheKernels(game, "a fuzz run")
        XCTAssertEqual(game.history.cursor, 1)
    }

    /// The view holds only what was read: performs copy nothing into it, so
    /// no second store of the entries can grow beside the kernel's.
    func testPerformsCopyNoEntryIntoTheView() throws {
        let game = try game()
        for _ in 0..<20 { try game.perform("step") }
        XCTAssertEqual(game.history.view.keptCount, 0, "nothing read, nothing kept")
        XCTAssertEqual(game.history.entry(at: 19).call.name, "step")
        XCTAssertEqual(game.history.view.keptCount, 20)
        try game.perform("done")
        XCTAssertEqual(game.history.view.keptCount, 20, "a perform adds nothing: the kernel has it")
        XCTAssertEqual(game.history.entries.last?.call.name, "done")
    }

    /// A kernel history that moved without the view (a call made past
    /// `Game`) is what `differences` reports: the check the tests above
    /// rely on catches a view gone stale.
    func testAViewTheKernelMovedPastIsCaught() throws {
        let game = try game()
        try game.perform("step")
        XCTAssertEqual(try game.history.view.differences(), [])
        _ = try game.kernel.perform(ActionCall("step"))
        let found = try game.history.view.differences()
        XCTAssertTrue(found.contains { $0.hasPrefix("position:") }, "\(found)")
    }
}
