import XCTest
@testable import Rulebench

/// How a plan becomes keyframes per node (View/PlanKeyframes.swift,
/// View/NodeTrack.swift), at exact times, on scenes built by hand.
final class PlanKeyframesTests: XCTestCase {
    private func node(_ id: String, _ x: Double, _ y: Double, text: String? = nil, sprite: SceneSprite? = nil) -> SceneNode {
        SceneNode(id: id, x: x, y: y, text: text, sprite: sprite)
    }

    private func scene(_ nodes: [SceneNode], places: [String] = ["cell"], atlases: [SceneAtlas] = []) -> Scene {
        Scene(width: 400, height: 400, atlases: atlases, placeProperties: places, nodes: nodes)
    }

    private func move(_ target: String, _ from: String, _ to: String, _ duration: Double, delay: Double = 0,
                      easing: Easing = .linear) -> AnimationPlan {
        .tween(.init(target: target, property: "cell", from: .string(from), to: .string(to), duration: duration,
                     delay: delay, easing: easing))
    }

    private func point(_ keys: PlanKeyframes, _ id: String, _ t: Double, file: StaticString = #filePath,
                       line: UInt = #line) throws -> ScenePoint {
        try XCTUnwrap(keys.track(id)?.pose(at: t), "\(id) is not shown at \(t)", file: file, line: line).point
    }

    /// Two tweens in sequence pass through the place the view gives the value
    /// between them (not the straight line from start to end).
    func testASequenceGoesThroughThePlacesInBetween() throws {
        let plan = AnimationPlan.sequence([move("pawn", "a1", "b1", 1), move("pawn", "b1", "b2", 1, easing: .easeIn)])
        let places = [PlaceRequest(target: "pawn", property: "cell", value: "b1"): ScenePoint(x: 100, y: 0)]
        let keys = PlanKeyframes(timeline: Timeline(plan: plan), before: scene([node("pawn", 0, 0)]),
                                 after: scene([node("pawn", 100, 100)]), places: places)
        XCTAssertEqual(keys.duration, 2)
        XCTAssertEqual(try point(keys, "pawn", 0), ScenePoint(x: 0, y: 0))
        XCTAssertEqual(try point(keys, "pawn", 0.5), ScenePoint(x: 50, y: 0))
        XCTAssertEqual(try point(keys, "pawn", 1), ScenePoint(x: 100, y: 0))
        XCTAssertEqual(try point(keys, "pawn", 1.5), ScenePoint(x: 100, y: 25))   // easeIn: a quarter at half time
        XCTAssertEqual(try point(keys, "pawn", 2), ScenePoint(x: 100, y: 100))
        XCTAssertEqual(try point(keys, "pawn", 3), ScenePoint(x: 100, y: 100))
    }

    /// Without a place for the value in between, the route is cut in equal parts of the straight line.
    func testWithoutPlacesTheRouteIsCutEvenly() throws {
        let plan = AnimationPlan.sequence([move("pawn", "a", "b", 1), move("pawn", "b", "c", 1), move("pawn", "c", "d", 1)])
        let keys = PlanKeyframes(timeline: Timeline(plan: plan), before: scene([node("pawn", 0, 0)]),
                                 after: scene([node("pawn", 90, 0)]))
        XCTAssertEqual(try point(keys, "pawn", 1), ScenePoint(x: 30, y: 0))
        XCTAssertEqual(try point(keys, "pawn", 2), ScenePoint(x: 60, y: 0))
        XCTAssertEqual(try point(keys, "pawn", 2.5), ScenePoint(x: 75, y: 0))
    }

    /// A delay keeps the node where it was until the tween starts; a
    /// parallel plan moves two nodes at once, each for its own duration.
    func testDelaysAndParallelRuns() throws {
        let plan = AnimationPlan.parallel([move("a", "x", "y", 1, delay: 0.5), move("b", "x", "y", 2)])
        let keys = PlanKeyframes(timeline: Timeline(plan: plan), before: scene([node("a", 0, 0), node("b", 0, 0)]),
                                 after: scene([node("a", 10, 0), node("b", 0, 20)]))
        XCTAssertEqual(keys.duration, 2)
        XCTAssertEqual(try point(keys, "a", 0.25), ScenePoint(x: 0, y: 0))
        XCTAssertEqual(try point(keys, "a", 1), ScenePoint(x: 5, y: 0))
        XCTAssertEqual(try point(keys, "a", 1.5), ScenePoint(x: 10, y: 0))
        XCTAssertEqual(try point(keys, "b", 1), ScenePoint(x: 0, y: 10))
        XCTAssertEqual(keys.track("a")?.change, 1.5)
        XCTAssertEqual(keys.track("b")?.change, 2)
    }

