import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest
@testable import Rulebench

/// Animation plans: composition, reversal, timing, conflicts,
/// sampling and charts. Integration tests drive the `stage` fixture pack
/// through `Game`; unit tests build plans by hand.
final class AnimationTests: XCTestCase {
    // MARK: Fixtures

    static let stagePack = TestPaths.fixtures.appendingPathComponent("animation/stage").path

    func stageGame() throws -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        return try Game(pack: Self.stagePack, seed: 1, configuration: configuration)
    }

    /// The animated events as `(key, actionPath, start, end)`, in timeline order.
    func spans(_ timeline: Timeline) -> [Span] {
        timeline.events.filter(\.isAnimated).map { Span($0.key!, $0.actionPath, $0.start, $0.end) }
    }

    struct Span: Equatable, CustomStringConvertible {
        let key: String, path: String, start: Double, end: Double
        init(_ key: String, _ path: String, _ start: Double, _ end: Double) {
            self.key = key; self.path = path; self.start = start; self.end = end
        }
        var description: String { "\(key) \(path) \(start)–\(end)" }
    }

    func tween(_ target: String, _ property: String = "x", from: StateValue? = 0, to: StateValue? = 1,
               duration: Double, delay: Double = 0, easing: Easing = .linear, repeatCount: Int = 1,
               autoreverse: Bool = false, source: String? = nil) -> AnimationPlan {
        .tween(.init(target: target, property: property, from: from, to: to, duration: duration, delay: delay,
                     easing: easing, repeatCount: repeatCount, autoreverse: autoreverse, source: SourceLocation(source)))
    }

    // MARK: Composition (through the engine)

    func testNestedSubactionsComposeInParallelAndSequenceWithExactStarts() throws {
        let game = try stageGame()
        let entry = try game.perform("parade")
        let animation = entry.animation
        XCTAssertEqual(animation.action, "parade")
        XCTAssertEqual(animation.mode, .parallel)
        XCTAssertEqual(animation.subactions.map(\.action), ["walk2", "step"])
        XCTAssertEqual(animation.subactions[0].mode, .sequence)

        let timeline = animation.timeline()
        XCTAssertEqual(spans(timeline), [
            Span("banner.height", "parade", 0, 1),
            Span("token:a.pose", "parade > walk2", 0, 0.5),
            Span("token:b.x", "parade > step", 0, 0.25),
            Span("token:a.x", "parade > walk2 > step#1", 0.5, 0.75),
            Span("token:a.x", "parade > walk2 > step#2", 0.75, 1.0),
        ])
        XCTAssertEqual(timeline.duration, 1.0)
        XCTAssertEqual(animation.duration, 1.0)
        XCTAssertEqual(timeline.conflicts, [])
        // Each action's sound plays at the start of its own plan.
        XCTAssertEqual(timeline.soundNames, ["whoosh", "step", "step", "step"])
        XCTAssertEqual(timeline.events.filter { $0.kind == .sound }.map(\.start), [0, 0, 0.5, 0.75])

        let firstStep = try XCTUnwrap(timeline.events.first { $0.actionPath == "parade > walk2 > step#1" && $0.isAnimated })
        XCTAssertEqual(firstStep.from, .int(0))
        XCTAssertEqual(firstStep.to, .int(1))
        XCTAssertEqual(firstStep.easing, .easeIn)
        XCTAssertEqual(firstStep.source.map { $0.description.hasSuffix("step.lua:11") }, true, "source: \(firstStep.source?.description ?? "nil")")
    }

    func testHandBuiltCompositionInBothModesAndBothDirections() {
        // root (parallel): own 0–1; A (sequence): own .25, then B .5, then C (parallel: D .125, E .25); F .375
        let c = ActionAnimation(action: "C", subactions: [
            ActionAnimation(action: "D", own: tween("d", duration: 0.125)),
            ActionAnimation(action: "E", own: tween("e", duration: 0.25)),
        ])
        let a = ActionAnimation(action: "A", mode: .sequence, own: tween("a", duration: 0.25), subactions: [
            ActionAnimation(action: "B", own: tween("b", duration: 0.5)), c,
        ])
        let root = ActionAnimation(action: "root", own: tween("root", duration: 1), subactions: [
            a, ActionAnimation(action: "F", own: tween("f", duration: 0.375)),
        ])
        XCTAssertEqual(spans(root.timeline()), [
            Span("a.x", "root > A", 0, 0.25),
            Span("f.x", "root > F", 0, 0.375),
            Span("root.x", "root", 0, 1),
            Span("b.x", "root > A > B", 0.25, 0.75),
            Span("d.x", "root > A > C > D", 0.75, 0.875),
            Span("e.x", "root > A > C > E", 0.75, 1.0),
        ])
        XCTAssertEqual(root.timeline().duration, 1.0)
        XCTAssertEqual(root.composedPlan.duration, 1.0)

        // Undone, the sequence runs mirrored in time: C's parts (D, shorter,
        // ends with E as it started with it), then B, then A's own.
        var undone = a
        func flip(_ node: inout ActionAnimation) {
            node.direction = .undo
            for i in node.subactions.indices { flip(&node.subactions[i]) }
        }
        flip(&undone)
        XCTAssertEqual(spans(undone.timeline()), [
            Span("e.x", "A > C > E", 0, 0.25),
            Span("d.x", "A > C > D", 0.125, 0.25),
            Span("b.x", "A > B", 0.25, 0.75),
            Span("a.x", "A", 0.75, 1.0),
        ])
        XCTAssertEqual(undone.composedPlan.duration, 1.0)
    }

    // MARK: Reversal

    func testUndoPlaysTheDoPlanReversedWithSequencesMirrored() throws {
        let game = try stageGame()
        try game.perform("parade")
        let outcome = try game.undo()
        let animation = outcome.animation
        XCTAssertEqual(animation.direction, .undo)
        let timeline = animation.timeline()
        XCTAssertEqual(spans(timeline), [
            Span("banner.height", "parade", 0, 1),
            Span("token:a.x", "parade > walk2 > step#2", 0, 0.25),
            Span("token:a.x", "parade > walk2 > step#1", 0.25, 0.5),
            Span("token:a.pose", "parade > walk2", 0.5, 1.0),
            // b's step ran first on do, alongside; mirrored, it ends with the parade.
            Span("token:b.x", "parade > step", 0.75, 1.0),
        ])
        let moves = timeline.events.filter { $0.key == "token:a.x" }
        XCTAssertEqual(moves.map(\.from), [.int(2), .int(1)], "each step goes back from where it arrived")
        XCTAssertEqual(moves.map(\.to), [.int(1), .int(0)])
        XCTAssertEqual(moves.map(\.easing), [.easeOut, .easeOut], "easeIn played backwards")
        let pose = try XCTUnwrap(timeline.events.first { $0.key == "token:a.pose" })
        XCTAssertEqual(pose.from, "walk")
        XCTAssertEqual(pose.to, "stand")
        XCTAssertEqual(timeline.duration, 1.0)
        XCTAssertEqual(timeline.conflicts, [])
    }

    func testUndoUsesTheRulesOwnUndoPlanAndSound() throws {
        let game = try stageGame()
        let done = try game.perform("hop", ["token": "b"]).animation.timeline()
        XCTAssertEqual(spans(done), [Span("token:b.x", "hop", 0, 0.5)])
        XCTAssertEqual(done.soundNames, ["boing"])
        let undone = try game.undo().animation.timeline()
        XCTAssertEqual(spans(undone), [Span("token:b.x", "hop", 0, 0.125)])
        XCTAssertEqual(undone.events.first { $0.isAnimated }?.easing, .linear, "not the reversed do plan")
        XCTAssertEqual(undone.soundNames, ["slide"])
    }

    func testReversedPlanRunsBackwardsAndLastsAsLong() {
        let plan = AnimationPlan.sequence([
            tween("t", from: 0, to: 1, duration: 0.25, easing: .easeIn),
            .wait(0.5),
            .frames(.init(target: "t", property: "sprite", frames: [1, 2, 3], fps: 12)),
            .stagger(interval: 0.1, items: [.cue(.init(name: "one")), .cue(.init(name: "two"))]),
        ])
        let reversed = plan.reversed
        XCTAssertEqual(reversed, .sequence([
            .stagger(interval: 0.1, items: [.cue(.init(name: "two")), .cue(.init(name: "one"))]),
            .frames(.init(target: "t", property: "sprite", frames: [3, 2, 1], fps: 12)),
            .wait(0.5),
            tween("t", from: 1, to: 0, duration: 0.25, easing: .easeOut),
        ]))
        XCTAssertEqual(reversed.duration, plan.duration, accuracy: 1e-12)
        XCTAssertEqual(reversed.reversed, plan)
    }

    func testUndoFromKernelNodesFillsOnlyMissingPlans() {
        let doNode: StateValue = ["action": "move", "mode": "sequence", "src": "move.lua:3",
                                  "own": ["kind": "tween", "target": "p", "property": "x", "from": 0, "to": 5,
                                          "duration": 0.5, "easing": "easeIn"],
                                  "subs": [["action": "pick", "own": ["kind": "wait", "duration": 0.25]],
                                           ["action": "drop", "src": "drop.lua:9",
                                            "own": ["kind": "sound", "name": "thud"]]]]
        // The kernel's undo tree: `drop` gave an undo plan, the others did not.
        let undoNode: StateValue = ["action": "move", "mode": "sequence", "src": "move.lua:3",
                                    "subs": [["action": "pick"],
                                             ["action": "drop", "src": "drop.lua:9",
                                              "own": ["kind": "sound", "name": "lift", "src": "drop.lua:11"]]]]
        let undo = ActionAnimation.undo(undoNode: undoNode, doNode: doNode)
        XCTAssertEqual(undo.own, tween("p", from: 5, to: 0, duration: 0.5, easing: .easeOut, source: "move.lua:3"))
        XCTAssertEqual(undo.subactions[0].own, .wait(0.25))
        XCTAssertEqual(undo.subactions[1].own, .sound(.init(name: "lift", source: SourceLocation("drop.lua:11"))))
        // Mirrored: drop's sound at 0, pick's wait, then the move's own tween.
        let timeline = undo.timeline()
        XCTAssertEqual(timeline.soundNames, ["lift"])
        XCTAssertEqual(spans(timeline), [Span("p.x", "move", 0.25, 0.75)])
        XCTAssertEqual(timeline.duration, 0.75)
    }

    // MARK: Parsing

    func testParsingReadsEveryKindAndFallsBackToTheAnimateSource() throws {
        let node: StateValue = ["action": "fx", "mode": "parallel", "sound": "bang", "src": "fx.lua:4",
                                "own": ["kind": "sequence", "items": [
                                    ["kind": "tween", "target": "t", "property": "p", "from": [0, 0], "to": [1, 2],
                                     "duration": 0.5, "delay": 0.25, "easing": "easeInOut", "repeat": 3,
                                     "autoreverse": true, "src": "fx.lua:6"],
                                    ["kind": "frames", "target": "t", "property": "sprite", "frames": ["a", "b"],
                                     "duration": 0.5, "delay": 0.0, "repeat": 1],
                                    ["kind": "cue", "name": "shake", "args": ["strength": 2], "delay": 0.125],
                                    ["kind": "stagger", "interval": 0.1, "items": []],
                                    ["kind": "nonsense"],
                                ]]]
        let animation = ActionAnimation(node: node)
        XCTAssertEqual(animation.sound, "bang")
        XCTAssertEqual(animation.source?.description, "fx.lua:4")
        XCTAssertEqual(animation.own, .sequence([
            .tween(.init(target: "t", property: "p", from: [0, 0], to: [1, 2], duration: 0.5, delay: 0.25,
                         easing: .easeInOut, repeatCount: 3, autoreverse: true, source: SourceLocation("fx.lua:6"))),
            .frames(.init(target: "t", property: "sprite", frames: ["a", "b"], duration: 0.5, source: SourceLocation("fx.lua:4"))),
            .cue(.init(name: "shake", args: ["strength": 2], delay: 0.125, source: SourceLocation("fx.lua:4"))),
            .stagger(interval: 0.1, items: []),
        ]), "items that are not plans are left out")
        // 0.25 delay + 3 runs there and back of 0.5 each way, then 0.5 of frames, then the cue's delay.
        XCTAssertEqual(animation.duration, 0.25 + 3 * 1.0 + 0.5 + 0.125)
        XCTAssertEqual(ActionAnimation(node: nil, fallbackAction: "idle"), ActionAnimation(action: "idle"))
    }

    // MARK: Stagger

    func testDealingTwelveCardsGivesTwelveStaggeredNonOverlappingStarts() throws {
        let game = try stageGame()
        let timeline = try game.perform("deal").animation.timeline()
        let flights = timeline.events.filter { $0.kind == .tween }
        XCTAssertEqual(flights.count, 12)
        XCTAssertEqual(flights.map(\.target), (1...12).map { "card:\($0)" })
        XCTAssertEqual(flights.map(\.start), (0..<12).map { Double($0) * 0.125 })
        XCTAssertEqual(Set(flights.map(\.start)).count, 12)
        for (one, next) in zip(flights, flights.dropFirst()) {
            XCTAssertLessThanOrEqual(one.end, next.start, "\(one.target!) still flies when \(next.target!) starts")
        }
        XCTAssertEqual(timeline.duration, 1.5)
        XCTAssertEqual(timeline.soundNames, ["shuffle"])
        XCTAssertEqual(timeline.conflicts, [])

        // Undone, the cards come back last one first.
        let back = try game.undo().animation.timeline().events.filter { $0.kind == .tween }
        XCTAssertEqual(back.map(\.target), (1...12).reversed().map { "card:\($0)" })
        XCTAssertEqual(back.map(\.start), (0..<12).map { Double($0) * 0.125 })
        XCTAssertEqual(back.first?.from, [12, 4])
        XCTAssertEqual(back.first?.to, [0, 0])
    }

    func testStaggerStartsEachItemAtItsIndexTimesTheInterval() {
        let items = (0..<12).map { tween("card:\($0)", duration: 0.05) }
        let timeline = Timeline(plan: .stagger(interval: 0.1, items: items), actionPath: "deal")
        XCTAssertEqual(timeline.events.map(\.start), (0..<12).map { Double($0) * 0.1 })
        XCTAssertEqual(timeline.duration, 11 * 0.1 + 0.05)
        XCTAssertEqual(Timeline(plan: .stagger(interval: 0.1, items: [])).duration, 0)
    }

    // MARK: Conflicts

    func testParallelStepsOfOneTokenConflictWithBothSourcesReported() throws {
        let game = try stageGame()
        let timeline = try game.perform("twin", ["token": "a"]).animation.timeline()
        XCTAssertEqual(timeline.conflicts.count, 1)
        let conflict = try XCTUnwrap(timeline.conflicts.first)
        XCTAssertEqual(conflict.key, "token:a.x")
        XCTAssertEqual(conflict.first.actionPath, "twin > step#1")
        XCTAssertEqual(conflict.second.actionPath, "twin > step#2")
        XCTAssertEqual(conflict.overlapStart, 0)
        XCTAssertEqual(conflict.overlapEnd, 0.25)
        for source in [conflict.first.source, conflict.second.source] {
            XCTAssertEqual(source.map { $0.description.hasSuffix("step.lua:11") }, true, "source: \(source?.description ?? "nil")")
        }
        XCTAssertTrue(conflict.description.contains("twin > step#1"), conflict.description)
        XCTAssertTrue(conflict.description.contains("step.lua:11"), conflict.description)
    }

    func testStepsInSequenceTouchButDoNotConflict() throws {
        let game = try stageGame()
        let timeline = try game.perform("walk2", ["token": "b"]).animation.timeline()
        let steps = timeline.events.filter { $0.key == "token:b.x" }
        XCTAssertEqual(steps.count, 2)
        XCTAssertEqual(steps[0].end, steps[1].start)
        XCTAssertEqual(timeline.conflicts, [])
    }

    func testConflictRulesForOverlapTouchingAndInstants() {
        func conflicts(_ items: [AnimationPlan]) -> [AnimationConflict] { Timeline(plan: .parallel(items)).conflicts }
        // Touching (end == start) is fine; a sliver of overlap is not.
        XCTAssertEqual(conflicts([tween("t", duration: 0.5), tween("t", duration: 0.5, delay: 0.5)]), [])
        let overlapping = conflicts([tween("t", duration: 0.5, source: "a.lua:1"),
                                     tween("t", duration: 0.5, delay: 0.375, source: "b.lua:2")])
        XCTAssertEqual(overlapping.count, 1)
        XCTAssertEqual(overlapping.first?.first.source?.description, "a.lua:1")
        XCTAssertEqual(overlapping.first?.second.source?.description, "b.lua:2")
        XCTAssertEqual(overlapping.first?.overlapStart, 0.375)
        XCTAssertEqual(overlapping.first?.overlapEnd, 0.5)
        // Other property, other target, or a sound: no conflict.
        XCTAssertEqual(conflicts([tween("t", "x", duration: 1), tween("t", "y", duration: 1),
                                  tween("u", "x", duration: 1), .sound(.init(name: "s")), .sound(.init(name: "s"))]), [])
        // A frame run counts like a tween.
        XCTAssertEqual(conflicts([tween("t", "sprite", duration: 1),
                                  .frames(.init(target: "t", property: "sprite", frames: [1, 2], fps: 4))]).count, 1)
        // A repeated tween lasts all its runs.
        XCTAssertEqual(conflicts([tween("t", duration: 0.25, repeatCount: 2, autoreverse: true),
                                  tween("t", duration: 0.25, delay: 0.875)]).count, 1)
        // Two instant changes at the same time are ambiguous; one at another run's end is not.
        XCTAssertEqual(conflicts([tween("t", duration: 0, delay: 1), tween("t", duration: 0, delay: 1)]).count, 1)
        XCTAssertEqual(conflicts([tween("t", duration: 1), tween("t", duration: 0, delay: 1)]), [])
        // An instant strictly inside a run clashes with it; at the run's start it only touches it,
        // whichever of the two sorts first.
        XCTAssertEqual(conflicts([tween("t", duration: 1, source: "z.lua:1"),
                                  tween("t", duration: 0, delay: 0.5, source: "a.lua:1")]).count, 1)
        XCTAssertEqual(conflicts([tween("t", duration: 0, source: "z.lua:1"), tween("t", duration: 1, source: "a.lua:1")]), [])
        XCTAssertEqual(conflicts([tween("t", duration: 1, source: "z.lua:1"), tween("t", duration: 0, source: "a.lua:1")]), [])
        // Three overlapping runs make three pairs.
        XCTAssertEqual(conflicts([tween("t", duration: 1), tween("t", duration: 1), tween("t", duration: 1)]).count, 3)
    }

    // MARK: Sampling

    func testSamplingAtBoundaries() {
        let timeline = Timeline(plan: .sequence([
            tween("t", from: 0, to: 10, duration: 1, delay: 1),
            tween("t", from: 20, to: 30, duration: 1, easing: .easeIn),
        ]))
        XCTAssertEqual(timeline.sample(at: 0.999), [:], "nothing has started")
        XCTAssertEqual(timeline.sample(at: 1.0), ["t.x": .int(0)], "exactly `from` at the start")
        XCTAssertEqual(timeline.sample(at: 1.5), ["t.x": .double(5)])
        XCTAssertEqual(timeline.sample(at: 2.0), ["t.x": .int(20)], "where one ends and the next starts, the next shows")
        XCTAssertEqual(timeline.sample(at: 2.5), ["t.x": .double(22.5)], "easeIn: a quarter of the way at half time")
        XCTAssertEqual(timeline.sample(at: 3.0), ["t.x": .int(30)], "exactly `to` at the end")
        XCTAssertEqual(timeline.sample(at: 99), ["t.x": .int(30)], "and after it")
    }

    func testSamplingListsStringsRepeatsAndFrames() {
        let timeline = Timeline(plan: .parallel([
            tween("p", "position", from: [0, 0], to: [2, 4], duration: 1),
            tween("p", "pose", from: "stand", to: "walk", duration: 1),
            tween("p", "scale", from: 0, to: 1, duration: 0.25, repeatCount: 2, autoreverse: true),
            .frames(.init(target: "p", property: "sprite", frames: ["a", "b", "c", "d"], fps: 8)),
        ]))
        let half = timeline.sample(at: 0.5)
        XCTAssertEqual(half["p.position"], .list([.double(1), .double(2)]))
        XCTAssertEqual(half["p.pose"], "stand", "non-numbers switch at the end")
        XCTAssertEqual(half["p.scale"], .int(0), "the second run starts from `from`")
        XCTAssertEqual(half["p.sprite"], "d", "the last frame at the run's end")
        XCTAssertEqual(timeline.sample(at: 0.25)["p.scale"], .int(1), "the turning point")
        XCTAssertEqual(timeline.sample(at: 0.375)["p.scale"], .double(0.5), "on the way back")
        XCTAssertEqual(timeline.sample(at: 0.124)["p.sprite"], "a")
        XCTAssertEqual(timeline.sample(at: 0.125)["p.sprite"], "b")
        let end = timeline.sample(at: 1.0)
        XCTAssertEqual(end["p.pose"], "walk")
        XCTAssertEqual(end["p.position"], [2, 4])
        XCTAssertEqual(end["p.scale"], .int(0), "autoreverse ends back at `from`")
    }

    func testSamplingPrefersTheRunningEventOverAFinishedOne() {
        let timeline = Timeline(plan: .parallel([
            tween("t", from: 0, to: 100, duration: 2),
            tween("t", from: 7, to: 8, duration: 0.5, delay: 0.5),
        ]))
        XCTAssertEqual(timeline.sample(at: 0.5), ["t.x": .int(7)], "the later start wins while both run")
        XCTAssertEqual(timeline.sample(at: 1.0), ["t.x": .double(50)], "the short one is over, the long one runs on")
        XCTAssertEqual(timeline.sample(at: 2.0), ["t.x": .int(100)], "the last to end holds")
        XCTAssertEqual(timeline.conflicts.count, 1)
    }

    func testEasingCurves() {
        for easing in Easing.allCases {
            XCTAssertEqual(easing.apply(0), 0, "\(easing)")
            XCTAssertEqual(easing.apply(1), 1, "\(easing)")
            XCTAssertEqual(easing.apply(-1), 0, "clamped")
            XCTAssertEqual(easing.apply(2), 1, "clamped")
            for t in stride(from: 0.0, through: 1.0, by: 0.125) {
                XCTAssertEqual(easing.reversed.apply(t), 1 - easing.apply(1 - t), accuracy: 1e-12, "\(easing) at \(t)")
            }
        }
        XCTAssertEqual(Easing.linear.apply(0.5), 0.5)
        XCTAssertEqual(Easing.easeIn.apply(0.5), 0.25)
        XCTAssertEqual(Easing.easeOut.apply(0.5), 0.75)
        XCTAssertEqual(Easing.easeInOut.apply(0.25), 0.125)
        XCTAssertEqual(Easing.easeInOut.apply(0.5), 0.5)
        XCTAssertEqual(Easing.easeInOut.apply(0.75), 0.875)
    }

    func testNonFiniteHandBuiltPlansStayVisibleAndNeverCrash() {
        // `anim.*` rejects these, but a plan table built by hand in Lua reaches Swift unchecked.
        let timeline = Timeline(plan: .parallel([
            tween("t", duration: .infinity),
            tween("u", duration: .nan),
            .frames(.init(target: "v", property: "sprite", frames: [1, 2], duration: .nan)),
            .frames(.init(target: "w", property: "sprite", frames: [1, 2], duration: .infinity)),
        ]))
        XCTAssertFalse(timeline.duration.isFinite, "the fuzzer's finiteness check must see it")
        XCTAssertEqual(timeline.sample(at: 1)["t.x"], .int(0), "forever at the start")
        XCTAssertEqual(timeline.sample(at: 1)["w.sprite"], .int(1))
        XCTAssertNotNil(timeline.sample(at: 1)["v.sprite"])
        XCTAssertFalse(timeline.textChart(width: Int.max).isEmpty)
        XCTAssertTrue(XMLCheck(timeline.svg()).wellFormed)
    }

    // MARK: Frames, cues, sounds

    func testFramesCuesAndSoundsAreTimed() throws {
        let game = try stageGame()
        let timeline = try game.perform("flash", ["token": "a"]).animation.timeline()
        XCTAssertEqual(timeline.events.map(\.kind), [.frames, .cue, .sound])
        XCTAssertEqual(timeline.events.map(\.start), [0, 0.25, 0.5])
        XCTAssertEqual(timeline.events.map(\.end), [0.5, 0.25, 0.5])
        XCTAssertEqual(timeline.events[1].name, "shake")
        if case .cue(let cue) = timeline.events[1].leaf { XCTAssertEqual(cue.args, ["strength": 2]) } else { XCTFail("not a cue") }
        XCTAssertEqual(timeline.soundNames, ["zap"])
        XCTAssertEqual(timeline.duration, 0.5)
        XCTAssertEqual(timeline.sample(at: 0.125), ["token:a.sprite": .int(2)])
        XCTAssertEqual(timeline.sample(at: 0.5), ["token:a.sprite": .int(4)])
        // Built in tail position, the parallel has no line of its own; its items do.
        XCTAssertEqual(timeline.events.map { $0.source?.description.contains("flash.lua:") }, [true, true, true])
    }

    // MARK: Determinism

    func testPlansAreDeterministic() throws {
        let one = try stageGame(), two = try stageGame()
        for game in [one, two] { try game.perform("parade"); try game.perform("deal") }
        for (a, b) in zip(one.history.performed, two.history.performed) {
            XCTAssertEqual(a.animation, b.animation)
            XCTAssertEqual(a.animation.timeline(), b.animation.timeline())
        }
        // Undo then redo reproduces the plan too.
        let first = try XCTUnwrap(one.history.performed.last).animation.timeline()
        let undone = try one.undo().animation.timeline()
        let redone = try one.redo().animation.timeline()
        XCTAssertEqual(redone, first)
        XCTAssertEqual(try two.undo().animation.timeline(), undone)
        XCTAssertEqual(first.svg(), redone.svg())
        XCTAssertEqual(first.textChart(width: 80), redone.textChart(width: 80))
    }

    func testEventOrderDoesNotDependOnPlanOrderForAnimatedEvents() {
        let a = tween("b", duration: 1, source: "x.lua:1"), b = tween("a", duration: 1, source: "x.lua:2")
        let c = tween("a", "y", duration: 1, source: "x.lua:3"), d = tween("a", duration: 0.5, delay: 0.5, source: "x.lua:4")
        let forward = Timeline(plan: .parallel([a, b, c, d]))
        let backward = Timeline(plan: .parallel([d, c, b, a]))
        XCTAssertEqual(forward.events, backward.events)
        XCTAssertEqual(forward.events.map { $0.source?.description }, ["x.lua:2", "x.lua:3", "x.lua:1", "x.lua:4"])
    }

    // MARK: Charts

    func testSVGIsWellFormedXMLEvenWithHostileNames() throws {
        let hostile = #"<tok&en "quoted" 'single'>"#
        let timeline = Timeline(plan: .parallel([
            tween(hostile, "x<y", duration: 1, source: "a&b.lua:1"),
            tween(hostile, "x<y", duration: 1, delay: 0.5),
            .frames(.init(target: "sprite]]>", property: "frame", frames: [1, 2], fps: 4)),
            .sound(.init(name: "bang & <crash>", delay: 0.25)),
            .cue(.init(name: "shake\u{1}", args: ["why": "<>"], delay: 0.75)),
        ]), actionPath: "act>ion")
        XCTAssertEqual(timeline.conflicts.count, 1)
        for svg in [timeline.svg(), timeline.svg(title: "Undo of <jetpack> & co"), Timeline(plan: .parallel([])).svg()] {
            let checker = XMLCheck(svg)
            XCTAssertTrue(checker.wellFormed, "\(checker.error ?? "")\n\(svg)")
            XCTAssertEqual(checker.root, "svg")
        }
        let svg = timeline.svg()
        XCTAssertTrue(svg.contains("bang &amp; &lt;crash&gt;"))
        XCTAssertTrue(svg.contains(">1s</text>"), "time axis in seconds")
        XCTAssertTrue(svg.contains("&lt;tok&amp;en &quot;quoted&quot; &apos;single&apos;&gt;.x&lt;y"), "rows labelled")
    }

    func testSVGOfARealActionIsWellFormed() throws {
        let game = try stageGame()
        let svg = try game.perform("parade").animation.timeline().svg(title: "parade")
        let checker = XMLCheck(svg)
        XCTAssertTrue(checker.wellFormed, checker.error ?? "")
        for label in ["banner.height", "token:a.pose", "token:a.x", "token:b.x", "whoosh", ">1s</text>"] {
            XCTAssertTrue(svg.contains(label), label)
        }
    }

    func testTextChartDrawsRowsBarsSoundsAndConflicts() {
        let timeline = Timeline(plan: .parallel([
            tween("card", "position", duration: 1),
            tween("card", "position", duration: 0.5, delay: 0.5, source: "deal.lua:7"),
            .frames(.init(target: "card", property: "sprite", frames: [1, 2], duration: 0.5)),
            .sound(.init(name: "flip", delay: 0.5)),
            .cue(.init(name: "shake")),
        ]), actionPath: "deal")
        let chart = timeline.textChart(width: 60)
        let lines = chart.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "duration 1s, 5 events, 1 conflict")
        XCTAssertTrue(lines.contains { $0.hasPrefix("time (s)") && $0.contains("0.2") && $0.hasSuffix(" 1") }, chart)
        let row = lines.first { $0.hasPrefix("card.position") }
        XCTAssertEqual(row?.contains("="), true, chart)
        XCTAssertEqual(row?.contains("!"), true, chart)
        XCTAssertEqual(lines.first { $0.hasPrefix("card.sprite") }?.contains("#"), true, chart)
        XCTAssertEqual(lines.first { $0.hasPrefix("(sounds)") }?.contains("*"), true, chart)
        XCTAssertEqual(lines.first { $0.hasPrefix("(cues)") }?.contains("^"), true, chart)
        XCTAssertTrue(chart.contains("* 0.5s sound flip (deal)"), chart)
        XCTAssertTrue(chart.contains("! conflict: card.position"), chart)
        XCTAssertTrue(chart.contains("deal.lua:7"), chart)
        XCTAssertTrue(lines.allSatisfy { $0.count <= 60 + 12 || $0.hasPrefix("  ") }, chart)
    }
}

/// Parses text with Foundation's XMLParser and records whether it is well-formed.
private struct XMLCheck {
    let root: String?
    let error: String?
    let wellFormed: Bool

    init(_ text: String) {
        let parser = XMLParser(data: Data(text.utf8))
        let recorder = Recorder()
        parser.delegate = recorder
        wellFormed = parser.parse()
        root = recorder.root
        error = parser.parserError.map { "\($0)" }
    }

    private final class Recorder: NSObject, XMLParserDelegate {
        var root: String?
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            if root == nil { root = name }
        }
    }
}
