import XCTest
@testable import Rulebench

/// The shrinker on small programs of the `lane` fixture pack, whose minimal
/// reproductions can be worked out by hand: dependent moves deleted
/// together, `undo turn` made `undo N`, a 1-minimal result, a smaller seed.
final class ShrinkerTests: XCTestCase {
    static let lane = EngineFixtures.repository.appendingPathComponent("Tests/RulebenchTests/Fixtures/shrink/lane").path

    private func configuration() -> Game.Configuration {
        var configuration = Game.Configuration()
        configuration.strict = true
        configuration.printHandler = { _ in }
        return configuration
    }

    private func executor() -> FuzzExecutor {
        FuzzExecutor(configuration: configuration(), base: nil)
    }

    private func program(_ steps: [FuzzStep], seed: Int64 = 1, options: [String: StateValue] = [:]) -> FuzzProgram {
        FuzzProgram(pack: Self.lane, seed: seed, options: options, steps: steps)
    }

    private func move(_ to: Int) -> FuzzStep { .perform(ActionCall("move", ["to": .int(Int64(to))])) }
    private let tick = FuzzStep.perform(ActionCall("tick", [:]))
    private let poke = FuzzStep.perform(ActionCall("poke", [:]))
    private let endTurn = FuzzStep.perform(ActionCall("end_turn", [:]))