    /// A staggered deal: each card appears at the deck's place when its
    /// flight starts, `interval` after the one before, and lands where the
    /// scene after puts it.
    func testAStaggeredDealStartsEachCardAnIntervalLater() throws {
        let flights = (1...3).map { i in
            AnimationPlan.tween(.init(target: "card:\(i)", property: "place", from: "deck", to: .string("table \(i)"),
                                      duration: 0.3))
        }
        let deck = ScenePoint(x: 5, y: 5)
        let places = Dictionary(uniqueKeysWithValues: (1...3).map {
            (PlaceRequest(target: "card:\($0)", property: "place", value: "deck"), deck)
        })
        let after = scene((1...3).map { node("card:\($0)", Double($0) * 100, 50) }, places: ["place"])
        let keys = PlanKeyframes(timeline: Timeline(plan: .stagger(interval: 0.05, items: flights)), before: scene([], places: ["place"]),
                                 after: after, places: places)
        XCTAssertEqual(keys.duration, 0.4, accuracy: 1e-12)
        for i in 1...3 {
            let start = Double(i - 1) * 0.05
            let track = try XCTUnwrap(keys.track("card:\(i)"))
            XCTAssertEqual(track.appear, start)
            XCTAssertNil(track.pose(at: start - 0.01))
            XCTAssertEqual(try point(keys, "card:\(i)", start), deck)
            XCTAssertEqual(try point(keys, "card:\(i)", start + 0.15).x, (5 + Double(i) * 100) / 2, accuracy: 1e-9)
            XCTAssertEqual(try point(keys, "card:\(i)", start + 0.3), ScenePoint(x: Double(i) * 100, y: 50))
        }
    }

    /// The opening (no scene before): what the plan does not animate is there from the start.
    func testAnOpeningShowsUnanimatedNodesFromTheStart() throws {
        let keys = PlanKeyframes(timeline: Timeline(plan: move("a", "x", "y", 1, delay: 1)), before: nil,
                                 after: scene([node("a", 10, 0), node("board", 0, 0)]))
        XCTAssertNil(keys.track("board")?.appear)
        XCTAssertNotNil(keys.track("board")?.pose(at: 0))
        XCTAssertEqual(keys.track("a")?.appear, 1)
        XCTAssertNil(keys.track("a")?.pose(at: 0.5))
    }

    /// What the plan does not animate changes when the plan ends; a node it
    /// animates takes its new look when its last run ends; a node that
    /// comes or leaves unanimated fades in from invisible (never its final
    /// look from the start) or out to invisible over the step, and is hidden
    /// at its end when it left.
    func testLooksChangeWhenTheirRunsEnd() throws {
        let plan = AnimationPlan.sequence([move("a", "x", "y", 1), .wait(1)])
        let before = scene([node("a", 0, 0, text: "1"), node("score", 0, 0, text: "0"), node("gone", 0, 0)])
        let after = scene([node("a", 10, 0, text: "2"), node("score", 0, 0, text: "1"), node("new", 0, 0)])
        let keys = PlanKeyframes(timeline: Timeline(plan: plan), before: before, after: after)
        XCTAssertEqual(keys.tracks.map(\.id), ["a", "score", "new", "gone"])
        XCTAssertEqual(keys.track("a")?.pose(at: 0.99)?.text, "1")
        XCTAssertEqual(keys.track("a")?.pose(at: 1)?.text, "2")
        XCTAssertEqual(keys.track("score")?.pose(at: 1.99)?.text, "0")
        XCTAssertEqual(keys.track("score")?.pose(at: 2)?.text, "1")
        XCTAssertEqual(keys.track("gone")?.pose(at: 0)?.opacity, 1)
        XCTAssertEqual(keys.track("gone")?.pose(at: 1)?.opacity, 0.5)
        XCTAssertNil(keys.track("gone")?.pose(at: 2))
        XCTAssertNil(keys.track("new")?.appear)
        XCTAssertEqual(keys.track("new")?.pose(at: 0)?.opacity, 0)
        XCTAssertEqual(keys.track("new")?.pose(at: 1)?.opacity, 0.5)
        XCTAssertEqual(keys.track("new")?.pose(at: 1.5)?.opacity, 0.75)
        XCTAssertEqual(keys.track("new")?.pose(at: 2)?.opacity, 1)
        XCTAssertEqual(keys.nodes(at: 3).first { $0.id == "new" }?.opacity, 1)
    }

