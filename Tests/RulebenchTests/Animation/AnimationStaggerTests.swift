import Foundation
import XCTest
@testable import Rulebench

/// `subanimations = "stagger"`, per-subaction delays, undo as the time
/// mirror of do, the pack's opening, and the check that flags an `animate`
/// ignoring `direction`. Integration tests play the `set` and `cards` packs.
final class AnimationStaggerTests: XCTestCase {
    private func game(_ pack: String, seed: Int64 = 1) throws -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        configuration.rulesDirectory = EngineFixtures.repository.appendingPathComponent("rules")
        return try Game(pack: pack, seed: seed, configuration: configuration)
    }

    /// `(key, start, end)` of the animated events, in timeline order.
    private func runs(_ timeline: Timeline) -> [String] {
        timeline.events.filter(\.isAnimated).map { "\($0.key!) \(TimelineSeconds.text($0.start))-\(TimelineSeconds.text($0.end))" }
    }

    /// A pack in a temporary folder with the given action files.
    private func temporaryPack(_ actions: [String: String], manifest: String = "return { name = 'tmp', setup = function(game) game.n = 0 end }") throws -> URL {
        try temporaryPack(actions, manifest: manifest, prefix: "stagger")
    }

    // MARK: Stagger and delays through the engine

    func testTakingASetFliesThreeTogetherThenStaggersTheRefill() throws {
        let game = try game("set")
        let take = try XCTUnwrap(game.legalActions().first { $0.name == "take" })
        let entry = try game.perform(take.name, take.params)
        let animation = entry.animation
        XCTAssertEqual(animation.mode, .stagger)
        XCTAssertEqual(animation.step, 0.05)
        XCTAssertEqual(animation.subactions.map(\.delay), [0.1, 0.1, 0.1])
        let timeline = animation.timeline()
        let starts = timeline.events.filter(\.isAnimated).map(\.start)
        // Three flights at 0 (0.4 s), then refills at 0.4 + 0.1 + i * 0.05.
        XCTAssertEqual(starts.count, 6)
        XCTAssertEqual(Array(starts.prefix(3)), [0, 0, 0])
        for (start, expected) in zip(starts.dropFirst(3), [0.5, 0.55, 0.6]) { XCTAssertEqual(start, expected, accuracy: 1e-9) }
        XCTAssertEqual(timeline.duration, 0.9, accuracy: 1e-9)
        XCTAssertEqual(timeline.conflicts, [])
        XCTAssertEqual(timeline.events.filter(\.isAnimated).last?.actionPath, "take > refill#3")

        // Undo: the time mirror. The last refill goes back first, the three cards last, together.
        let undone = try game.undo().animation.timeline()
        XCTAssertNil(undone.mirrorDifference(of: timeline))
        let back = undone.events.filter(\.isAnimated)
        XCTAssertEqual(back.map(\.actionPath), ["take > refill#3", "take > refill#2", "take > refill#1", "take", "take", "take"])
        for (event, expected) in zip(back, [0, 0.05, 0.1, 0.5, 0.5, 0.5]) { XCTAssertEqual(event.start, expected, accuracy: 1e-9) }
        XCTAssertEqual(back.last?.to, .string(take.params["c"].map { "table \($0)" } ?? ""))
    }

    func testTheOpeningDealIsAStaggerOfTwelveShownAsStepZero() throws {
        let game = try game("set")
        let opening = try XCTUnwrap(game.openingAnimation)
        XCTAssertEqual(opening.action, "setup")
        let flights = opening.timeline().events.filter(\.isAnimated)
        XCTAssertEqual(flights.count, 12)
        for (index, flight) in flights.enumerated() { XCTAssertEqual(flight.start, Double(index) * 0.05, accuracy: 1e-9) }
        XCTAssertEqual(flights.map(\.to), (1...12).map { .string("table \($0)") })
        // A pack without `opening` has none.
        XCTAssertNil(try self.game("template").openingAnimation)

        let url = EngineFixtures.repository.appendingPathComponent("scenarios/set/take-three-and-undo.yaml")
        let scenario = try ScenarioParser.parse(contentsOf: url, displayPath: nil)
        let step0 = try StepAnimation.of(scenario, directory: url.deletingLastPathComponent(), step: 0)
        XCTAssertEqual(step0.number, 0)
        XCTAssertEqual(step0.timeline.events.count, 12)
        // Without --step: the richest plan, the opening's twelve flights.
        XCTAssertEqual(try StepAnimation.of(scenario, directory: url.deletingLastPathComponent(), step: nil).number, 0)
    }

    func testCheckJudgesTheOpening() throws {
        func problems(_ opening: String) throws -> [String] {
            let manifest = "return { name = 'tmp', setup = function(game) game.n = 0 end,\n  opening = function(anim, game)\n    \(opening)\n  end }"
            let pack = try temporaryPack(["inc": "return { legal = function(g, emit) emit{} end, apply = function(game) game.n = game.n + 1 end }"],
                                         manifest: manifest)
            return try PackChecker(pack: pack.path).check().map(\.description)
        }
        let clashing = try problems("""
            return anim.parallel{ anim.tween{ target = "a", property = "x", from = 0, to = 1, duration = 1 },
                                  anim.tween{ target = "a", property = "x", from = 1, to = 2, duration = 1, delay = 0.5 } }
            """)
        XCTAssertEqual(clashing.count, 1, "\(clashing)")
        XCTAssertTrue(clashing.first?.contains("pack.lua:2: error: the opening's animation conflict: a.x") == true, "\(clashing)")
        let notAPlan = try problems("return 42")
        XCTAssertTrue(notAPlan.first?.contains("opening must return a plan built with anim.*") == true, "\(notAPlan)")
        XCTAssertEqual(try problems("return nil"), [])
    }

    func testPlayAnnouncesTheOpeningAndDrawsIt() throws {
        var output = ""
        let session = PlaySession(game: try game("set")) { output += $0 }
        session.start()
        session.handle("timeline")
        XCTAssertTrue(output.contains("opening: animation 0.85 s"), output)
        XCTAssertTrue(output.contains("timeline of the opening (0.85 s)"), output)
        XCTAssertTrue(output.contains("card:34.place"), output)
    }

    func testTimelineSaysWhichStepItPicksAndPlaysARange() throws {
        let richest = try RulebenchCommand.run(["timeline", "scenarios/cards/deal-staggered-and-undone.yaml"], in: EngineFixtures.repository)
        XCTAssertEqual(richest.status, 0, richest.output)
        XCTAssertTrue(richest.stdout.hasPrefix("step 1: do: deal"), richest.stdout)
        XCTAssertTrue(richest.stdout.contains("[the richest plan; pick another with --step N]"), richest.stdout)
        let svg = FileManager.default.temporaryDirectory.appendingPathComponent("range-\(UUID().uuidString).svg")
        defer { try? FileManager.default.removeItem(at: svg) }
        let range = try RulebenchCommand.run(["timeline", "scenarios/cards/deal-staggered-and-undone.yaml", "--step", "1", "--through", "2",
                                              "--svg", svg.path], in: EngineFixtures.repository)
        XCTAssertEqual(range.status, 0, range.output)
        XCTAssertTrue(range.stdout.contains("(1.500 s, 0 conflicts)"), range.stdout)
        let text = try String(contentsOf: svg, encoding: .utf8)
        XCTAssertTrue(text.contains(">undo deal &gt; draw</text>"), "the undo's colour in the legend")
        XCTAssertEqual(TimelineChartGeometryTests.problems(in: text), [])
        let undo = try RulebenchCommand.run(["timeline", "scenarios/cards/deal-staggered-and-undone.yaml", "--step", "2"], in: EngineFixtures.repository)
        XCTAssertTrue(undo.stdout.contains("played backwards"), undo.stdout)
        let bad = try RulebenchCommand.run(["timeline", "scenarios/template/dash.yaml", "--through", "2"], in: EngineFixtures.repository)
        XCTAssertEqual(bad.status, 2, bad.output)
    }

    func testStaggerModeAndDelaysOnAHandBuiltPack() throws {
        let pack = try temporaryPack([
            "hop": """
                return { params = { n = "integer" }, apply = function(game, a) game.n = game.n + 1 end,
                  animate = function(anim, game, a, direction)
                    if direction == "undo" then return nil end
                    return anim.tween{ target = "t" .. a.n, property = "x", from = 0, to = 1, duration = 0.5 }
                  end }
                """,
            "row": """
                return { apply = function(game, a, act)
                    for i = 1, 4 do act:sub("hop", { n = i }, i == 4 and { delay = 1 } or nil) end
                  end,
                  subanimations = "stagger", stagger = 0.25 }
                """,
            "rows": """
                return { apply = function(game, a, act) act:sub("row"); act:sub("row") end,
                  subanimations = "stagger", stagger = 1 }
                """,
            "pile": """
                return { apply = function(game, a, act) for _ = 1, 3 do act:sub("hop", { n = 9 }) end end,
                  subanimations = "stagger", stagger = 0.25 }
                """,
            "fan": """
                return { apply = function(game, a, act)
                    act:sub("hop", { n = 1 })
                    act:sub("hop", { n = 2 }, { delay = 0.3 })
                  end }
                """,
        ])
        let game = try Game(pack: pack.path)
        let row = try game.perform("row").animation.timeline()
        XCTAssertEqual(runs(row), ["t1.x 0-0.5", "t2.x 0.25-0.75", "t3.x 0.5-1", "t4.x 1.75-2.25"])
        // The mirror: what ended last starts first.
        let back = try game.undo().animation.timeline()
        XCTAssertEqual(runs(back), ["t4.x 0-0.5", "t3.x 1.25-1.75", "t2.x 1.5-2", "t1.x 1.75-2.25"])
        // Staggers nest: the second row starts 1 s after the first, each row staggered inside.
        let rows = try game.perform("rows").animation.timeline()
        XCTAssertEqual(runs(rows), ["t1.x 0-0.5", "t2.x 0.25-0.75", "t3.x 0.5-1", "t1.x 1-1.5", "t2.x 1.25-1.75",
                                    "t3.x 1.5-2", "t4.x 1.75-2.25", "t4.x 2.75-3.25"])
        XCTAssertEqual(rows.conflicts, [])
        XCTAssertNil(try game.undo().animation.timeline().mirrorDifference(of: rows))
        // Staggered runs of one property that overlap are conflicts (0.25 s apart, 0.5 s long).
        let pile = try game.perform("pile").animation.timeline()
        XCTAssertEqual(pile.conflicts.map { "\($0.first.start)-\($0.second.start)" }, ["0.0-0.25", "0.25-0.5"])
        try game.undo()
        // Parallel (the default) with a delay: the delayed one starts later; on undo it goes first.
        let fan = try game.perform("fan").animation.timeline()
        XCTAssertEqual(runs(fan), ["t1.x 0-0.5", "t2.x 0.3-0.8"])
        XCTAssertEqual(runs(try game.undo().animation.timeline()), ["t2.x 0-0.5", "t1.x 0.3-0.8"])
    }

    func testBadStaggerFieldsAndSubOptionsAreClearErrors() throws {
        func loadError(_ source: String) throws -> String {
            let pack = try temporaryPack(["x": source])
            do {
                _ = try Game(pack: pack.path)
                return "loaded"
            } catch {
                return "\(error)"
            }
        }
        XCTAssertTrue(try loadError(#"return { apply = function() end, subanimations = "zigzag" }"#)
            .contains(#"subanimations must be "parallel", "sequence" or "stagger", not "zigzag""#))
        XCTAssertTrue(try loadError(#"return { apply = function() end, stagger = 0.1 }"#)
            .contains(#"needs subanimations = "stagger""#))
        XCTAssertTrue(try loadError(#"return { apply = function() end, subanimations = "stagger", stagger = -1 }"#)
            .contains("stagger must be a finite number"))

        let pack = try temporaryPack([
            "leaf": "return { apply = function(game) game.n = game.n + 1 end }",
            "badopt": #"return { apply = function(game, a, act) act:sub("leaf", {}, { wait = 1 }) end }"#,
            "baddelay": #"return { apply = function(game, a, act) act:sub("leaf", {}, { delay = -1 }) end }"#,
        ])
        let game = try Game(pack: pack.path)
        XCTAssertThrowsError(try game.perform("badopt")) { error in
            XCTAssertTrue("\(error)".contains("act:sub: unknown option \"wait\" (the options are: delay)"), "\(error)")
            XCTAssertTrue("\(error)".contains("badopt.lua:1"), "\(error)")
        }
        XCTAssertThrowsError(try game.perform("baddelay")) { error in
            XCTAssertTrue("\(error)".contains("delay must be a finite number of seconds"), "\(error)")
        }
    }

    // MARK: The mirror

    func testReversedPlansAreTheTimeMirror() {
        func tween(_ target: String, _ duration: Double, delay: Double = 0) -> AnimationPlan {
            .tween(.init(target: target, property: "x", from: 0, to: 1, duration: duration, delay: delay))
        }
        let plans: [AnimationPlan] = [
            .parallel([tween("a", 0.3, delay: 0.2), tween("b", 0.1)]),
            .stagger(interval: 0.1, items: [tween("a", 0.5), tween("b", 0.1), tween("c", 0.2, delay: 0.05)]),
            .sequence([.sound(.init(name: "tick", delay: 0.2)), tween("a", 0.25), .cue(.init(name: "land", delay: 0.1))]),
            .parallel([.frames(.init(target: "s", frames: [1, 2, 3], fps: 10, delay: 0.4)), tween("a", 1, delay: 0.1)]),
        ]
        for plan in plans {
            let done = Timeline(plan: plan), back = Timeline(plan: plan.reversed)
            XCTAssertNil(back.mirrorDifference(of: done), "\(plan)")
            XCTAssertEqual(back.duration, done.duration, accuracy: 1e-12)
            // Instants mirror too.
            let instants = done.events.filter { !$0.isAnimated }.map { done.duration - $0.start }.sorted()
            let mirrored = back.events.filter { !$0.isAnimated }.map(\.start).sorted()
            for (a, b) in zip(instants, mirrored) { XCTAssertEqual(a, b, accuracy: 1e-12) }
        }
        // Forwards again is caught, with what differs.
        let plan = AnimationPlan.parallel([tween("a", 0.3, delay: 0.2), tween("b", 0.1)])
        let difference = Timeline(plan: plan).mirrorDifference(of: Timeline(plan: plan))
        XCTAssertTrue(difference?.contains("no tween on b.x from 1 to 0 at 0.4–0.5 s") == true, difference ?? "nil")
    }

    func testTemplateAndCardsUndoPlayBackwards() throws {
        let template = try game("template")
        let step = try template.perform("step", ["token": "p1"]).animation.timeline()
        let undone = try template.undo().animation.timeline()
        XCTAssertEqual(undone.events.first { $0.isAnimated }?.from, 2)
        XCTAssertEqual(undone.events.first { $0.isAnimated }?.to, 1)
        XCTAssertNil(undone.mirrorDifference(of: step))

        let cards = try game("cards")
        let deal = try cards.perform("deal").animation.timeline()
        let starts = deal.events.filter(\.isAnimated).map(\.start)
        for (start, expected) in zip(starts, stride(from: 0.0, to: 0.6, by: 0.1)) { XCTAssertEqual(start, expected, accuracy: 1e-9) }
        XCTAssertNil(try cards.undo().animation.timeline().mirrorDifference(of: deal))
    }

    // MARK: check

    func testCheckWarnsWhenAnimateIgnoresDirection() throws {
        let tweening = """
            return { apply = function(game, a) game.n = game.n + 1 end,
              undo = function(game, a) game.n = game.n - 1 end,
              animate = function(anim, game, a)
                return anim.tween{ target = "n", property = "x", from = 0, to = 1, duration = 0.1 }
              end, legal = function(game, emit) emit{} end }
            """
        let named = tweening.replacingOccurrences(of: "function(anim, game, a)", with: "function(anim, game, a, direction)")
        let honoured = named.replacingOccurrences(of: "return anim.tween", with: "if direction == \"undo\" then return nil end\n    return anim.tween")
        let pack = try temporaryPack(["forget": tweening, "named": named, "honour": honoured])
        let warnings = try PackChecker(pack: pack.path).check().filter { $0.message.contains("ignores direction") }
        XCTAssertEqual(warnings.map { URL(fileURLWithPath: $0.file).lastPathComponent }.sorted(), ["forget.lua", "named.lua"])
        XCTAssertEqual(warnings.first?.line, 3)
        XCTAssertTrue(warnings.first?.message.contains(#"if direction == "undo" then return nil end"#) == true)
        // The repo's packs honour it.
        for name in ["template", "cards", "desert", "set"] {
            let problems = try PackChecker(pack: EngineFixtures.repository.appendingPathComponent("rules/\(name)").path).check()
            XCTAssertEqual(problems.filter { $0.message.contains("ignores direction") }.map(\.description), [], name)
        }
    }

    // MARK: The fuzzer

    func testTheFuzzerCatchesAnUndoThatPlaysForwards() throws {
        let pack = try temporaryPack([
            "step": """
                return { legal = function(game, emit) emit{} end,
                  apply = function(game, a) a.from = game.n; game.n = game.n + 1 end,
                  animate = function(anim, game, a, direction)
                    return anim.tween{ target = "n", property = "x", from = a.from, to = a.from + 1, duration = 0.1 }
                  end }
                """,
        ])
        var options = Fuzzer.Options(pack: pack.path)
        options.seed = 1
        options.runs = 5
        options.depth = 20
        options.configuration.printHandler = { _ in }
        let report = try XCTUnwrap(Fuzzer(options: options).run().reports.first)
        XCTAssertEqual(report.finding.property, .undoMirrorsDo)
        XCTAssertTrue(report.finding.message.contains("plays its do animation forwards again"), report.finding.message)
        let text = Reproduction.scenario(for: report, packReference: pack.path, fuzzSeed: 1)
        XCTAssertTrue(text.contains("expect: { animation: { mirrored: true } }"), text)
    }
}
