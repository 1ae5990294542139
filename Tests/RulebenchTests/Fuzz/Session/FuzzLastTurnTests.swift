import XCTest
@testable import Rulebench

/// The fuzzer's `undo: last turn` step (`FuzzStep.undoLastTurn`): chosen in
/// games with checkpoints, undone in the kernel exactly as
/// `Game.undoLastTurn` undoes, written into reproductions and corpora, and
/// the only step that reaches a bug shown by taking back a whole turn (the
/// `turnback` fixture: rewinding at a run's end does not judge animations).
final class FuzzLastTurnTests: XCTestCase {
    static let turnback = EngineFixtures.repository
        .appendingPathComponent("Tests/RulebenchTests/Fixtures/packs/turnback").path

    /// Counted from the start, so no operation runs twice (see PlantedBugTests.configuration).
    private static var configuration: Game.Configuration {
        var configuration = Game.Configuration()
        configuration.instructionBudget = 3_000_000
        configuration.printHandler = { _ in }
        return configuration
    }

    private func options(bug: Bool) -> Fuzzer.Options {
        var options = Fuzzer.Options(pack: Self.turnback)
        options.configuration = Self.configuration
        options.setupOptions = ["bug": .bool(bug)]
        options.search = .uniform
        return options
    }

    /// Runs in a pack whose turns end at checkpoints take back whole turns,
    /// and each take-back undoes what `Game.undoLastTurn` undoes.
    func testACheckpointedPackGetsUndoLastTurnStepsThatUndoAsGameDoes() throws {
        var options = options(bug: false)
        options.depth = 80
        let fuzzer = Fuzzer(options: options)
        var takenBack: [Int] = []
        for choices in UInt64(1)...6 {
            let (program, result) = fuzzer.generate(gameSeed: 0, choiceSeed: choices)
            XCTAssertNil(result.finding, "\(result.finding?.description ?? "")")
            let game = try Game(pack: Self.turnback, seed: 0, configuration: Self.configuration)
            for (index, step) in program.steps.enumerated() {
                if case .undoLastTurn = step {
                    let expected = game.history.undosToLastTurn
                    XCTAssertEqual(result.outcomes[index], .undone(expected), "step \(index + 1)")
                    takenBack.append(expected)
                    _ = try game.undoLastTurn()
                } else {
                    try replay(step, in: game)
                }
                XCTAssertEqual(game.stateHash, result.trace[index], "step \(index + 1): \(step)")
            }
        }
        XCTAssertFalse(takenBack.isEmpty, "no run took back a turn")
        XCTAssertTrue(takenBack.contains { $0 >= 4 }, "no run took back a whole turn (end_turn and its steps): \(takenBack)")
    }

    private func replay(_ step: FuzzStep, in game: Game) throws {
        switch step {
        case .perform(let call), .attempt(let call): _ = try? game.perform(call)
        case .undo(let n): for _ in 0..<min(n, game.history.cursor) { _ = try game.undo() }
        case .redo(let n): for _ in 0..<min(n, game.history.entries.count - game.history.cursor) { _ = try game.redo() }
        case .undoTurn: _ = try game.undoTurn()
        case .undoLastTurn: _ = try game.undoLastTurn()
        }
    }

