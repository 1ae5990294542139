import XCTest
@testable import Rulebench

/// The game's one history (`Kernel/history.lua`): a fuzz run played in the
/// kernel and a `Game` driven step by step through its public operations
/// keep the same history for the same steps: the same entries and hashes,
/// the same cursor and the same turn counts, after every step. Both paths
/// call the same kernel code; this would fail if they came apart again.
final class KernelHistoryTests: XCTestCase {
    private static var configuration: Game.Configuration {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        return configuration
    }

    func testAFuzzRunAndAGameKeepTheSameHistoryAfterEveryStep() throws {
        var options = Fuzzer.Options(pack: FuzzLastTurnTests.turnback)
        options.configuration = Self.configuration
        options.setupOptions = ["bug": .bool(false)]
        options.search = .uniform
        options.depth = 60
        let fuzzer = Fuzzer(options: options)
        var kinds: Set<String> = []
        for choices in UInt64(1)...8 {
            let steps = fuzzer.generate(gameSeed: 0, choiceSeed: choices).0.steps
            let stepped = try Game(pack: FuzzLastTurnTests.turnback, options: options.setupOptions,
                                   configuration: Self.configuration)
            let run = try Game(pack: FuzzLastTurnTests.turnback, options: options.setupOptions,
                               configuration: Self.configuration)
            for count in 1...steps.count {
                try play(steps[count - 1], in: stepped)
                kinds.insert(kind(of: steps[count - 1]))
                // The same steps so far, as one fuzz run in the kernel.
                try run.restart(seed: 0, options: options.setupOptions)
                let reply = try run.play(Kernel.RunRequest(program: Array(steps[..<count]), depth: count))
                XCTAssertNil(reply.finding, "seed \(choices), step \(count)")
                assertSameHistory(run.history, stepped.history, "seed \(choices), step \(count): \(steps[count - 1])")
            }
        }
        XCTAssertTrue(kinds.isSuperset(of: ["perform", "undo", "redo", "undoLastTurn"]), "the runs cover the kinds of step: \(kinds)")
    }

    private func assertSameHistory(_ run: History, _ game: History, _ context: String, line: UInt = #line) {
        XCTAssertEqual(run.initialHash, game.initialHash, context, line: line)
        XCTAssertEqual(run.cursor, game.cursor, context, line: line)
        XCTAssertEqual(run.entries.map(\.call), game.entries.map(\.call), context, line: line)
        XCTAssertEqual(run.entries.map(\.hash), game.entries.map(\.hash), context, line: line)
        XCTAssertEqual(run.entries.map(\.isCheckpoint), game.entries.map(\.isCheckpoint), context, line: line)
        XCTAssertEqual(run.undosToLastCheckpoint, game.undosToLastCheckpoint, context, line: line)
        XCTAssertEqual(run.undosToLastTurn, game.undosToLastTurn, context, line: line)
        XCTAssertEqual(run.currentHash, game.currentHash, context, line: line)
    }

    private func kind(of step: FuzzStep) -> String {
        switch step {
        case .perform, .attempt: return "perform"
        case .undo: return "undo"
        case .redo: return "redo"
        case .undoTurn: return "undoTurn"
        case .undoLastTurn: return "undoLastTurn"
        }
    }

    /// A step as the fuzz loop plays it, through Game's public operations.
    private func play(_ step: FuzzStep, in game: Game) throws {
        switch step {
        case .perform(let call), .attempt(let call):
            do { try game.perform(call) } catch {
                guard case .rejected = error else { throw error }
            }
        case .undo(let n): for _ in 0..<min(n, game.history.cursor) { try game.undo() }
        case .redo(let n): for _ in 0..<min(n, game.history.entries.count - game.history.cursor) { try game.redo() }
        case .undoTurn: if game.history.cursor > 0 { try game.undoTurn() }
        case .undoLastTurn: if game.history.cursor > 0 { try game.undoLastTurn() }
        }
    }
}