    /// Runs `program` (which must fail) and shrinks it; returns the result,
    /// its finding, the original finding, and whether it fails only in the
    /// end-of-run checks (the rewind).
    private func shrink(_ program: FuzzProgram, file: StaticString = #filePath, line: UInt = #line)
        throws -> (shrunk: FuzzProgram, finding: FuzzFinding, original: FuzzFinding, atTheEnd: Bool) {
        var run = executor().execute(program, checkLegality: true, finalChecks: false)
        let atTheEnd = run.finding == nil
        if atTheEnd { run = executor().execute(program, checkLegality: true, finalChecks: true) }
        XCTAssertTrue(run.valid, "the test's program is not legal", file: file, line: line)
        let original = try XCTUnwrap(run.finding, "the test's program does not fail", file: file, line: line)
        var shrinker = Shrinker(executor: executor())
        let (shrunk, finding) = shrinker.shrink(program, original)
        XCTAssertEqual(shrinker.status, .minimal, "the shrinker ran out of budget", file: file, line: line)
        XCTAssertEqual(finding.property, original.property, file: file, line: line)
        return (shrunk, finding, original, atTheEnd)
    }

    /// Whether `candidate` is legal and fails with `property` (judged afresh, not by the shrinker).
    private func fails(_ candidate: FuzzProgram, as property: FuzzFinding.Property, atTheEnd: Bool = false) -> Bool {
        let run = executor().execute(candidate, checkLegality: true, finalChecks: atTheEnd)
        return run.valid && run.finding?.property == property
    }

    /// No program with one step fewer fails the same way.
    private func assertOneMinimal(_ program: FuzzProgram, _ property: FuzzFinding.Property, atTheEnd: Bool = false,
                                  file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(fails(program, as: property, atTheEnd: atTheEnd), "the shrunk program does not reproduce", file: file, line: line)
        for index in program.steps.indices {
            var shorter = program
            shorter.steps.remove(at: index)
            XCTAssertFalse(fails(shorter, as: property, atTheEnd: atTheEnd),
                           "deleting step \(index + 1) (\(program.steps[index])) still fails: \(shorter.steps)", file: file, line: line)
        }
    }

    func testAMoveAndTheMoveBackAreDeletedTogether() throws {
        // Deleting either move alone leaves an illegal program (`move to=0`
        // from square 0; `poke` on square 1): only the pair can go.
        let (shrunk, finding, _, _) = try shrink(program([move(1), move(0), poke, .undo(1)]))
        XCTAssertEqual(finding.property, .undoRestores)
        XCTAssertEqual(shrunk.steps, [poke, .undo(1)])
        assertOneMinimal(shrunk, .undoRestores)
    }

    func testAPairWithAStepBetweenIsDeletedTogether() throws {
        // The tick between the moves is needed (the bug needs one tick), so
        // no run of adjacent steps can go; the two moves can.
        let original = program([move(1), tick, move(0), poke, .undo(1)], options: ["need": 1])
        let (shrunk, _, _, _) = try shrink(original)
        XCTAssertFalse(shrunk.steps.contains(move(1)) || shrunk.steps.contains(move(0)), "\(shrunk.steps)")
        XCTAssertEqual(shrunk.steps.count, 3, "\(shrunk.steps)")
        assertOneMinimal(shrunk, .undoRestores)
    }

    /// A candidate resumed after the steps it shares with the last one
    /// (rewound there with the strict undo, or redone after a run that
    /// rewound at its end) gives what it gives from a restarted game.
    func testAResumedCandidateRunsAsFromARestart() throws {
        let options: [String: StateValue] = ["need": 1]
        let cases: [(last: [FuzzStep], next: [FuzzStep], finalChecks: Bool)] = [
            ([tick, move(1), move(0), tick, poke, .undo(1)], [tick, move(1), move(0), poke, .undo(1)], false),
            ([tick, move(1), move(0), tick], [tick, move(1), move(0), poke], true),
        ]
        for (last, next, finalChecks) in cases {
            let shared = executor()
            _ = shared.execute(program(last, options: options), checkLegality: true, finalChecks: finalChecks)
            let resumed = shared.execute(program(next, options: options), checkLegality: true, finalChecks: finalChecks, resuming: true)
            XCTAssertTrue(resumed.resumed, "\(next)")
            let fresh = executor().execute(program(next, options: options), checkLegality: true, finalChecks: finalChecks)
            XCTAssertEqual(fresh.finding?.property, .undoRestores)
            XCTAssertEqual(resumed.outcomes, fresh.outcomes)
            XCTAssertEqual(resumed.trace, fresh.trace)
            XCTAssertEqual(resumed.finding?.description, fresh.finding?.description)
        }
    }

    /// A resumed candidate's end-of-run rewind stops where the last
    /// candidate's rewind started when the steps up to there are the very
    /// entries that rewind undid: every undo below was verified from that
    /// state. The game stays there; the run finds what a run from a
    /// restart finds (nothing after a tick, the broken undo after a poke).
    func testAResumedRewindStopsWhereTheLastOneStarted() throws {
        let options: [String: StateValue] = ["need": 1]
        let last = [tick, move(1), move(0), tick]
        let shared = executor()
        _ = shared.execute(program(last, options: options), checkLegality: true, finalChecks: true)
        XCTAssertEqual(shared.games.main?.history.cursor, 0, "a run from a restart rewinds to the state after setup")
        for (next, stopsAt) in [(last + [tick], 4), (last + [poke], nil)] {
            let resumed = shared.execute(program(next, options: options), checkLegality: true, finalChecks: true, resuming: true)
            XCTAssertTrue(resumed.resumed, "\(next)")
            if let stopsAt { XCTAssertEqual(shared.games.main?.history.cursor, stopsAt, "\(next)") }
            let fresh = executor().execute(program(next, options: options), checkLegality: true, finalChecks: true)
            XCTAssertEqual(resumed.outcomes, fresh.outcomes)
            XCTAssertEqual(resumed.trace, fresh.trace)
            XCTAssertEqual(resumed.finding?.description, fresh.finding?.description)
        }
        XCTAssertEqual(executor().execute(program(last + [poke], options: options), checkLegality: true).finding?.property,
                       .undoRestores, "the rewind after the poke finds its broken undo")
    }

    /// A candidate whose `perform` is not legal at its point comes back
    /// with the calls that are (what the shrinker mends it with): those a
    /// run listing the legal calls there gives.
    func testAnIllegalCandidateBringsBackTheCallsLegalThere() {
        let illegal = program([tick, move(1), move(3)])   // square 3 is two squares from square 1
        let run = executor().execute(illegal, checkLegality: true, finalChecks: false)
        XCTAssertFalse(run.valid)
        XCTAssertEqual(run.outcomes.count, 2)
        let listed = executor().execute(illegal, checkLegality: false, recordLegal: true, finalChecks: false).legal
        XCTAssertEqual(listed.count, 3)
        let offered = run.offered?.map(\.description).sorted()
        XCTAssertEqual(offered, listed.last?.map(\.description).sorted())
        XCTAssertTrue(offered?.contains(ActionCall("move", ["to": .int(2)]).description) == true, "\(offered ?? [])")
    }

    func testAFailingUndoTurnBecomesUndoOne() throws {
        let (shrunk, finding, original, _) = try shrink(program([endTurn, tick, poke, .undoTurn]))
        XCTAssertEqual(original.stepIndex, 3, "the undo turn is the failing step")
        XCTAssertEqual(finding.property, .undoRestores)
        XCTAssertEqual(shrunk.steps, [poke, .undo(1)])
    }

    func testAnUndoTurnThatRanBecomesUndoOfTheStepsItUndid() throws {
        // The redo bug needs an undo before the redo; the turn's undo undid
        // three steps, so `undo 3`, then smaller counts and fewer steps.
        let original = program([endTurn, tick, poke, tick, .undoTurn, .redo(3)], options: ["bug": "redo"])
        let run = executor().execute(original, checkLegality: true, finalChecks: false)
        XCTAssertEqual(run.outcomes.count > 4 ? run.outcomes[4] : nil, .undone(3), "undo turn undid three steps")
        let (shrunk, finding, _, _) = try shrink(original)
        XCTAssertEqual(finding.property, .redoReproduces)
        XCTAssertFalse(shrunk.steps.contains(.undoTurn), "\(shrunk.steps)")
        XCTAssertEqual(shrunk.steps, [poke, .undo(1), .redo(1)])
    }

    /// Random games of the lane pack (200 steps at most, choice seeds 1 to
    /// 300) in which the undo bug shows, of more than `steps` steps: it
    /// needs three ticks before the poke is undone.
    private func laneGamesFindingTheUndoBug(longerThan steps: Int) -> some Collection<(FuzzProgram, FuzzExecutor.Result)> {
        var options = Fuzzer.Options(pack: Self.lane)
        options.setupOptions = ["need": 3]
        options.depth = 200
        options.configuration = configuration()
        let fuzzer = Fuzzer(options: options)
        return (UInt64(1)...300).lazy.map { fuzzer.generate(gameSeed: 5, choiceSeed: $0) }
            .filter { $0.1.finding?.property == .undoRestores && $0.0.steps.count > steps }
    }

    func testResultsOfLongRandomGamesAreOneMinimal() throws {
        // Random games of the lane pack until the undo bug shows (it needs
        // three ticks before the poke is undone): one that fails at a step,
        // one that fails only when the end-of-run check rewinds the game.
        let games = laneGamesFindingTheUndoBug(longerThan: 12)
        let atAStep = games.first { self.executor().execute($0.0, checkLegality: true, finalChecks: false).finding != nil }
        let atTheEnd = games.first { self.executor().execute($0.0, checkLegality: true, finalChecks: false).finding == nil }
        for (kind, game) in [("at a step", atAStep), ("at the end", atTheEnd)] {
            let (program, _) = try XCTUnwrap(game, "no random game of 300 found the bug \(kind)")
            let (shrunk, _, _, end) = try shrink(program)
            XCTAssertEqual(end, kind == "at the end")
            XCTAssertLessThan(shrunk.steps.count, program.steps.count, kind)
            XCTAssertEqual(shrunk.seed, 0, "the lane's setup does not use the seed")
            assertOneMinimal(shrunk, .undoRestores, atTheEnd: end)
        }
    }

    /// The cheap passes (the live line, chunks by halving) take a long
    /// random line most of the way within a small candidate budget, on a
    /// clock that stands still: a game of 60 steps or more of the lane
    /// pack, full of undos and redos, comes within 1.5x of its known
    /// minimal length (3 ticks, the poke, its undo) in 30 candidates.
    /// Without them, the repairing passes leave it at 13 steps (measured).
    func testALongRandomLineShrinksNearTheMinimalOnASmallBudget() throws {
        let games = laneGamesFindingTheUndoBug(longerThan: 59)
        let (long, _) = try XCTUnwrap(games.first, "no random game of 300 failed after 60 steps or more")
        // It may fail at a step, or only when the end-of-run check rewinds it.
        let atTheEnd = executor().execute(long, checkLegality: true, finalChecks: false).finding == nil
        let found = try XCTUnwrap(executor().execute(long, checkLegality: true, finalChecks: atTheEnd).finding)
        var shrinker = Shrinker(executor: executor(), budget: 30, clock: { 0 })
        let (shrunk, finding) = shrinker.shrink(long, found)
        XCTAssertEqual(finding.property, .undoRestores)
        XCTAssertTrue(fails(shrunk, as: .undoRestores, atTheEnd: atTheEnd), "the shrunk line does not reproduce")
        // 3 ticks and the poke, then its undo (the rewind's, at the end).
        let minimal = atTheEnd ? 4 : 5
        XCTAssertLessThanOrEqual(shrunk.steps.count * 2, minimal * 3, "\(long.steps.count) steps shrank to \(shrunk.steps)")
    }

    /// The live line: undone steps, redos and rejected attempts out.
    func testTheLiveLineKeepsOnlyWhatStaysApplied() {
        let attempt = FuzzStep.attempt(ActionCall("poke", [:]))
        let steps: [FuzzStep] = [tick, poke, .undo(2), .redo(1), attempt, move(1), .undoTurn, .redo(1), tick]
        let hash = StateHash(hex: "0000000000000000")
        let outcomes: [FuzzExecutor.Outcome] = [.performed(hash), .performed(hash), .undone(2), .redone(1),
                                                 .rejected("already"), .performed(hash), .undone(1), .redone(1), .performed(hash)]
        XCTAssertEqual(LiveLine.of(steps, outcomes: outcomes, end: 9), [tick, move(1), tick])
        XCTAssertEqual(LiveLine.of(steps, outcomes: outcomes, end: 3), [])
        XCTAssertEqual(LiveLine.of(steps, outcomes: outcomes, end: 4), [tick], "the redo brings back the first undone step")
        XCTAssertNil(LiveLine.of(steps, outcomes: Array(outcomes.prefix(2)), end: 3), "outcomes missing")
    }

    func testTheSeedShrinksWhenTheSetupIgnoresIt() throws {
        let (shrunk, _, _, _) = try shrink(program([poke, tick, .undo(2)], seed: 98_765))
        XCTAssertEqual(shrunk.seed, 0)
        XCTAssertEqual(shrunk.steps, [poke, .undo(1)])
    }

    func testTheSeedShrinksOnlyToSeedsThatKeepTheFinding() throws {
        // With `seeded`, the start square and the salt (the bug needs an
        // odd one) come from the seed: a smaller seed is kept only when the
        // program stays legal and still fails.
        var options = Fuzzer.Options(pack: Self.lane)
        options.setupOptions = ["seeded": true]
        options.configuration = configuration()
        let fuzzer = Fuzzer(options: options)
        let failing = (Int64(90_000)..<90_200).lazy.map { fuzzer.generate(gameSeed: $0, choiceSeed: UInt64($0)) }
            .first { $0.1.finding?.property == .undoRestores }
        let (program, _) = try XCTUnwrap(failing, "no game seed of 200 found the bug")
        let (shrunk, _, _, end) = try shrink(program)
        XCTAssertLessThan(shrunk.seed, program.seed)
        assertOneMinimal(shrunk, .undoRestores, atTheEnd: end)
        // Every smaller seed the shrinker tries loses the finding (or
        // legality) with these steps: it kept the simplest seed it could.
        for seed in Shrinker.smallerSeeds(than: shrunk.seed) {
            var other = shrunk
            other.seed = seed
            XCTAssertFalse(fails(other, as: .undoRestores, atTheEnd: end), "seed \(seed) also fails: the shrinker should have taken it")
        }
    }

    func testAShrunkCandidateMustFailAtTheSameLine() {
        // Two bugs of the same property in different places are not the same
        // finding: the shrinker must not slip from one to the other.
        let here = FuzzFinding(property: .undoRestores, stepIndex: 3, message: "", differences: [],
                               blame: "deal > draw (undo at actions/draw.lua:12)")
        let key = FindingKey(here)
        XCTAssertEqual(key.action, "deal > draw")
        XCTAssertEqual(key.location, "actions/draw.lua:12")
        var sameLine = here
        sameLine.blame = "draw (undo at actions/draw.lua:12)"
        var otherLine = here
        otherLine.blame = "draw (undo at actions/draw.lua:30)"
        var otherProperty = here
        otherProperty.property = .redoReproduces
        XCTAssertTrue(key.admits(sameLine), "the same undo, reached another way")
        XCTAssertFalse(key.admits(otherLine))
        XCTAssertFalse(key.admits(otherProperty))
    }

    func testSimplerIsAWellFoundedOrder() {
        let base = program([poke, .undoTurn], seed: 9)
        var undoOne = base
        undoOne.steps[1] = .undo(1)
        var smallerSeed = base
        smallerSeed.seed = 2
        var shorter = base
        shorter.steps.removeLast()
        shorter.seed = 1000
        XCTAssertTrue(Shrinker.isSimpler(undoOne, than: base), "undo 1 is simpler than undo turn")
        XCTAssertTrue(Shrinker.isSimpler(smallerSeed, than: base))
        XCTAssertTrue(Shrinker.isSimpler(shorter, than: base), "fewer steps come first, whatever the seed")
        XCTAssertFalse(Shrinker.isSimpler(base, than: base))
        XCTAssertEqual(Shrinker.smallerCounts(5), [1, 2, 3, 4])
        XCTAssertEqual(Shrinker.smallerSeeds(than: 3), [0, 1, 2])
        XCTAssertTrue(Shrinker.smallerSeeds(than: 40_000).contains(20_000))
    }

    /// Calls order by params, then text length, then text: the counts
    /// zero-padded to 3 and 6 digits, never cut, as `%03d%06d` writes them.
    func testACallsComplexityIsItsPaddedCountsThenItsText() {
        let long = String(repeating: "x", count: 1_234_567)
        let calls = [ActionCall("poke"), ActionCall("move", ["to": .int(12), "from": .int(3)]),
                     ActionCall("say", ["text": .string(long)])]
        for call in calls {
            let text = call.description
            XCTAssertEqual(Shrinker.complexity(call), String(format: "%03d%06d", call.params.count, text.count) + text)
        }
        XCTAssertTrue(Shrinker.complexity(ActionCall("poke")).hasPrefix("000000004"))
        XCTAssertLessThan(Shrinker.complexity(calls[2]), Shrinker.complexity(calls[1]), "fewer params first")
    }
}