    /// A node that comes with its own look's opacity fades to that, not to 1;
    /// the opening (no scene before) fades nothing in: it is set up.
    func testAnUnanimatedNewNodeFadesToItsOwnOpacity() throws {
        var sand = node("sand", 0, 0)
        sand.opacity = 0.8
        let plan = AnimationPlan.sequence([move("a", "x", "y", 1)])
        let keys = PlanKeyframes(timeline: Timeline(plan: plan), before: scene([node("a", 0, 0)]),
                                 after: scene([node("a", 10, 0), sand]))
        XCTAssertEqual(keys.track("sand")?.pose(at: 0)?.opacity, 0)
        XCTAssertEqual(try XCTUnwrap(keys.track("sand")?.pose(at: 0.5)?.opacity), 0.4, accuracy: 1e-12)
        XCTAssertEqual(keys.track("sand")?.pose(at: 1)?.opacity, 0.8)
        let opening = PlanKeyframes(timeline: Timeline(plan: plan), before: nil, after: scene([node("a", 10, 0), sand]))
        XCTAssertEqual(opening.track("sand")?.pose(at: 0)?.opacity, 0.8)
    }

    /// A frame run steps through the atlas at its frame rate, repeated, then
    /// the node shows its own frame again.
    func testSpriteFramesStepThroughTheAtlas() throws {
        let atlas = SceneAtlas(name: "flame", image: "art/flame.svg", frameWidth: 16, frameHeight: 16, count: 4,
                               names: ["idle", "f1", "f2", "f3"])
        let look = node("jet", 0, 0, sprite: SceneSprite(atlas: "flame", frame: 1))
        let run = AnimationPlan.frames(.init(target: "jet", property: "flame", frames: ["f1", "f2", "f3"], fps: 10,
                                             delay: 0.1, repeatCount: 2))
        let keys = PlanKeyframes(timeline: Timeline(plan: run), before: scene([look], atlases: [atlas]),
                                 after: scene([look], atlases: [atlas]))
        let track = try XCTUnwrap(keys.track("jet"))
        let frames = [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.55, 0.7].map { track.pose(at: $0)?.sprite?.frame }
        XCTAssertEqual(frames, [1, 2, 2, 3, 4, 2, 3, 1])
    }

    /// Opacity, rotation and scale runs show as numbers; a run there and back
    /// returns, and each leg keeps the easing mirrored in time.
    func testNumberRunsAndAutoreverse() throws {
        let spin = AnimationPlan.tween(.init(target: "a", property: "rotation", from: 0, to: 90, duration: 1,
                                             easing: .easeIn, repeatCount: 1, autoreverse: true))
        let fade = AnimationPlan.tween(.init(target: "a", property: "opacity", from: 1, to: 0, duration: 2))
        let keys = PlanKeyframes(timeline: Timeline(plan: .parallel([spin, fade])), before: scene([node("a", 0, 0)]),
                                 after: scene([node("a", 0, 0)]))
        let track = try XCTUnwrap(keys.track("a"))
        XCTAssertEqual(track.pose(at: 0.5)?.rotation, 22.5)    // easeIn: a quarter
        XCTAssertEqual(track.pose(at: 1)?.rotation, 90)
        XCTAssertEqual(track.pose(at: 1.5)?.rotation, 22.5)    // the way back mirrors the way there in time
        XCTAssertEqual(track.pose(at: 2)?.rotation, 0)
        XCTAssertEqual(track.pose(at: 0.5)?.opacity, 0.75)
        XCTAssertEqual(track.pose(at: 1.5)?.opacity, 0.25)
    }

