import XCTest
@testable import Rulebench

/// The desert's secrets (issue 40): its tiles lie face down, each tile's
/// face hidden from every seat until it is excavated; a terrascope shows
/// one face to its user alone; the no-leak check finds a view that reads a
/// face-down tile's face (planted in a copy of the desert) and nothing in
/// the desert itself; `play --as p2` shows p2 no deck order and no face.
final class DesertSecretsTests: XCTestCase {
    static let desert = EngineFixtures.repository.appendingPathComponent("rules/desert")

    private func game(_ pack: String = desert.path, options: [String: StateValue] = ["shuffle": false]) throws -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        return try Game(pack: pack, options: options, seed: 1, configuration: configuration)
    }

    /// Every string a value holds.
    private func strings(_ value: StateValue) -> [String] {
        switch value {
        case .string(let s): return [s]
        case .table(let table): return table.values.flatMap(strings)
        default: return []
        }
    }

    /// The faces of the desert's tiles (faces.t1 .. faces.t24 of a fixed deal).
    private func faces(_ game: Game) throws -> [String] {
        try (1...24).map { try XCTUnwrap(game.state(at: StatePath(parsing: "faces.t\($0)"))?.stringValue) }
    }

    /// A copy of the desert in a scratch folder with `line` of `file`
    /// replaced by `with` (a planted leak); fails when the line is gone.
    private func plantedDesert(_ file: String, _ line: String, with planted: String) throws -> String {
        let copy = try scratchFolder("desert-leak").appendingPathComponent("desert")
        try FileManager.default.copyItem(at: Self.desert, to: copy)
        let url = copy.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(text.components(separatedBy: line).count, 2, "\(file) no longer holds `\(line)`: plant the leak elsewhere")
        try text.replacingOccurrences(of: line, with: planted).write(to: url, atomically: true, encoding: .utf8)
        return copy.path
    }

    /// A view of the desert that draws face-down tiles face up.
    private func faceUpView() throws -> String {
        try plantedDesert("view.lua", "local face = D.shown_face(game, id)", with: "local face = D.face(game, id)")
    }

    func testNoSeatSeesAFaceDownTileAndEverySeatSeesItOnceExcavated() throws {
        let game = try game()
        let faces = try faces(game)
        for seat in ["p1", "p2"] {
            let view = try game.view(as: seat)
            let shown = Set(strings(view.state))
            XCTAssertTrue(shown.isDisjoint(with: faces), "\(seat) sees \(shown.intersection(faces))")
            let scene = try XCTUnwrap(try game.scene(as: seat))
            XCTAssertEqual(scene.nodes.filter { $0.id.hasPrefix("tile:") && $0.image != "art/tile-back.svg" }.map(\.id), [],
                           "every tile is drawn face down")
        }
        try game.perform(ActionCall("move", ["player": "p1", "to": "b1"]), as: "p1")
        let step = try game.perform(ActionCall("excavate", ["player": "p1"]), as: "p1")
        XCTAssertEqual(step.views["p2"]?.barrier, "secret", "turning a tile over is a players' undo barrier")
        for seat in ["p1", "p2"] {
            XCTAssertEqual(try game.view(as: seat).state.value(at: "faces.t2"), "well1")
            XCTAssertEqual(try XCTUnwrap(try game.scene(as: seat)).node("tile:t2")?.image, "art/tile-well.svg")
        }
    }

    func testATerrascopeShowsTheFaceToItsUserAlone() throws {
        let game = try game()
        try game.setState(["terrascope"], at: "players.p2.gear")
        try game.setState(nil, at: "gear_deck.12")
        // a2 holds t6, tunnel1; the probes' rotations (salts 1-3) put gear1,
        // the crash site and gear2 under it.
        let call = ActionCall("terrascope", ["player": "p2", "at": "a2"])
        for seat in ["p1", "p2"] {
            for salt in 1...3 {
                XCTAssertNil(try game.stepProbe(seat, call, salt: salt), "\(seat), salt \(salt)")
            }
        }
        let step = try game.perform(call, as: "p2")
        let p1 = strings(try XCTUnwrap(step.views["p1"]?.plan)), p2 = strings(try XCTUnwrap(step.views["p2"]?.plan))
        XCTAssertTrue(p2.contains("tunnel1"), "\(p2)")
        XCTAssertFalse(p1.contains("tunnel1"), "\(p1)")
        XCTAssertEqual(try game.view(as: "p2").state.value(at: "faces.t6"), "tunnel1")
        XCTAssertEqual(try game.view(as: "p1").state.value(at: "faces.t6"), .string(SeatView.hidden))
        for salt in 1...3 { XCTAssertNil(try game.leakProbe("p1", salt: salt), "salt \(salt)") }
    }

    /// The probes find a terrascope whose cue tells every seat the kind of
    /// tile it found (a word no hidden slot holds, so nothing redacts it).
    func testATerrascopeCueNamingTheKindIsALeakToTheOtherSeat() throws {
        let pack = try plantedDesert("actions/terrascope.lua", "tile = a.tile, face = a.face }",
                                     with: "tile = a.tile, face = a.face, kind = require(\"desert\").FACE[a.face].kind }")
        let game = try game(pack)
        try game.setState(["terrascope"], at: "players.p2.gear")
        try game.setState(nil, at: "gear_deck.12")
        let call = ActionCall("terrascope", ["player": "p2", "at": "a2"])
        let leaks = try (1...3).compactMap { try game.stepProbe("p1", call, salt: $0) }
        XCTAssertTrue(leaks.contains { $0.shown == .plan && $0.slots.contains("faces") }, "\(leaks)")
    }

    /// The fuzzer, with the no-leak check on, finds the face-up view in a
    /// few seeded runs (and its reproduction fails under `run`); off, it
    /// does not; the desert itself gives no finding in a short seeded fuzz.
    /// Seed 3: the leak is there from setup, so the step it is found at is
    /// the run's first; with seed 1 that is an attempt with a param the
    /// action does not declare, which a scenario cannot hold (the
    /// reproduction is then refused as bad input: a limit of fuzz's
    /// reproductions, not of the desert).
    func testTheFuzzerFindsAFaceDownTileInAViewAndNothingInTheDesert() throws {
        func fuzz(_ pack: String, checksLeaks: Bool = true, runs: Int = 2, depth: Int = 6) -> [Fuzzer.Report] {
            var options = Fuzzer.Options(pack: pack)
            options.seed = 3
            options.runs = runs
            options.depth = depth
            options.configuration = PlantedBugTests.configuration
            options.configuration.checksLeaks = checksLeaks
            return Fuzzer(options: options).run().reports
        }
        let planted = try faceUpView()
        let report = try XCTUnwrap(fuzz(planted).first)
        XCTAssertEqual(report.finding.property, .seatSeesOnly, report.finding.message)
        XCTAssertTrue(report.finding.message.contains("faces"), report.finding.message)
        let file = try scratchFolder("desert-leak-run").appendingPathComponent("leak.yaml")
        try Reproduction.scenario(for: report, packReference: planted, fuzzSeed: 3).write(to: file, atomically: true, encoding: .utf8)
        var checking = PlantedBugTests.configuration
        checking.checksLeaks = true
        let run = ScenarioRunner(configuration: checking).run(fileAt: file)
        XCTAssertEqual(run.status, .failed)
        XCTAssertTrue(run.failure?.mismatches.contains { $0.check.hasPrefix("no seat is shown") } ?? false)
        XCTAssertTrue(fuzz(planted, checksLeaks: false).allSatisfy { $0.finding.property != .seatSeesOnly })
        XCTAssertEqual(fuzz(Self.desert.path, runs: 3, depth: 25).map(\.finding.message), [])
    }

    /// The differences of two whole views, as (path, before, after) in key
    /// order: a slot whose value differs, down to the slots (a table on one
    /// side only is one difference).
    private func differences(_ a: StateValue?, _ b: StateValue?, _ path: [String] = []) -> [String] {
        if case .table(let x)? = a, case .table(let y)? = b {
            return Set(x.keys).union(y.keys).sorted().flatMap { differences(x[$0], y[$0], path + [$0.description]) }
        }
        guard a != b else { return [] }
        return ["\(path.joined(separator: ".")): \(a.map(\.description) ?? "nil") -> \(b.map(\.description) ?? "nil")"]
    }

    /// A step's views are read from what it wrote: in three seeded desert
    /// games played to their end or 120 steps (moves, digs, excavations that
    /// turn faces visible, storm and gear draws), each seat's view hash
    /// after every step is its whole view's, and its changes (but the
    /// tables whose hidden slots changed) are the differences of its whole
    /// views before and after.
    func testEachSeatsViewOfAStepIsItsWholeViewsDifference() throws {
        var steps = 0
        for seed in 1...3 {
            var configuration = Game.Configuration()
            configuration.printHandler = { _ in }
            let game = try Game(pack: Self.desert.path, options: ["players": .int(3)], seed: Int64(seed), configuration: configuration)
            var pick = UInt64(seed)
            for step in 0..<120 {
                let calls = try game.legalActions().filter { if case .string? = $0.params["player"] { return true } else { return false } }
                guard !calls.isEmpty else { break }
                pick = pick &* 6364136223846793005 &+ 1442695040888963407
                let call = calls[Int(pick >> 33) % calls.count]
                guard case .string(let seat)? = call.params["player"] else { continue }
                let before = try ["p1", "p2", "p3"].map { seat throws(RulebenchError) in try game.view(as: seat) }
                let performed = try game.perform(call, as: seat)
                for (index, seat) in ["p1", "p2", "p3"].enumerated() {
                    let view = try XCTUnwrap(performed.views[seat]), after = try game.view(as: seat)
                    XCTAssertEqual(view.hash, after.hash, "seed \(seed) step \(step) \(call), \(seat)")
                    XCTAssertEqual(view.hash, try game.viewHash(as: seat))
                    let shown = view.changes.filter { !$0.isHidden }.map {
                        "\($0.path): \($0.before.map(\.description) ?? "nil") -> \($0.after.map(\.description) ?? "nil")"
                    }
                    XCTAssertEqual(shown, differences(before[index].state, after.state), "seed \(seed) step \(step) \(call), \(seat)")
                }
                steps += 1
            }
        }
        XCTAssertGreaterThan(steps, 60)
    }

    /// `rulebench play rules/desert --as p2`, `state`: p2's view, with no
    /// card of either deck and no face of a face-down tile in it.
    func testPlayAsP2ShowsNoDeckOrderAndNoFaceDownTile() throws {
        let result = try RulebenchCommand.run(["play", Self.desert.path, "--as", "p2", "--seed", "3"], input: "state\n",
                                              in: EngineFixtures.repository)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("faces"), result.stdout)
        XCTAssertTrue(result.stdout.contains("(hidden)"), result.stdout)
        let cards = ["wind_", "sun_beats_down", "storm_picks_up", "dune_blaster", "jetpack", "solar_shield", "terrascope",
                     "water_reserve", "time_throttle"]
        let tiles = ["crash", "well1", "well2", "mirage", "pad", "tunnel", "gear1", "_row", "_col"]
        for word in cards + tiles { XCTAssertFalse(result.stdout.contains(word), "p2 is shown \(word): \(result.stdout)") }
        XCTAssertFalse(result.stdout.contains("_rng"), result.stdout)
    }
}