    /// The planted bug (a step's undo animation plays forwards once
    /// end_turn was undone before it in one go) is found by a take-back of
    /// the last turn, and the reproduction fails again under `rulebench run`.
    /// Without the step (checked once, choose.lua's take-back taken out)
    /// neither search met it in 300 runs of 60 steps, session seeds 1-6.
    func testABugOnlyATakenBackTurnShowsIsFoundAndItsReproductionFailsAgain() throws {
        var options = options(bug: true)
        options.runs = 20
        options.depth = 60
        options.seed = 1
        let report = try XCTUnwrap(Fuzzer(options: options).run().reports.first, "not found in 20 runs")
        XCTAssertEqual(report.finding.property, .undoMirrorsDo)
        // The program as found, run again: its failing step is the take-back.
        let found = Fuzzer(options: options).executor.execute(report.original, checkLegality: false, finalChecks: false)
        let finding = try XCTUnwrap(found.finding, "the program as found fails again")
        let failing = report.original.steps[finding.stepIndex]
        XCTAssertEqual(failing, .undoLastTurn, "found by \(failing), not by a take-back of the last turn")
        // Shrunk as the other undo steps: the take-back becomes the `undo N`
        // it made (end_turn and the three or four steps before it).
        XCTAssertFalse(report.shrunk.steps.contains(.undoLastTurn), "\(report.shrunk.steps)")
        XCTAssertTrue(report.shrunk.steps.contains { if case .undo(let n) = $0 { return n >= 4 }; return false }, "\(report.shrunk.steps)")

        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-last-turn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // The unshrunk program, as found: its take-back is written `undo: last turn`.
        var unshrunk = report
        unshrunk.shrunk = report.original
        unshrunk.finding = finding
        unshrunk.outcomes = found.outcomes
        for (name, found) in [("found", unshrunk), ("shrunk", report)] {
            let text = Reproduction.scenario(for: found, packReference: Self.turnback, fuzzSeed: 1)
            if name == "found" { XCTAssertTrue(text.contains("  - undo: last turn\n    expect: { animation: { mirrored: true } }"), text) }
            let file = scratch.appendingPathComponent("\(name).yaml")
            try text.write(to: file, atomically: true, encoding: .utf8)
            let run = try RulebenchCommand.run(["run", file.path], in: scratch)
            XCTAssertEqual(run.status, 1, "\(name): \(run.output)")
            XCTAssertTrue(run.output.contains("animation.mirrored"), "\(name): \(run.output)")
        }
    }

    /// A corpus entry keeps the take-back as `{"undo": "last turn"}`, and
    /// entries written before it (counts, `"turn"`) still load.
    func testCorpusEntriesKeepTheTakeBackAndOldEntriesStillLoad() throws {
        let program = FuzzProgram(pack: "turnback", seed: 0, options: [:],
                                  steps: [.perform(ActionCall("step", [:])), .undoLastTurn, .undoTurn, .undo(1), .redo(1)])
        let text = Reproduction.encode(program, property: .undoRestores)
        XCTAssertTrue(text.contains("\"last turn\""), text)
        XCTAssertEqual(try Reproduction.decode(try JSONValue.parse(text)), program)
        let old = #"{"pack": "turnback", "seed": 0, "steps": [{"do": {"action": "step", "params": {}}}, {"undo": "turn"}, {"undo": 1}]}"#
        XCTAssertEqual(try Reproduction.decode(try JSONValue.parse(old)).steps,
                       [.perform(ActionCall("step", [:])), .undoTurn, .undo(1)])
        let bad = #"{"pack": "turnback", "seed": 0, "steps": [{"undo": "last turns"}]}"#
        XCTAssertThrowsError(try Reproduction.decode(try JSONValue.parse(bad))) {
            XCTAssertTrue("\(($0 as? Reproduction.DecodeError)?.reason ?? "")".contains("\"last turn\""), "\($0)")
        }
    }

    /// A take-back that undid nothing (at the start) is left out of a
    /// reproduction, where `undo: last turn` would fail with "nothing to undo";
    /// the shrinker offers the count it undid instead.
    func testATakeBackThatUndidNothingIsLeftOutOfItsReproduction() {
        XCTAssertEqual(Reproduction.stepLines(.undoLastTurn, outcome: .undone(0), isFailing: false, property: .undoRestores),
                       ["  # (undo last turn with nothing to undo)"])
        XCTAssertEqual(Reproduction.stepLines(.undoLastTurn, outcome: .undone(4), isFailing: false, property: .undoRestores),
                       ["  - undo: last turn"])
    }
}
