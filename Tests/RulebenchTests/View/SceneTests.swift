import XCTest
@testable import Rulebench

/// The scenes of packs' views (`view` in pack.lua, Kernel/view.lua, Kernel/Scene.swift).
final class SceneTests: XCTestCase {
    static func game(_ pack: String, options: [String: StateValue] = [:], seed: Int64 = 0) throws -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        return try Game(pack: EngineFixtures.repository.appendingPathComponent(pack).path, options: options, seed: seed,
                        configuration: configuration)
    }

    func testAPackWithoutAViewHasNoScene() throws {
        let game = try EngineFixtures.labGame()
        XCTAssertNil(try game.scene())
        XCTAssertNil(try game.keyframes(of: nil, from: nil))
    }

    /// A scene reply the view would never send is an internal error naming
    /// the call and the field, as every other kernel reply is; absent
    /// fields take the view's defaults.
    func testAMalformedSceneReplyIsAnInternalErrorNamingTheField() throws {
        func scene(_ value: StateValue) throws -> Scene {
            try Scene(kernelReply: KernelReply(.scene, Wire.encode(value)))
        }
        let grid: StateValue = .table([.string("columns"): .int(2), .string("rows"): .int(3), .string("cell"): .double(10.5)])
        let fine = try scene(.table([.string("grid"): grid,
                                     .string("nodes"): .list([.table([.string("id"): .string("a"), .string("col"): .int(2),
                                                                      .string("row"): .int(1)])])]))
        XCTAssertEqual(fine.grid, SceneGrid(columns: 2, rows: 3, cell: 10.5, gap: 0, x: 0, y: 0))
        XCTAssertEqual(fine.node("a")?.shape, .rect)
        let cases: [(StateValue, String)] = [
            (.table([.string("grid"): .table([.string("columns"): .int(2), .string("cell"): .string("big")])]), "'grid.cell'"),
            (.table([.string("grid"): .table([.string("columns"): .double(2.5)])]), "'grid.columns'"),
            (.table([.string("nodes"): .list([.table([.string("id"): .int(7)])])]), "'1.id'"),
            (.table([.string("nodes"): .list([.table([.string("id"): .string("n"), .string("shape"): .string("star")])])]),
             "'1.shape'"),
            (.table([.string("places"): .list([.int(1)])]), "'places.1'"),
        ]
        for (value, field) in cases {
            XCTAssertThrowsError(try scene(value), field) { error in
                XCTAssertTrue("\(error)".contains("internal error in the engine: the reply of 'scene' has field \(field)"), "\(error)")
            }
        }
    }

    func testTheTemplatesSceneFollowsItsState() throws {
        let game = try Self.game("rules/template")
        let scene = try XCTUnwrap(try game.scene())
        XCTAssertEqual(scene.grid, SceneGrid(columns: 10, rows: 2, cell: 48, gap: 4, x: 8, y: 8))
        let token = try XCTUnwrap(scene.node("token:p2"))
        XCTAssertEqual(token.point, ScenePoint(x: 32, y: 84))
        XCTAssertEqual(token.shape, .circle)
        XCTAssertEqual(token.layer, 1)
        XCTAssertEqual(scene.node("moves")?.text, "moves: 0")
        XCTAssertEqual(scene.nodes.count, 2 * 10 + 2 + 1)
        _ = try game.perform("step", ["token": "p2"])
        let moved = try XCTUnwrap(try game.scene())
        XCTAssertEqual(moved.node("token:p2")?.point, ScenePoint(x: 84, y: 84))
        XCTAssertEqual(moved.node("moves")?.text, "moves: 1")
    }

    /// The scene is a pure function of the state: the same state gives the same JSON, in another game too.
    func testTheSameStateGivesTheSameSceneText() throws {
        let a = try Self.game("rules/template"), b = try Self.game("rules/template")
        _ = try a.perform("step", ["token": "p1"])
        _ = try b.perform("dash", ["token": "p2"])
        _ = try b.undo()
        _ = try b.perform("step", ["token": "p1"])
        XCTAssertEqual(try XCTUnwrap(try a.scene()).json(), try XCTUnwrap(try b.scene()).json())
    }

    /// A dash is two steps in sequence after the token's crouch: the token
    /// hops square by square, each step eased, through square 2.
    func testADashHopsSquareBySquare() throws {
        let game = try Self.game("rules/template")
        let before = try game.scene()
        let entry = try game.perform("dash", ["token": "p1"])
        let keys = try XCTUnwrap(try game.keyframes(of: entry.animation, from: before))
        let track = try XCTUnwrap(keys.track("token:p1"))
        func x(_ t: Double) throws -> Double { try XCTUnwrap(track.pose(at: t)).x }
        XCTAssertEqual(keys.duration, 0.2 + 0.25 + 0.25, accuracy: 1e-12)
        XCTAssertEqual(try x(0), 32)
        XCTAssertEqual(try x(0.2), 32)
        XCTAssertEqual(try x(0.2 + 0.125), 58, accuracy: 1e-9)   // easeInOut is half way at half time
        XCTAssertEqual(try x(0.45), 84, accuracy: 1e-9)
        XCTAssertEqual(try x(0.45 + 0.125), 110, accuracy: 1e-9)
        XCTAssertEqual(try x(0.7), 136, accuracy: 1e-9)
        XCTAssertEqual(keys.sounds.map(\.name), ["whoosh", "step", "step"])
        XCTAssertEqual(keys.sounds.map(\.time), [0, 0.2, 0.45])
    }

    /// The undo of a dash plays its mirrored plan: it starts where the do
    /// ended and ends where the do started, hopping back through square 2.
    func testAnUndoStartsWhereTheDoEnded() throws {
        let game = try Self.game("rules/template")
        let start = try game.scene()
        let entry = try game.perform("dash", ["token": "p1"])
        let done = try XCTUnwrap(try game.keyframes(of: entry.animation, from: start))
        let end = try game.scene()
        let outcome = try game.undo()
        let undone = try XCTUnwrap(try game.keyframes(of: outcome.animation, from: end))
        let d = done.duration
        XCTAssertEqual(undone.duration, d, accuracy: 1e-12)
        for t in [0, 0.1, 0.25, 0.325, 0.5, 0.7] {
            let forward = try XCTUnwrap(done.track("token:p1")?.pose(at: d - t)).x
            XCTAssertEqual(try XCTUnwrap(undone.track("token:p1")?.pose(at: t)).x, forward, accuracy: 1e-9, "at \(t)")
        }
        XCTAssertEqual(undone.track("token:p1")?.pose(at: 0)?.x, 136)
        XCTAssertEqual(undone.track("moves")?.pose(at: d)?.text, "moves: 0")
    }

    // MARK: The shipped packs

    /// A desert game of three whose first player holds a jetpack (as the
    /// scenario equipment-jetpack-flies-with-a-passenger sets it up).
    private func desertWithJetpack() throws -> Game {
        let game = try Self.game("rules/desert", options: ["players": 3, "shuffle": false])
        try game.setState(["jetpack"], at: "players.p1.gear")
        try game.setState(nil, at: "gear_deck.12")
        return game
    }

    /// The desert's jetpack: the flyer's pawn shows the flame frames of its
    /// atlas twice while the flight lasts, then stands again; both pawns fly
    /// eased from their places before to their places after; the cue, the
    /// sounds and the hand's new look come at their times; the undo starts
    /// where the flight ended.
    func testTheJetpackFlameStepsThroughThePawnAtlas() throws {
        let game = try desertWithJetpack()
        let before = try XCTUnwrap(try game.scene())
        XCTAssertEqual(before.atlas("pawn")?.names, ["stand", "flame1", "flame2", "flame3"])
        let entry = try game.perform("jetpack", ["player": "p1", "to": "e5", "passenger": "p3"])
        let after = try XCTUnwrap(try game.scene())
        let keys = try XCTUnwrap(try game.keyframes(of: entry.animation, from: before))
        XCTAssertEqual(keys.duration, 0.35, accuracy: 1e-12)
        let flyer = try XCTUnwrap(keys.track("pawn:p1"))
        let step = 0.175 / 3
        let frames = [0, step, 2 * step, 0.175, 0.175 + step, 0.35].map { flyer.pose(at: $0 + 1e-9)?.sprite?.frame }
        XCTAssertEqual(frames, [2, 3, 4, 2, 3, 1])
        for id in ["pawn:p1", "pawn:p3"] {
            let from = try XCTUnwrap(before.node(id)).point, to = try XCTUnwrap(after.node(id)).point
            XCTAssertNotEqual(from, to)
            let track = try XCTUnwrap(keys.track(id))
            XCTAssertEqual(track.pose(at: 0)?.point, from)
            let middle = try XCTUnwrap(track.pose(at: 0.175)).point
            XCTAssertEqual(middle.x, (from.x + to.x) / 2, accuracy: 1e-9)
            XCTAssertEqual(middle.y, (from.y + to.y) / 2, accuracy: 1e-9)
            XCTAssertEqual(track.pose(at: 0.35)?.point, to)
        }
        XCTAssertEqual(keys.cues.map(\.name), ["jet_flame"])
        XCTAssertEqual(keys.cues.first?.time, 0)
        XCTAssertEqual(keys.sounds.map(\.name), ["jetpack", "step", "step", "card"])
        let hand = try XCTUnwrap(keys.track("hand:p1"))
        XCTAssertTrue(hand.pose(at: 0.2499)?.text?.hasSuffix("jetpack") == true)
        XCTAssertTrue(hand.pose(at: 0.25)?.text?.hasSuffix("no gear") == true)
        let undone = try XCTUnwrap(try game.keyframes(of: try game.undo().animation, from: after))
        XCTAssertEqual(undone.track("pawn:p1")?.pose(at: 0)?.point, after.node("pawn:p1")?.point)
        XCTAssertEqual(undone.track("pawn:p1")?.pose(at: 0.35)?.point, before.node("pawn:p1")?.point)
    }

    /// The desert's board: 24 tiles and the storm on the grid, a pawn per
    /// player, the panel; tiles face down until excavated.
    func testTheDesertsScene() throws {
        let game = try Self.game("rules/desert", options: ["players": 3, "shuffle": false])
        let scene = try XCTUnwrap(try game.scene())
        XCTAssertEqual(scene.nodes.filter { $0.id.hasPrefix("tile:") }.count, 24)
        XCTAssertEqual(scene.node("storm")?.col, 3)
        XCTAssertEqual(scene.node("storm")?.row, 3)
        XCTAssertEqual(scene.nodes.filter { $0.id.hasPrefix("pawn:") }.map(\.id), ["pawn:p1", "pawn:p2", "pawn:p3"])
        XCTAssertEqual(scene.node("tile:t1")?.image, "art/tile-back.svg")
        XCTAssertEqual(scene.node("tile:t1")?.text, "crash site", "the crash site's back shows the wreck")
        XCTAssertEqual(scene.placeProperties, ["cell", "holder"])
        XCTAssertEqual(scene.sounds, "sounds")
        XCTAssertEqual(PackChecker.missingFiles(scene, game: game), [])
        // The view's `movable = true` reaches the scene on pawns alone (the studio drags nothing else).
        XCTAssertEqual(scene.nodes.filter(\.movable).map(\.id), ["pawn:p1", "pawn:p2", "pawn:p3"])
        XCTAssertTrue(try XCTUnwrap(scene.json()).contains("\"movable\":true"))
    }

    /// The set pack ships the sounds its actions play (swish, card): none is missing.
    func testTheSetPacksSoundsAreItsOwnFiles() throws {
        let game = try Self.game("rules/set")
        let scene = try XCTUnwrap(try game.scene())
        XCTAssertEqual(scene.sounds, "sounds")
        XCTAssertEqual(PackChecker.missingFiles(scene, game: game), [])
        for name in ["swish", "card"] {
            XCTAssertEqual(game.soundFile(named: name, in: scene)?.lastPathComponent, "\(name).wav")
        }
        XCTAssertFalse(scene.nodes.contains(where: \.movable), "a set is picked, not dragged")
    }

    /// The cards pack's deal: six draws a tenth of a second apart, each card
    /// flying from the deck to its place in a hand and turning face up when
    /// it lands.
    func testTheCardsDealIsStaggeredAndTurnsCardsFaceUp() throws {
        let game = try Self.game("rules/cards")
        let before = try XCTUnwrap(try game.scene())
        XCTAssertEqual(before.nodes.filter { $0.sprite?.frame == 1 }.count, 12, "the deck face down")
        let entry = try game.perform("deal")
        let keys = try XCTUnwrap(try game.keyframes(of: entry.animation, from: before))
        let after = try XCTUnwrap(try game.scene())
        let moved = keys.tracks.filter { !$0.place.isEmpty }
        XCTAssertEqual(moved.count, 6)
        let starts = moved.map { $0.place.first?.time ?? -1 }.sorted()
        for (start, expected) in zip(starts, [0, 0.1, 0.2, 0.3, 0.4, 0.5]) { XCTAssertEqual(start, expected, accuracy: 1e-12) }
        for track in moved {
            let start = try XCTUnwrap(track.place.first?.time)
            XCTAssertEqual(track.pose(at: start)?.point, before.node(track.id)?.point)
            XCTAssertEqual(track.pose(at: start)?.sprite?.frame, 1)
            XCTAssertEqual(track.pose(at: start + 0.25)?.point, after.node(track.id)?.point)
            XCTAssertNotEqual(track.pose(at: start + 0.25)?.sprite?.frame, 1)
        }
    }

    /// The set pack's opening: the twelve cards leave the deck 0.05 s apart
    /// (each shown from its flight's start, at the deck); the deck is there from the start.
    func testTheSetOpeningDealsFromTheDeck() throws {
        let game = try Self.game("rules/set")
        let keys = try XCTUnwrap(try game.keyframes(of: game.openingAnimation, from: nil))
        let scene = try XCTUnwrap(try game.scene())
        let deck = try XCTUnwrap(scene.node("deck")).point
        XCTAssertNil(keys.track("deck")?.appear)
        let cards = scene.nodes.filter { $0.id.hasPrefix("card:") }
        XCTAssertEqual(cards.count, 12)
        for (index, card) in cards.enumerated() {
            let track = try XCTUnwrap(keys.track(card.id))
            let start = Double(index) * 0.05
            XCTAssertEqual(try XCTUnwrap(track.appear), start, accuracy: 1e-12)
            XCTAssertEqual(track.pose(at: start)?.point, deck)
            XCTAssertEqual(track.pose(at: start + 0.3)?.point, card.point)
        }
    }

    /// Files a host may serve: only those inside the pack folder.
    func testPackFilesStayInsideThePack() throws {
        let game = try Self.game("rules/desert")
        let scene = try XCTUnwrap(try game.scene())
        XCTAssertEqual(game.soundFile(named: "dig", in: scene)?.lastPathComponent, "dig.wav")
        XCTAssertNil(game.soundFile(named: "no_such_sound", in: scene))
        XCTAssertNotNil(game.packFile("art/pawn.svg"))
        for path in ["../desert/pack.lua", "art/../pack.lua", "/etc/passwd", "", "art", "art//pawn.svg", "art\\pawn.svg"] {
            XCTAssertNil(game.packFile(path), path)
        }
    }

    /// Clicking a node narrows the legal calls to those that name it: by the
    /// part of its id after its kind (`pawn:p2`: `player=p2`) or by an alias
    /// (a desert tile's cell, a set card's place).
    func testACallNamesTheNodesItsParamsName() throws {
        let game = try Self.game("rules/desert", options: ["players": 3, "shuffle": false])
        let scene = try XCTUnwrap(try game.scene())
        let move = ActionCall("move", ["player": "p1", "to": "b1"])
        XCTAssertTrue(try XCTUnwrap(scene.node("pawn:p1")).isNamed(by: move))
        XCTAssertFalse(try XCTUnwrap(scene.node("pawn:p2")).isNamed(by: move))
        XCTAssertEqual(scene.node("tile:t2")?.aliases, ["b1"])
        XCTAssertTrue(try XCTUnwrap(scene.node("tile:t2")).isNamed(by: move))
        XCTAssertFalse(try XCTUnwrap(scene.node("tile:t1")).isNamed(by: move))
        let set = try Self.game("rules/set")
        let cards = try XCTUnwrap(try set.scene()).nodes.filter { $0.id.hasPrefix("card:") }
        let take = ActionCall("take", ["a": 1, "b": 5, "c": 9])
        XCTAssertEqual(cards.filter { $0.isNamed(by: take) }.map(\.aliases), [["1"], ["5"], ["9"]])
    }
}
