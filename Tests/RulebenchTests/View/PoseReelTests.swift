import XCTest
@testable import Rulebench

/// The poses a page draws (View/PoseReel.swift): every sample is the
/// library's pose at that sample's time, runs keep a node at rest to one
/// entry, a long busy plan is sampled more slowly within the limit, and the
/// page's modules hold no easing of their own (the pose and the easing are
/// defined once, in the library).
final class PoseReelTests: XCTestCase {
    /// Every sample of `keys`' reel equals `PlanKeyframes.nodes(at:)` at its time.
    private func assertEverySampleIsThePose(_ keys: PlanKeyframes, file: StaticString = #filePath, line: UInt = #line) {
        let reel = PoseReel(keys)
        XCTAssertEqual(reel.time(ofSample: reel.count - 1), keys.duration, file: file, line: line)
        for i in 0..<reel.count {
            let time = reel.time(ofSample: i)
            XCTAssertEqual(reel.nodes(atSample: i), keys.nodes(at: time), "sample \(i) at \(time)", file: file, line: line)
        }
    }

    func testEverySampleOfTheShippedPacksStepsIsTheLibrarysPose() throws {
        let template = try SceneTests.game("rules/template")
        var before = try template.scene()
        let dash = try template.perform("dash", ["token": "p1"])
        assertEverySampleIsThePose(try XCTUnwrap(try template.keyframes(of: dash.animation, from: before)))
        before = try template.scene()
        assertEverySampleIsThePose(try XCTUnwrap(try template.keyframes(of: try template.undo().animation, from: before)))

        let set = try SceneTests.game("rules/set")
        assertEverySampleIsThePose(try XCTUnwrap(try set.keyframes(of: set.openingAnimation, from: nil)))

        let desert = try SceneTests.game("rules/desert", options: ["players": 3, "shuffle": false])
        try desert.setState(["jetpack"], at: "players.p1.gear")
        try desert.setState(nil, at: "gear_deck.12")
        before = try desert.scene()
        let flight = try desert.perform("jetpack", ["player": "p1", "to": "e5", "passenger": "p3"])
        let keys = try XCTUnwrap(try desert.keyframes(of: flight.animation, from: before))
        assertEverySampleIsThePose(keys)
        // The flame frames are there, at the samples the library put them.
        let flyer = try XCTUnwrap(PoseReel(keys).tracks.first { $0.id == "pawn:p1" })
        XCTAssertEqual(Set(flyer.runs.compactMap { $0.pose?.frame }), [1, 2, 3, 4])
    }

    /// A node at rest is one run however long the step; a moving one a run a
    /// sample while it moves; a node that comes unanimated fades in over the
    /// step, sample by sample; the sample shown at a time is the nearest.
    func testRunsAndSamples() throws {
        let plan = AnimationPlan.sequence([
            .tween(.init(target: "a", property: "cell", from: "x", to: "y", duration: 0.25, delay: 0.5, easing: .easeInOut)),
        ])
        let before = Scene(width: 100, height: 100, placeProperties: ["cell"],
                           nodes: [SceneNode(id: "a", x: 0, y: 0), SceneNode(id: "board", x: 50, y: 50)])
        var after = before
        after.nodes[0].x = 60
        after.nodes.append(SceneNode(id: "new", x: 5, y: 5))
        let keys = PlanKeyframes(timeline: Timeline(plan: plan), before: before, after: after)
        let reel = PoseReel(keys)
        XCTAssertEqual(reel.rate, 60)
        XCTAssertEqual(reel.count, 46)   // 0.75 s: samples 0 ... 45
        let runs = Dictionary(uniqueKeysWithValues: reel.tracks.map { ($0.id, $0.runs) })
        XCTAssertEqual(runs["board"]?.count, 1)
        XCTAssertEqual(runs["a"]?.first?.start, 0)
        XCTAssertEqual(runs["a"]?.count, 1 + 15, "at rest until 0.5 s, then a run per sample of the 0.25 s tween")
        XCTAssertEqual(runs["new"]?.count, 46, "fading in: a new opacity every sample")
        XCTAssertEqual(runs["new"]?.first?.pose?.opacity, 0)
        XCTAssertEqual(reel.looks.count, 4, "each look once: board, a before and after, new")
        XCTAssertEqual(reel.sample(at: 0.125), 8)        // 7.5 samples: the nearest, as the page rounds
        XCTAssertEqual(reel.sample(at: 0.124), 7)
        XCTAssertEqual(reel.sample(at: 9), 45)
        XCTAssertEqual(reel.sample(at: -1), 0)
        assertEverySampleIsThePose(keys)
    }