    /// Sounds and cues come with their times and the action that gave them.
    func testSoundsAndCuesAtTheirTimes() throws {
        let plan = AnimationPlan.sequence([.sound(.init(name: "dig")), .wait(0.25),
                                           .cue(.init(name: "shake", args: ["cell": "c3"], delay: 0.5)),
                                           .sound(.init(name: "thud", volume: 0.5, delay: 0.25))])
        let keys = PlanKeyframes(timeline: Timeline(plan: plan, actionPath: "excavate"), before: scene([]), after: scene([]))
        XCTAssertEqual(keys.sounds, [TimedSound(time: 0, name: "dig", volume: 1, actionPath: "excavate"),
                                     TimedSound(time: 1, name: "thud", volume: 0.5, actionPath: "excavate")])
        XCTAssertEqual(keys.cues, [TimedCue(time: 0.75, name: "shake", args: ["cell": "c3"], actionPath: "excavate")])
    }

    /// An undo plays the mirrored plan from the scene after to the scene
    /// before: at time t it shows what the do showed at D - t.
    func testTheUndoMirrorsTheDo() throws {
        let plan = AnimationPlan.parallel([
            .sequence([move("a", "x", "m", 1, easing: .easeIn), move("a", "m", "y", 0.5)]),
            .stagger(interval: 0.25, items: [move("b", "x", "y", 1, delay: 0.5), move("c", "x", "y", 0.25, easing: .easeOut)]),
        ])
        let places = [PlaceRequest(target: "a", property: "cell", value: "m"): ScenePoint(x: 40, y: 80)]
        let before = scene([node("a", 0, 0), node("b", 0, 0), node("c", 0, 0)])
        let after = scene([node("a", 100, 0), node("b", 0, 100), node("c", 50, 50)])
        let done = PlanKeyframes(timeline: Timeline(plan: plan), before: before, after: after, places: places)
        let undone = PlanKeyframes(timeline: Timeline(plan: plan.reversed), before: after, after: before, places: places)
        XCTAssertEqual(undone.duration, done.duration)
        let d = done.duration
        for step in 0...30 {
            let t = d * Double(step) / 30
            for id in ["a", "b", "c"] {
                let forward = try point(done, id, d - t), backward = try point(undone, id, t)
                XCTAssertEqual(forward.x, backward.x, accuracy: 1e-9, "\(id) at \(t)")
                XCTAssertEqual(forward.y, backward.y, accuracy: 1e-9, "\(id) at \(t)")
            }
        }
        XCTAssertEqual(try point(undone, "a", 0), try point(done, "a", d))
    }

    /// A run repeated past the key budget is cut, and says so.
    func testAHugeRepeatIsCutAndSaysSo() throws {
        let plan = AnimationPlan.tween(.init(target: "a", property: "cell", from: "x", to: "y", duration: 0.001,
                                             repeatCount: 10_000_000))
        let keys = PlanKeyframes(timeline: Timeline(plan: plan), before: scene([node("a", 0, 0)]), after: scene([node("a", 1, 0)]))
        XCTAssertTrue(keys.truncated)
        XCTAssertLessThanOrEqual(keys.track("a")?.place.count ?? .max, KeyBudget.limit)
        let small = PlanKeyframes(timeline: Timeline(plan: move("a", "x", "y", 1)), before: scene([node("a", 0, 0)]),
                                  after: scene([node("a", 1, 0)]))
        XCTAssertFalse(small.truncated)
    }

    /// The JSON a page reads decodes to the same keyframes, and the same keyframes give the same text.
    func testKeyframesRoundTripThroughJSON() throws {
        let plan = AnimationPlan.parallel([move("a", "x", "y", 1), .cue(.init(name: "c", args: ["list": [1, 2], "n": 1.5]))])
        let keys = PlanKeyframes(timeline: Timeline(plan: plan), before: scene([node("a", 0, 0)]), after: scene([node("a", 9, 0)]))
        let text = try keys.json()
        XCTAssertEqual(try JSONDecoder().decode(PlanKeyframes.self, from: Data(text.utf8)), keys)
        XCTAssertEqual(try keys.json(), text)
        XCTAssertTrue(text.contains("\"args\":{\"list\":[1,2],\"n\":1.5}"), text)
    }
}
