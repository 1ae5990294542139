import XCTest
@testable import Rulebench

/// The desert pack, driven through the `Game` API: setup, rules, whole games
/// with undo and redo of every step, determinism.
final class DesertPackTests: XCTestCase {
    static let repository = TestPaths.repository
    static let pack = repository.appendingPathComponent("rules/desert").path

    func game(_ options: [String: StateValue] = [:], seed: Int64 = 1) throws -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        return try Game(pack: Self.pack, options: options, seed: seed, configuration: configuration)
    }

    func value(_ game: Game, _ path: String) throws -> StateValue? {
        try game.state(at: StatePath(parsing: path))
    }

    func set(_ game: Game, _ path: String, _ value: StateValue?) throws {
        try game.setState(value, at: StatePath(parsing: path))
    }

    /// The deterministic picker of the issue: legal[(step * 7919) % count].
    func pick(_ legal: [ActionCall], _ step: Int) -> ActionCall {
        legal[(step * 7919) % legal.count]
    }

    struct Playout {
        var steps = 0
        var result: String?
        var reason: String?
        var hashes: [String] = []
        var names: Set<String> = []
    }

    /// Plays until no action is legal (the game ended) or `limit` steps,
    /// undoing and redoing every step and checking the hashes.
    /// `patient`: the current player ends the turn only after 10 other steps
    /// (or when nothing else is legal), so games last longer and use more rules.
    func play(_ game: Game, limit: Int = 4000, undoRedo: Bool = true, patient: Bool = false,
              file: StaticString = #filePath, line: UInt = #line) throws -> Playout {
        var out = Playout()
        var sinceTurn = 0
        for step in 1...limit {
            let legal = try game.legalActions()
            if legal.isEmpty { break }
            var call = pick(legal, step)
            if patient {
                let others = legal.filter { $0.name != "end_turn" }
                if sinceTurn >= 10 || others.isEmpty {
                    call = legal.first { $0.name == "end_turn" } ?? call
                } else {
                    call = pick(others, step)
                }
                sinceTurn = call.name == "end_turn" ? 0 : sinceTurn + 1
            }
            let before = game.stateHash
            let entry: HistoryEntry
            do {
                entry = try game.perform(call)
            } catch {
                XCTFail("step \(step): legal action \(call) failed: \(error)", file: file, line: line)
                throw error
            }
            out.names.insert(call.name)
            if undoRedo {
                do {
                    let undone = try game.undo()
                    XCTAssertEqual(undone.hash, before, "undo of \(call) at step \(step)", file: file, line: line)
                    let redone = try game.redo()
                    XCTAssertEqual(redone.hash, entry.hash, "redo of \(call) at step \(step)", file: file, line: line)
                } catch {
                    XCTFail("step \(step): undo/redo of \(call) failed: \(error)", file: file, line: line)
                    throw error
                }
            }
            out.hashes.append(game.stateHash.hex)
            out.steps = step
        }
        out.result = try value(game, "result")?.stringValue
        out.reason = try value(game, "reason")?.stringValue
        return out
    }

    // MARK: Setup

    func testSetupBuildsTheDesert() throws {
        let game = try game(["players": 3], seed: 5)
        XCTAssertEqual(try value(game, "storm"), "c3")
        XCTAssertNil(try value(game, "board.c3"))
        XCTAssertEqual(try value(game, "sand"), 40)
        XCTAssertEqual(try value(game, "meter.level"), 2)
        XCTAssertEqual(try value(game, "meter.track.1"), 2)
        XCTAssertEqual(try value(game, "storm_deck")?.listItems?.count, 31)
        XCTAssertEqual(try value(game, "gear_deck")?.listItems?.count, 12)
        XCTAssertEqual(try value(game, "order")?.listItems?.count, 3)
        for cell in ["c1", "b2", "d2", "a3", "e3", "b4", "d4", "c5"] {
            let id = try XCTUnwrap(try value(game, "board.\(cell)")?.stringValue)
            XCTAssertEqual(try value(game, "tiles.\(id).sand"), 1, cell)
        }
        let crashTile = try XCTUnwrap(try (1...24).map { "t\($0)" }.first { try value(game, "faces.\($0)") == "crash" })
        let crash = try value(game, "tiles.\(crashTile).cell")
        XCTAssertEqual(try value(game, "players.p1.cell"), crash)
        XCTAssertEqual(try value(game, "players.p1.role"), "archeologist")
        XCTAssertEqual(try value(game, "players.p1.water"), 3)
        XCTAssertEqual(try value(game, "players.p3.role"), "explorer")
        XCTAssertEqual(try value(game, "players.p3.canteen"), 4)
        XCTAssertTrue(try game.render().contains("STORM"))
        try game.checkInvariants()
    }

    func testOptionsPickRolesDifficultyAndTrack() throws {
        let game = try game(["players": 5, "difficulty": "legendary",
                             "roles": ["water_carrier", "climber", "navigator", "explorer", "meteorologist"]])
        XCTAssertEqual(try value(game, "meter.level"), 4)
        XCTAssertEqual(try value(game, "meter.track")?.listItems?.count, 15)
        XCTAssertEqual(try value(game, "players.p1.canteen"), 5)
        XCTAssertEqual(try value(game, "players.p5.role"), "meteorologist")
        XCTAssertThrowsError(try self.game(["players": 6]))
        XCTAssertThrowsError(try self.game(["players": 2, "roles": ["climber", "climber"]]))
        XCTAssertThrowsError(try self.game(["players": 2, "roles": ["climber", "pilot"]]))
        XCTAssertThrowsError(try self.game(["difficulty": "impossible"]))
    }

    func testFixedLayoutWithoutShuffle() throws {
        let game = try game(["shuffle": false])
        XCTAssertEqual(try value(game, "board.a1"), "t1")
        XCTAssertEqual(try value(game, "faces.t1"), "crash")
        XCTAssertEqual(try value(game, "board.e1"), "t5")
        XCTAssertEqual(try value(game, "faces.t5"), "pad")
        XCTAssertEqual(try value(game, "board.e5"), "t24")
        XCTAssertEqual(try value(game, "faces.t24"), "compass_col")
        XCTAssertEqual(try value(game, "tiles.t2.back"), "water")
        XCTAssertEqual(try value(game, "tiles.t5.back"), "sand")
        XCTAssertEqual(try value(game, "storm_deck.1"), "wind_north_1")
        XCTAssertEqual(try value(game, "gear_deck.1"), "dune_blaster")
    }

    // MARK: Rules

    func testMoveRemoveSandExcavateAndUndo() throws {
        let game = try game(["shuffle": false])
        let start = game.stateHash
        // p1 (archeologist) at a1; b1 is well1, a2 tunnel1.
        try game.perform("move", ["player": "p1", "to": "b1"])
        XCTAssertEqual(try value(game, "players.p1.cell"), "b1")
        XCTAssertEqual(try value(game, "turn.actions"), 3)
        XCTAssertThrowsError(try game.perform("move", ["player": "p1", "to": "d1"])) { error in
            guard case .rejected(let reason, _) = error as? RulebenchError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("not adjacent"), reason)
        }
        try game.perform("remove_sand", ["player": "p1", "at": "c1"])
        XCTAssertEqual(try value(game, "tiles.t3.sand"), 0)
        try game.perform("excavate", ["player": "p1"])
        XCTAssertEqual(try value(game, "tiles.t2.excavated"), true)
        XCTAssertEqual(try value(game, "players.p1.water"), 3, "a full canteen stays full")
        try game.rewind()
        XCTAssertEqual(game.stateHash, start)
    }

    func testInternalActionsCannotBeCalledDirectly() throws {
        let game = try game()
        for (name, params) in [("slide", ["direction": StateValue.string("north")]), ("next_turn", [:]),
                               ("relocate", ["player": "p1", "to": "a1"]), ("draw_storm", [:])] {
            XCTAssertThrowsError(try game.perform(name, params)) { error in
                guard case .rejected(let reason, _) = error as? RulebenchError else { return XCTFail("\(error)") }
                XCTAssertTrue(reason.contains("part of another action"), reason)
            }
        }
    }

    func testEndTurnDrawsStormCardsAsSubactions() throws {
        let game = try game(["shuffle": false, "difficulty": "novice"])
        try set(game, "storm_deck.1", "wind_north_2")
        try set(game, "storm_deck.2", "sun_beats_down")
        let entry = try game.perform("end_turn", ["player": "p1"])
        XCTAssertEqual(entry.subactions.subactionNames, ["draw_storm", "draw_storm", "next_turn"])
        XCTAssertEqual(entry.subactions.subactions[0].subactionNames, ["slide", "add_sand", "slide", "add_sand"])
        XCTAssertEqual(entry.subactions.subactions[1].subactionNames, ["sun_beats_down"])
        XCTAssertTrue(entry.isCheckpoint)
        XCTAssertEqual(try value(game, "storm"), "c1")
        XCTAssertEqual(try value(game, "board.c3"), "t8")
        XCTAssertEqual(try value(game, "tiles.t3.sand"), 2)
        XCTAssertEqual(try value(game, "turn.player"), "p2")
        XCTAssertEqual(try value(game, "players.p1.water"), 2)
        let undone = try game.undo()
        XCTAssertEqual(undone.hash, game.history.initialHash)
    }

    func testLaunchWinsAndEndsTheGame() throws {
        let game = try game(["shuffle": false])
        for part in ["propeller", "engine", "crystal", "compass"] {
            try set(game, "parts.\(part).holder", "p1")
        }
        try set(game, "tiles.t5.excavated", true)
        try set(game, "players.p1.cell", "e1")
        XCTAssertThrowsError(try game.perform("launch", ["player": "p1"]))
        try set(game, "players.p2.cell", "e1")
        try game.perform("launch", ["player": "p1"])
        XCTAssertEqual(try value(game, "result"), "won")
        XCTAssertEqual(try game.legalActions().count, 0)
        XCTAssertThrowsError(try game.perform("end_turn", ["player": "p1"]))
        try game.undo()
        XCTAssertNil(try value(game, "result"))
        XCTAssertTrue(try game.legalActions().contains { $0.name == "launch" })
    }

    // MARK: Whole games

    /// Random playouts from fixed seeds with undo and redo of every step
    /// (strict mode reports any undo bug as `.undoMismatch`).
    func testPlayoutsUndoAndRedoEveryStep() throws {
        let setups: [(Int64, [String: StateValue])] = [
            (1, [:]),
            (2, ["players": 3]),
            (3, ["players": 4, "roles": ["navigator", "meteorologist", "water_carrier", "climber"]]),
            (4, ["players": 5, "roles": ["explorer", "water_carrier", "climber", "navigator", "archeologist"], "difficulty": "novice"]),
            (5, ["players": 2, "roles": ["meteorologist", "water_carrier"], "difficulty": "elite"]),
        ]
        var names: Set<String> = []
        for (seed, options) in setups {
            for patient in [false, true] {
                let game = try self.game(options, seed: seed)
                let run = try play(game, limit: 1500, patient: patient)
                names.formUnion(run.names)
                let initial = game.history.initialHash
                try game.rewind()
                XCTAssertEqual(game.stateHash, initial, "seed \(seed): rewinding gives the initial state")
            }
        }
        for expected in ["move", "remove_sand", "excavate", "end_turn", "give_water", "navigate", "jetpack", "dune_blaster"] {
            XCTAssertTrue(names.contains(expected), "playouts used \(expected)")
        }
    }

    /// Several games played to their end: afterwards nothing is legal.
    func testGamesPlayToAnEnd() throws {
        var outcomes: [String] = []
        for seed: Int64 in 10...17 {
            let players = Int64(2 + seed % 4)
            let game = try game(["players": .int(players)], seed: seed)
            let run = try play(game, limit: 20000, undoRedo: false, patient: seed % 2 == 0)
            let result = try XCTUnwrap(run.result, "seed \(seed) ended after \(run.steps) steps")
            XCTAssertTrue(result == "won" || result == "lost")
            XCTAssertEqual(try game.legalActions().count, 0, "nothing is legal once the game is over")
            try game.checkInvariants()
            outcomes.append("\(result): \(run.reason ?? "")")
        }
        XCTAssertEqual(outcomes.count, 8)
    }

    func testSameSeedGivesIdenticalHashes() throws {
        let a = try play(try game(["players": 3], seed: 42), limit: 300, undoRedo: false, patient: true)
        let b = try play(try game(["players": 3], seed: 42), limit: 300, undoRedo: false, patient: true)
        XCTAssertEqual(a.hashes, b.hashes)
        XCTAssertFalse(a.hashes.isEmpty)
        let c = try play(try game(["players": 3], seed: 43), limit: 300, undoRedo: false, patient: true)
        XCTAssertNotEqual(a.hashes, c.hashes)
    }
}