    /// Many nodes moving for long are sampled at a lower rate, so the runs
    /// stay within the limit (plus four a key and a track): the message a
    /// page gets is bounded, and every sample is still exact.
    func testABusyLongPlanIsSampledMoreSlowlyWithinTheLimit() throws {
        let count = 400
        let flights = (0..<count).map { i in
            AnimationPlan.tween(.init(target: "n\(i)", property: "cell", from: "x", to: "y", duration: 1_000))
        }
        let nodes = (0..<count).map { SceneNode(id: "n\($0)", x: 0, y: Double($0)) }
        var after = Scene(width: 100, height: 100, placeProperties: ["cell"], nodes: nodes)
        for i in 0..<count { after.nodes[i].x = 90 }
        let keys = PlanKeyframes(timeline: Timeline(plan: .parallel(flights)),
                                 before: Scene(width: 100, height: 100, placeProperties: ["cell"], nodes: nodes), after: after)
        let reel = PoseReel(keys)
        XCTAssertEqual(reel.rate, Double(PoseReel.limit) / (Double(count) * 1_000), accuracy: 1e-12)
        let runs = reel.tracks.reduce(0) { $0 + $1.runs.count }
        let keyCount = keys.tracks.reduce(0) { $0 + $1.place.count }
        XCTAssertLessThanOrEqual(runs, PoseReel.limit + 4 * (keyCount + keys.tracks.count))
        XCTAssertGreaterThan(runs, PoseReel.limit / 2, "sampled, not cut")
        for i in stride(from: 0, to: reel.count, by: 7) {
            XCTAssertEqual(reel.nodes(atSample: i), keys.nodes(at: reel.time(ofSample: i)), "sample \(i)")
        }
    }

    /// The JSON a page reads: a hidden run is `[start]`, a shown one
    /// `[start, look, x, y, opacity, rotation, scale, frame]`.
    func testTheJSONRunsArePlainArrays() throws {
        let plan = AnimationPlan.tween(.init(target: "a", property: "cell", from: "x", to: "y", duration: 0.1, delay: 0.1))
        let after = Scene(width: 10, height: 10, placeProperties: ["cell"], nodes: [SceneNode(id: "a", x: 6, y: 0)])
        let keys = PlanKeyframes(timeline: Timeline(plan: plan), before: Scene(width: 10, height: 10, placeProperties: ["cell"]),
                                 after: after)
        let reel = PoseReel(keys)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(reel.json().utf8)) as? [String: Any])
        XCTAssertEqual(json["rate"] as? Double, 60)
        XCTAssertEqual(json["count"] as? Int, reel.count)
        let runs = try XCTUnwrap(((json["tracks"] as? [[String: Any]])?.first)?["runs"] as? [[Any]])
        XCTAssertEqual(runs.first?.count, 1, "hidden before its tween starts")
        XCTAssertEqual(runs.last?.count, 8)
        XCTAssertTrue(runs.last?.last is NSNull, "no sprite: no frame")
    }

    /// The page's modules define no easing curve: the curves (and the pose)
    /// are the library's alone (Easing, NodeTrack), and the page draws the
    /// poses it is sent. A curve written again in a page fails here.
    func testThePagesDefineNoEasing() throws {
        let pages = ["Sources/RulebenchBoard/Page", "Sources/RulebenchStudio/Page", "Sources/RulebenchServe/Page"]
        let curves = Easing.allCases.map(\.rawValue).filter { $0 != "linear" }
        XCTAssertFalse(curves.isEmpty)
        for folder in pages {
            let url = TestPaths.repository(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) where name.hasSuffix(".js") {
                let source = try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
                for curve in curves {
                    XCTAssertFalse(source.contains(curve), "\(folder)/\(name) names the easing \(curve)")
                }
            }
        }
    }
}
