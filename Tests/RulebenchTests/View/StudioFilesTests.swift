import Foundation
import XCTest
@testable import Rulebench

/// What a host showing a game keeps and serves: an extending pack's
/// inherited files, the states kept by position, the keyframes' lookups,
/// and which files are the pack's (the reload watch).
final class StudioFilesTests: XCTestCase {
    /// A base pack with art and sounds, and a pack extending it with art of its own.
    private func extendingPack() throws -> (base: URL, child: URL) {
        let root = try scratchFolder("extends-files")
        let base = root.appendingPathComponent("base"), child = root.appendingPathComponent("child")
        for folder in [base.appendingPathComponent("actions"), base.appendingPathComponent("art"),
                       base.appendingPathComponent("sounds"), child.appendingPathComponent("art")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try """
        return { name = "base", setup = function(game) game.n = 0 end,
                 view = { sounds = "sounds", scene = function(game, add) add{ id = "a", x = 1, y = 1, image = "art/pawn.svg" } end } }
        """.write(to: base.appendingPathComponent("pack.lua"), atomically: true, encoding: .utf8)
        try "return { apply = function(game) game.n = game.n + 1 end }"
            .write(to: base.appendingPathComponent("actions/inc.lua"), atomically: true, encoding: .utf8)
        for (folder, name) in [(base, "art/pawn.svg"), (base, "art/board.svg"), (child, "art/board.svg"), (base, "sounds/ding.wav")] {
            try "\(folder.lastPathComponent) \(name)".write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try "return { name = \"child\", extends = \"base\" }".write(to: child.appendingPathComponent("pack.lua"), atomically: true, encoding: .utf8)
        return (base, child)
    }

    func testAnExtendingPacksInheritedArtAndSoundsAreFoundInItsBase() throws {
        let (base, child) = try extendingPack()
        let game = try Game(pack: child.path)
        let pawn = try XCTUnwrap(game.packFile("art/pawn.svg"))
        XCTAssertEqual(try String(contentsOf: pawn, encoding: .utf8), "base art/pawn.svg")
        XCTAssertEqual(try String(contentsOf: XCTUnwrap(game.packFile("art/board.svg")), encoding: .utf8), "child art/board.svg",
                       "the pack's own file comes first")
        let scene = try XCTUnwrap(try game.scene())
        XCTAssertEqual(try String(contentsOf: XCTUnwrap(game.soundFile(named: "ding", in: scene)), encoding: .utf8), "base sounds/ding.wav")
        XCTAssertNil(game.packFile("../base/art/pawn.svg"))
        // A link in the base pack pointing out of it is not served.
        let outside = try scratchFolder("extends-outside")
        try "secret".write(to: outside.appendingPathComponent("s.svg"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: base.appendingPathComponent("art/leak.svg"), withDestinationURL: outside.appendingPathComponent("s.svg"))
        XCTAssertNil(game.packFile("art/leak.svg"))
    }

    /// A history saved beside the pack is not a change of the pack: the reload watch does not see it.
    func testAHistorySavedBesideThePackIsNotAPackFile() throws {
        let (_, child) = try extendingPack()
        let game = try Game(pack: child.path)
        let before = game.packFileTimes()
        try game.save("game.json", inside: child)
        try "scenario: x".write(to: child.appendingPathComponent("notes.yaml"), atomically: true, encoding: .utf8)
        XCTAssertEqual(game.packFileTimes(), before)
        try "return {}".write(to: child.appendingPathComponent("helper.lua"), atomically: true, encoding: .utf8)
        XCTAssertNotEqual(game.packFileTimes(), before, "a module is a pack file")
    }

    /// The memory of positions keeps a bounded number of states however many moves are made.
    func testPositionMemoryKeepsAFixedNumberOfStates() throws {
        let game = try Game(pack: EngineFixtures.folder.appendingPathComponent("lab").path)
        var memory = PositionMemory()
        try memory.observe(game)
        for _ in 0..<20 {
            try game.perform("inc")
            try memory.observe(game)
            XCTAssertLessThanOrEqual(memory.states.count, 3, "three positions at most, not one per move")
            XCTAssertLessThanOrEqual(memory.scenes.count, 3)
        }
        // A position left behind is learnt again, exactly, with the one before it.
        memory.record(try game.seek(to: 5))
        try memory.observe(game)
        XCTAssertEqual(memory.states[5], try game.state())
        XCTAssertNotNil(memory.states[4])
        XCTAssertLessThanOrEqual(memory.states.count, 3)
        memory.record(try game.seek(to: 4))
        XCTAssertEqual(memory.states[4], try game.state(), "the state kept for a position is that position's")
    }

    /// Keyframes find nodes and their events by id: every node's track is built
    /// from one index of each scene and one grouping of the events.
    func testKeyframesLookNodesUpByID() throws {
        let count = 20_000
        let before = Scene(width: 100, height: 100, nodes: (0..<count).map { SceneNode(id: "n\($0)", x: Double($0 % 100), y: 0) })
        var after = before
        after.nodes.removeFirst()
        after.nodes.append(SceneNode(id: "new", x: 5, y: 5))
        let events = (0..<count).map { index in
            TimelineEvent(start: 0, end: 1, leaf: .tween(AnimationPlan.Tween(target: "n\(index)", property: "opacity",
                                                                            from: .double(1), to: .double(0.5), duration: 1)),
                          actionPath: "move", source: nil)
        }
        let timeline = Timeline(events: events, duration: 1)
        let context = TrackContext(timeline: timeline, opening: false, placeProperties: [], places: [:])
        XCTAssertEqual(context.eventsByTarget.count, count, "the events are grouped by target once")
        XCTAssertEqual(context.events(of: "n7").count, 1)
        let keyframes = PlanKeyframes(timeline: timeline, before: before, after: after)
        XCTAssertEqual(keyframes.tracks.count, count + 1)
        XCTAssertEqual(keyframes.tracks.first?.id, "n1")
        XCTAssertEqual(keyframes.tracks.last?.id, "n0", "a node only the before scene has comes last")
        XCTAssertNil(keyframes.tracks.last?.after)
        XCTAssertEqual(keyframes.tracks[count - 1].id, "new")
        XCTAssertNil(keyframes.tracks[count - 1].before)
        XCTAssertEqual(keyframes.tracks[9].after?.id, "n10")
        XCTAssertFalse(keyframes.tracks[9].opacity.isEmpty, "its event was found by its id")
        XCTAssertEqual(keyframes.tracks[count - 1].opacity.map(\.value), [0, 1],
                       "a node no event targets has no keys of its own, only its fade-in over the step")
    }
}
