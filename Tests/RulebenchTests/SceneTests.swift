import XCTest
@testable import Rulebench

/// The scenes of packs' views (`view` in pack.lua, Kernel/view.lua, View/Scene.swift).
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

    func testTheTemplatesSceneFollowsItsState() throws {
        let game = try Self.game("rules/template")
        let scene = try XCTUnwrap(try game.scene())
        XCTAssertEqual(scene.grid, SceneGrid(columns: 10, rows: 3, cell: 48, gap: 4))
        let token = try XCTUnwrap(scene.node("token:p2"))
        XCTAssertEqual(token.point, ScenePoint(x: 24, y: 52 + 24))
        XCTAssertEqual(token.shape, .circle)
        XCTAssertEqual(token.layer, 1)
        XCTAssertEqual(scene.node("moves")?.text, "moves: 0")
        XCTAssertEqual(scene.nodes.count, 2 * 10 + 2 + 1)
        _ = try game.perform("step", ["token": "p2"])
        let moved = try XCTUnwrap(try game.scene())
        XCTAssertEqual(moved.node("token:p2")?.point, ScenePoint(x: 52 + 24, y: 52 + 24))
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
        XCTAssertEqual(try x(0), 24)
        XCTAssertEqual(try x(0.2), 24)
        XCTAssertEqual(try x(0.2 + 0.125), 50, accuracy: 1e-9)   // easeInOut is half way at half time
        XCTAssertEqual(try x(0.45), 76, accuracy: 1e-9)
        XCTAssertEqual(try x(0.45 + 0.125), 102, accuracy: 1e-9)
        XCTAssertEqual(try x(0.7), 128, accuracy: 1e-9)
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
        XCTAssertEqual(undone.track("token:p1")?.pose(at: 0)?.x, 128)
        XCTAssertEqual(undone.track("moves")?.pose(at: d)?.text, "moves: 0")
    }
}
