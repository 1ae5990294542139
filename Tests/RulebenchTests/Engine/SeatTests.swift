import XCTest
@testable import Rulebench

/// Seats and secrets (Kernel/seats.lua, Game+Seats): who may act, what
/// each seat sees, the players' undo barriers, and the no-leak probes
/// finding the five planted leaks (Fixtures/leaks) and nothing in the
/// leak-free packs.
final class SeatTests: XCTestCase {
    static let leaks = EngineFixtures.repository.appendingPathComponent("Tests/RulebenchTests/Fixtures/leaks")
    static let cards = EngineFixtures.repository.appendingPathComponent("rules/cards").path

    private func game(_ pack: String, seed: Int64 = 1) throws -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        return try Game(pack: pack, seed: seed, configuration: configuration)
    }

    private func leakPack(_ name: String) -> String { Self.leaks.appendingPathComponent(name).path }

    /// The line of each planted leak's fixture that puts the secret in view.
    static let plantedLines = [
        "top-card-view": "top-card-view/pack.lua:7",           // add{ text = "next: " .. the top card }
        "full-hash-view": "full-hash-view/pack.lua:12",        // add{ text = "state " .. seal(game) }
        "offered-call": "offered-call/actions/guess.lua:3",    // emit{} when the top card is c3
        // `return anim.cue{ ... " drew the " .. a.card }` is a tail call, of which Lua
        // keeps no line: the plan's leaf names its animate function's first line.
        "plan-names-card": "plan-names-card/actions/draw.lua:6",
        "hidden-write": "hidden-write/actions/bury.lua:6",     // the deck changed when the top card is c3
    ]

    /// Every string a value holds.
    private func strings(_ value: StateValue) -> [String] {
        switch value {
        case .string(let s): return [s]
        case .table(let table): return table.values.flatMap(strings)
        default: return []
        }
    }

    func testACallOutOfTurnIsRefusedWithThePacksReasonAndNothingChanges() throws {
        let game = try game(Self.cards)
        XCTAssertEqual(try game.seats(), ["p1", "p2"])
        let before = try game.liveStateHash()
        XCTAssertThrowsError(try game.perform(ActionCall("deal", [:]), as: "p2")) { error in
            guard case .rejected(let reason, _) = error as? RulebenchError else { return XCTFail("\(error)") }
            XCTAssertEqual(reason, "it is p1's turn")
        }
        XCTAssertEqual(try game.liveStateHash(), before)
        XCTAssertEqual(game.history.entries.count, 0)
        XCTAssertEqual(try game.legalActions(as: "p2"), [])
        XCTAssertEqual(try game.refusal(ActionCall("deal", [:]), as: "p2"), "it is p1's turn")
        XCTAssertNil(try game.refusal(ActionCall("deal", [:]), as: "p1"))
        XCTAssertThrowsError(try game.perform(ActionCall("deal", [:]), as: "p7"))
        let step = try game.perform(ActionCall("deal", [:]), as: "p1")
        XCTAssertEqual(step.entry.hash, try game.liveStateHash())
    }

    func testEachSeatSeesItsOwnHandAndCardBacksAndNoStateHash() throws {
        let game = try game(Self.cards)
        let step = try game.perform(ActionCall("deal", [:]), as: "p1")
        let p1 = try game.view(as: "p1"), p2 = try game.view(as: "p2")
        let p1hand = try XCTUnwrap(p1.state[.string("hands")]?[.string("p1")]?.listItems)
        XCTAssertEqual(p1hand.count, 3)
        XCTAssertFalse(p1hand.contains(.string(SeatView.hidden)))
        XCTAssertEqual(p2.state[.string("hands")]?[.string("p1")]?.listItems, Array(repeating: .string(SeatView.hidden), count: 3))
        XCTAssertEqual(Set(p1.state[.string("deck")]?.listItems ?? []), [.string(SeatView.hidden)])
        XCTAssertNil(p1.state[.string("_rng")], "the generator is a secret")
        XCTAssertEqual(step.views["p1"]?.hash, p1.hash)
        XCTAssertEqual(step.views["p2"]?.hash, p2.hash)
        // p1's cards never reach p2: not in its view, not in its plan.
        let p1ids = p1hand.compactMap { $0[.string("id")]?.stringValue }
        XCTAssertEqual(p1ids.count, 3)
        let p2words = strings(p2.state) + strings(try XCTUnwrap(step.views["p2"]?.plan))
        for id in p1ids { XCTAssertFalse(p2words.contains { $0.contains(id) }, "p2 sees \(id)") }
        XCTAssertTrue(strings(try XCTUnwrap(step.views["p1"]?.plan)).contains { $0 == "card:" + p1ids[0] })
        // The step's changes: p1 sees its three cards arrive, p2 three card
        // backs, and both see six slots leave the deck, never which cards.
        let p1changes = try XCTUnwrap(step.views["p1"]?.changes), p2changes = try XCTUnwrap(step.views["p2"]?.changes)
        let arrived = p1changes.filter { $0.path.hasPrefix("hands.p1.") }
        XCTAssertEqual(arrived.map(\.before), [nil, nil, nil])
        XCTAssertEqual(arrived.compactMap { $0.after?[.string("id")]?.stringValue }, p1ids)
        XCTAssertEqual(p2changes.filter { $0.path.hasPrefix("hands.p1.") }.map(\.after), Array(repeating: .string(SeatView.hidden), count: 3))
        XCTAssertEqual(p2changes.filter { $0.path.hasPrefix("deck.") }.count, 6)
        XCTAssertTrue(p2changes.filter { $0.path.hasPrefix("deck.") }.allSatisfy { $0.before == .string(SeatView.hidden) && $0.after == nil })
        let p2changeWords = p2changes.flatMap { [$0.path] + ([$0.before, $0.after].compactMap { $0 }.flatMap(strings)) }
        for id in p1ids { XCTAssertFalse(p2changeWords.contains { $0.contains(id) }, "p2's changes show \(id)") }
        for view in [p1, p2] {
            XCTAssertFalse(strings(view.state).contains(game.stateHash.description))
            XCTAssertNotEqual(view.hash, game.stateHash.description)
        }
    }

    func testAViewDependsOnlyOnWhatTheSeatMaySee() throws {
        // Two seeds: another deck order and generator, the same views.
        let one = try game(Self.cards, seed: 1), two = try game(Self.cards, seed: 2)
        XCTAssertNotEqual(one.stateHash, two.stateHash)
        for seat in ["p1", "p2"] {
            XCTAssertEqual(try one.view(as: seat), try two.view(as: seat))
        }
        try one.perform(ActionCall("deal", [:]), as: "p1")
        try two.perform(ActionCall("deal", [:]), as: "p1")
        XCTAssertNotEqual(try one.view(as: "p1").hash, try two.view(as: "p1").hash, "p1 sees its own, other cards")
        XCTAssertEqual(try one.view(as: "p2").state[.string("hands")]?[.string("p1")],
                       try two.view(as: "p2").state[.string("hands")]?[.string("p1")])
    }

    func testUndoTurnAsASeatStopsAtARevealAndTheAuthorsGoesThrough() throws {
        let game = try game(Self.cards)
        let step = try game.perform(ActionCall("deal", [:]), as: "p1")
        XCTAssertEqual(step.views["p1"]?.barrier, "secret", "the deal took cards off the face-down deck")
        XCTAssertEqual(try game.undoTurn(as: "p1").count, 0)
        XCTAssertEqual(game.history.cursor, 1, "the deal stays")
        XCTAssertEqual(try game.undoTurn().count, 1, "the author's undo turn goes through")
        XCTAssertEqual(game.history.cursor, 0)
    }

    func testThePackWithoutSeatsIsPlayedAsBefore() throws {
        let game = try game(EngineFixtures.repository.appendingPathComponent("rules/template").path)
        XCTAssertEqual(try game.seats(), [])
        XCTAssertThrowsError(try game.perform(ActionCall("step", ["token": .string("p1")]), as: "p1")) { error in
            XCTAssertTrue("\(error)".contains("declares no seats"), "\(error)")
        }
    }

    /// The probes at every state of a short game, for both seats and a few salts.
    private func probes(_ pack: String) throws -> [SeatLeak] {
        let game = try game(pack)
        var found: [SeatLeak] = []
        for _ in 0..<4 {
            for seat in ["p1", "p2"] {
                for salt in 1...5 {
                    if let leak = try game.leakProbe(seat, salt: salt) { found.append(leak) }
                    for call in try game.legalActions() {
                        if let leak = try game.stepProbe(seat, call, salt: salt) { found.append(leak) }
                    }
                }
            }
            guard let next = try game.legalActions().first(where: { $0.name == "draw" }) else { break }
            let current = try XCTUnwrap(game.state(at: "current")?.stringValue)
            try game.perform(next, as: current)
        }
        return found
    }

    func testTheLeakFreePacksLeakNothing() throws {
        XCTAssertEqual(try probes(leakPack("base")), [])
        XCTAssertEqual(try probes(Self.cards), [])
    }

    func testThePlantedLeaksAreFound() throws {
        XCTAssertTrue(try probes(leakPack("top-card-view")).contains { $0.shown == .scene })
        XCTAssertTrue(try probes(leakPack("full-hash-view")).contains { $0.shown == .scene })
        XCTAssertTrue(try probes(leakPack("offered-call")).contains { $0.shown == .calls })
        let plan = try probes(leakPack("plan-names-card"))
        XCTAssertTrue(plan.contains { $0.shown == .plan && $0.seat == "p2" }, "\(plan)")
        XCTAssertFalse(plan.contains { $0.seat == "p1" }, "p1 drew the card: it may see its name")
        // The fifth: a step whose changes (the deck's hidden slots changed or not) tell the top card.
        let changes = try probes(leakPack("hidden-write"))
        XCTAssertTrue(changes.contains { $0.shown == .changes }, "\(changes)")
        XCTAssertFalse(changes.contains { $0.shown != .changes }, "\(changes)")
    }

    /// Each planted leak's finding names the line of its fixture that put
    /// the secret into what the seat is shown, in the finding and its message.
    func testEachLeakNamesTheLuaLineThatPutTheSecretInView() throws {
        let shown: [String: SeatLeak.Shown] = ["top-card-view": .scene, "full-hash-view": .scene, "offered-call": .calls,
                                               "plan-names-card": .plan, "hidden-write": .changes]
        for (pack, shown) in shown {
            let line = try XCTUnwrap(Self.plantedLines[pack])
            let found = try probes(leakPack(pack)).filter { $0.shown == shown }
            XCTAssertFalse(found.isEmpty, pack)
            for leak in found {
                XCTAssertTrue(leak.line?.hasSuffix(line) ?? false, "\(pack): \(leak.line ?? "no line"), not \(line)")
                XCTAssertTrue(leak.message(before: nil).hasSuffix("the secret reached it at \(leak.line ?? "?")"), leak.message(before: nil))
            }
        }
    }

    /// The fuzzer finds each planted leak in a few short runs, and its
    /// reproduction fails under `run` (the runner checks the no-leak
    /// property at every step of a seated game); the leak-free base and
    /// the cards pack give no finding, and `checksLeaks` off finds nothing.
    func testTheFuzzerFindsEachPlantedLeakAndItsReproductionFailsUnderRun() throws {
        func fuzz(_ pack: String, checksLeaks: Bool = true) -> [Fuzzer.Report] {
            var options = Fuzzer.Options(pack: pack)
            options.seed = 1
            options.runs = 6
            options.depth = 12
            options.configuration = PlantedBugTests.configuration
            options.configuration.checksLeaks = checksLeaks
            return Fuzzer(options: options).run().reports
        }
        let folder = try scratchFolder("seats")
        for name in ["top-card-view", "plan-names-card", "offered-call", "full-hash-view", "hidden-write"] {
            let report = try XCTUnwrap(fuzz(leakPack(name)).first, name)
            XCTAssertEqual(report.finding.property, .seatSeesOnly, "\(name): \(report.finding.message)")
            let blamed = report.finding.blamed?.location?.description ?? "no blame"
            XCTAssertTrue(blamed.hasSuffix(try XCTUnwrap(Self.plantedLines[name])), "\(name): \(blamed)")
            let file = folder.appendingPathComponent(name + ".yaml")
            try Reproduction.scenario(for: report, packReference: leakPack(name), fuzzSeed: 1).write(to: file, atomically: true, encoding: .utf8)
            var checking = PlantedBugTests.configuration
            checking.checksLeaks = true
            let run = ScenarioRunner(configuration: checking).run(fileAt: file)
            XCTAssertEqual(run.status, .failed, name)
            XCTAssertTrue(run.failure?.mismatches.contains { $0.check.hasPrefix("no seat is shown") } ?? false, name)
            XCTAssertTrue(fuzz(leakPack(name), checksLeaks: false).allSatisfy { $0.finding.property != .seatSeesOnly }, name)
        }
        XCTAssertEqual(fuzz(leakPack("base")).map(\.finding.message), [])
        XCTAssertEqual(fuzz(Self.cards).map(\.finding.message), [])
    }

    /// `play --as p2`: the state it shows is p2's view (the decks face
    /// down, no generator), the author's board and timelines are refused,
    /// and p2 may not move p1.
    func testPlayingAsASeatShowsItsViewOnly() throws {
        let game = try game(EngineFixtures.repository.appendingPathComponent("rules/desert").path)
        var output = ""
        let session = PlaySession(game: game) { output += $0 }
        session.seat = "p2"
        session.handle("state storm_deck")
        XCTAssertTrue(output.contains("(hidden)"), output)
        XCTAssertFalse(output.contains("wind_"), output)
        output = ""
        session.handle("state")
        XCTAssertFalse(output.contains("_rng") || output.contains("wind_") || output.contains("sun_beats_down"), output)
        output = ""
        session.handle("board")
        XCTAssertTrue(output.contains("reads the whole state"), output)
        output = ""
        session.handle("do end_turn player=p1")
        XCTAssertTrue(output.contains("this call is p1's to make, not p2's"), output)
        XCTAssertEqual(game.history.entries.count, 0)
    }
}
