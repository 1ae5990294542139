import XCTest
@testable import Rulebench

/// A shrink candidate evaluated where the last one stood, rewound to the
/// steps the two share with the engine's verified undo (`FuzzExecutor.execute`,
/// `resuming`; the end-of-run rewind stopping at entries a rewind verified,
/// `Kernel/fuzz.lua`), gets the verdict a replay from setup gives: the same
/// legality, outcomes, hashes, failure, property and step. Checked both
/// ways on the planted bugs of `Benchmarks/mutants.json`, candidate by
/// candidate and for a whole shrink.
final class CandidateRewindTests: XCTestCase {
    private var folder: URL!
    /// The mutated packs made so far, by mutant name.
    private var packs: [String: String] = [:]

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-rewind-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The mutated pack of the planted bug whose name starts with `name`.
    private func pack(_ name: String) throws -> String {
        let mutants = try PlantedBugTests.mutants()
        let index = try XCTUnwrap(mutants.firstIndex { $0.name.hasPrefix(name) }, "no mutant \(name)")
        if let made = packs[mutants[index].name] { return made }
        let made = try PlantedBugTests.mutatedPack(mutants[index], index: index, in: folder).path
        packs[mutants[index].name] = made
        return made
    }

    private func executor() -> FuzzExecutor {
        FuzzExecutor(configuration: PlantedBugTests.configuration, base: nil)
    }

    /// What a verdict is made of, as a run gives it.
    private struct Judged: Equatable {
        let valid: Bool
        let outcomes: [FuzzExecutor.Outcome]
        let trace: [StateHash]
        let offered: [ActionCall]?
        let property: FuzzFinding.Property?
        let step: Int?
        let undos: Int?
        let message: String?

        init(_ run: FuzzExecutor.Result) {
            (valid, outcomes, trace, offered) = (run.valid, run.outcomes, run.trace, run.offered)
            (property, step, undos, message) = (run.finding?.property, run.finding?.stepIndex,
                                                run.finding?.rewindUndos, run.finding?.message)
        }
    }

    /// Candidates as the shrinker makes them, each sharing its first steps
    /// with the one before: chunks of 4, 2 and 1 steps deleted at every
    /// position, then two single steps at most 3 apart; the program itself
    /// (which fails) after each chunk deleted.
    private func candidates(of program: FuzzProgram) -> [FuzzProgram] {
        var list: [FuzzProgram] = []
        let count = program.steps.count
        for size in [4, 2, 1] where size < count {
            for start in 0...(count - size) {
                list.append(program)
                var candidate = program
                candidate.steps.removeSubrange(start..<start + size)
                list.append(candidate)
            }
        }
        for first in 0..<count {
            for second in stride(from: first + 2, to: min(count, first + 5), by: 1) {
                var candidate = program
                candidate.steps.remove(at: second)
                candidate.steps.remove(at: first)
                list.append(candidate)
            }
        }
        return list
    }

    /// Evaluates every candidate of `program` both ways; returns how many
    /// resumed and how many reproduced `program`'s finding.
    private func compareVerdicts(_ program: FuzzProgram, file: StaticString = #filePath, line: UInt = #line)
        throws -> (resumed: Int, reproduced: Int) {
        let first = executor().execute(program, checkLegality: true)
        let target = FindingKey(try XCTUnwrap(first.finding, "the program does not fail", file: file, line: line))
        let (resuming, fresh) = (executor(), executor())
        var (resumed, reproduced) = (0, 0)
        for candidate in candidates(of: program) {
            // As the shrinker asks (`Shrinker.run`), and from a restarted game.
            let rewound = resuming.execute(candidate, checkLegality: true, finalChecks: true, resuming: true,
                                           seeking: target, wholeHistoryIfResumed: false)
            let replayed = fresh.execute(candidate, checkLegality: true, finalChecks: true, seeking: target)
            XCTAssertFalse(replayed.resumed)
            XCTAssertEqual(Judged(rewound), Judged(replayed), "\(candidate.steps.map(\.description))", file: file, line: line)
            if rewound.resumed { resumed += 1 }
            if replayed.valid, let found = replayed.finding, target.admits(found) { reproduced += 1 }
        }
        return (resumed, reproduced)
    }

    /// A planted bug's line read as the fuzzer prints it, without a closing `undo`:
    /// the broken undo is then found by the end-of-run rewind.
    private func line(_ mutant: String, _ steps: [String], seed: Int64 = 0) throws -> FuzzProgram {
        let steps = try steps.map { try XCTUnwrap(PlantedBugTests.step($0)) }
        return FuzzProgram(pack: try pack(mutant), seed: seed, options: [:], steps: steps)
    }

    static let promotionWalk = ["do move from=15 to=31", "do move from=54 to=46", "do move from=2 to=17",
                                "do move from=51 to=35", "do move from=31 to=39", "do move from=35 to=27",
                                "do move from=39 to=46", "do move from=27 to=19", "do move from=46 to=53",
                                "do move from=19 to=10", "do move from=53 to=60"]

    /// An idle move before a needed one: every pass of a shrink runs, the swap too.
    static let kingTakenDetour = ["do move from=2 to=17", "do move from=54 to=38", "do move from=13 to=21",
                                  "do move from=49 to=33", "do move from=4 to=40", "do move from=33 to=25",
                                  "do move from=40 to=61"]

    func testRewoundCandidatesGetTheVerdictsOfAReplayFromSetup() throws {
        var (resumed, reproduced) = (0, 0)
        let mutants = try PlantedBugTests.mutants().filter { $0.rare != nil }
        var programs = try mutants.map { mutant -> FuzzProgram in
            let minimal = try XCTUnwrap(mutant.rare).minimal
            let steps = minimal.steps.last?.hasPrefix("undo") == true ? Array(minimal.steps.dropLast()) : minimal.steps
            return try line(mutant.name, steps, seed: minimal.seed)
        }
        programs.append(try line("chess promotion", Self.promotionWalk))
        programs.append(try line("chess king taken", Self.kingTakenDetour))
        for program in programs {
            let counts = try compareVerdicts(program)
            (resumed, reproduced) = (resumed + counts.resumed, reproduced + counts.reproduced)
        }
        // Not a comparison of runs that all started afresh, or all passed.
        XCTAssertGreaterThan(resumed, 100)
        XCTAssertGreaterThan(reproduced, 0)
    }

    /// A resumed run is sent only its steps after the shared ones, and its
    /// reply carries no history entries: the game's view keeps those it
    /// read and reads the rest from the kernel, from the first it changed.
    /// After each candidate (read every third: the view then catches up
    /// over several runs), the view is the kernel's history, entry for
    /// entry the one a replay from setup leaves.
    func testAResumedRunLeavesTheHistoryOfAReplayFromSetup() throws {
        let program = try line("chess king taken", Self.kingTakenDetour)
        let (resuming, fresh) = (executor(), executor())
        var resumed = 0
        for (index, candidate) in candidates(of: program).enumerated() {
            let rewound = resuming.execute(candidate, checkLegality: true, finalChecks: false, resuming: true)
            let replayed = fresh.execute(candidate, checkLegality: true, finalChecks: false)
            XCTAssertEqual(Judged(rewound), Judged(replayed))
            if rewound.resumed { resumed += 1 }
            guard index % 3 == 0 else { continue }
            let mine = try XCTUnwrap(resuming.games.main).history
            let theirs = try XCTUnwrap(fresh.games.main).history
            XCTAssertEqual(try mine.view.differences(), [], "\(candidate.steps.map(\.description))")
            XCTAssertEqual(mine.cursor, theirs.cursor)
            XCTAssertEqual(mine.count, theirs.count)
            for (a, b) in zip(mine.entries, theirs.entries) {
                XCTAssertEqual(a.call, b.call)
                XCTAssertEqual(a.hash, b.hash)
                XCTAssertEqual(a.isCheckpoint, b.isCheckpoint)
                XCTAssertEqual(a.tree, b.tree)
                XCTAssertEqual(a.plan, b.plan)
            }
        }
        XCTAssertGreaterThan(resumed, 20)
    }

    /// A resumed run's first legality check takes the legal calls the last
    /// run listed in the state it resumes in (fuzz.lua, LAST's `listed`):
    /// each run here lists the calls a replay from setup lists, before
    /// every step, and judges the same. Among them, a run that resumes
    /// right after the step where the run before it parted from an older,
    /// longer one (8 walk steps; then 5 and a6; then one more: the listing
    /// after the walk's sixth step would be another state's), and prefixes.
    func testAResumedRunTakesOnlyTheListingsOfItsOwnStates() throws {
        let walk = try line("chess promotion", Self.promotionWalk)
        func variant(_ steps: [String]) throws -> FuzzProgram {
            var program = walk
            program.steps = try steps.map { try XCTUnwrap(PlantedBugTests.step($0)) }
            return program
        }
        let first = Array(Self.promotionWalk.prefix(5))
        let programs = [
            try variant(Array(Self.promotionWalk.prefix(8))),
            try variant(Array(Self.promotionWalk.prefix(6))),
            try variant(first + ["do move from=49 to=41"]),
            try variant(first + ["do move from=49 to=41", "do move from=39 to=46"]),
            try variant(first + ["do move from=49 to=41", "do move from=39 to=46", "do move from=41 to=33"]),
            try variant(Array(Self.promotionWalk.prefix(8))),
            try variant(first),
            try variant(first + ["do move from=49 to=41", "do move from=39 to=46"]),
            walk,
            try variant(Array(Self.promotionWalk.prefix(3)) + ["do move from=12 to=28"]),
            try variant(Array(Self.promotionWalk.prefix(3)) + ["do move from=12 to=28", "do move from=51 to=35"]),
        ]
        let (resuming, fresh) = (executor(), executor())
        var resumed = 0
        for program in programs + programs.reversed() {
            let rewound = resuming.execute(program, checkLegality: true, recordLegal: true, finalChecks: false, resuming: true)
            let replayed = fresh.execute(program, checkLegality: true, recordLegal: true, finalChecks: false)
            XCTAssertEqual(Judged(rewound), Judged(replayed), "\(program.steps.map(\.description))")
            XCTAssertEqual(rewound.legal, replayed.legal, "\(program.steps.map(\.description))")
            if rewound.resumed { resumed += 1 }
        }
        XCTAssertGreaterThan(resumed, 12)
    }

    /// Shrinks `program` to a 1-minimal reproduction once per way of
    /// setting a shrinker up, and checks that every way ends the same,
    /// through the same number of candidates; returns the shrinkers.
    private func shrinkEndsTheSame(_ program: FuzzProgram, ways: [(inout Shrinker) -> Void],
                                   file: StaticString = #filePath, line: UInt = #line) throws -> [Shrinker] {
        let finding = try XCTUnwrap(executor().execute(program, checkLegality: true).finding, file: file, line: line)
        var results: [(shrinker: Shrinker, shrunk: FuzzProgram, found: FuzzFinding)] = []
        for way in ways {
            var shrinker = Shrinker(executor: executor(), clock: { 0 })
            way(&shrinker)
            let (shrunk, found) = shrinker.shrink(program, finding)
            XCTAssertEqual(shrinker.status, .minimal, file: file, line: line)
            results.append((shrinker, shrunk, found))
        }
        for other in results.dropFirst() {
            XCTAssertEqual(other.shrunk, results[0].shrunk, file: file, line: line)
            XCTAssertEqual(other.found.property, results[0].found.property, file: file, line: line)
            XCTAssertEqual(other.found.stepIndex, results[0].found.stepIndex, file: file, line: line)
            XCTAssertEqual(other.shrinker.attempts, results[0].shrinker.attempts, "the same candidates", file: file, line: line)
        }
        return results.map(\.shrinker)
    }

    /// A whole shrink gives the same reproduction through the same
    /// candidates whether they start where the last one stood or from setup.
    func testAShrinkEndsTheSameWithoutRewinding() throws {
        _ = try shrinkEndsTheSame(try line("chess king taken", Self.kingTakenDetour),
                                  ways: [{ $0.resumes = true }, { $0.resumes = false }])
    }

    /// A candidate the steps of earlier runs prove illegal or passing is
    /// judged without a run (`StepMemo`): a whole shrink gives the same
    /// reproduction through the same candidates with the memo as with
    /// every candidate run, on lines where deleting moves breaks later ones.
    func testAShrinkEndsTheSameWithoutItsMemo() throws {
        var answered = 0
        for program in [try line("chess king taken", Self.kingTakenDetour), try line("chess promotion", Self.promotionWalk)] {
            let shrinkers = try shrinkEndsTheSame(program, ways: [{ $0.remembersSteps = true }, { $0.remembersSteps = false }])
            answered += shrinkers[0].memo.answered
            XCTAssertEqual(shrinkers[1].memo.answered, 0)
        }
        // Not a comparison of shrinks that ran every candidate both times.
        XCTAssertGreaterThan(answered, 500)
    }

    /// An en passant capture whose undo is the failing step, after idle
    /// moves, an undo and a redo: the finding needs no end-of-run check, so
    /// the memo judges candidates that pass too, through undos and redos.
    static let enPassantDetour = ["do move from=14 to=30", "do move from=49 to=33", "do move from=30 to=38",
                                  "do move from=55 to=47", "undo 1", "redo 1", "do move from=13 to=21",
                                  "do move from=53 to=37", "do move from=38 to=45", "undo 1"]

    /// The memo's answer for `program` after learning from runs of
    /// `learned`, and the verdict a run of `program` gives: illegal at a
    /// step, passing (valid, no finding), or failing.
    private func memoAndRun(_ learned: [[String]], _ program: [String], pack: String = "chess en passant")
        throws -> (memo: StepMemo.Answer?, run: FuzzExecutor.Result) {
        var memo = StepMemo()
        for steps in learned {
            let earlier = try line(pack, steps)
            memo.learn(earlier, executor().execute(earlier, checkLegality: true, finalChecks: false))
        }
        let candidate = try line(pack, program)
        return (memo.answer(for: candidate, passesWithoutEndChecks: true),
                executor().execute(candidate, checkLegality: true, finalChecks: false))
    }

    /// A redo depends on the history, not the state: at the start, `redo 1`
    /// redoes nothing, but after a move and its undo it redoes the move, and
    /// then white's second move in a row is not legal.
    func testTheMemoKnowsARedoByItsHistory() throws {
        let (memo, run) = try memoAndRun([["do move from=14 to=30", "undo 1", "redo 1"], ["redo 1", "do move from=13 to=21"]],
                                         ["do move from=14 to=30", "undo 1", "redo 1", "do move from=13 to=21"])
        XCTAssertFalse(run.valid, "white's second move in a row")
        XCTAssertNil(memo, "no run played that move after the redo")
        let (again, _) = try memoAndRun([["do move from=14 to=30", "undo 1", "redo 1", "do move from=13 to=21"]],
                                        ["do move from=14 to=30", "undo 1", "redo 1", "do move from=13 to=21"])
        XCTAssertEqual(again.map { if case .illegal(let index, _) = $0 { return index } else { return -1 } }, 3)
    }

    /// The failing step of a run is not known to pass: the reproduction is
    /// judged by a run, whatever the memo learned from it.
    func testTheMemoDoesNotJudgeAFailingStepPassing() throws {
        let reproduction = ["do move from=14 to=30", "do move from=49 to=33", "do move from=30 to=38",
                            "do move from=53 to=37", "do move from=38 to=45", "undo 1"]
        let (memo, run) = try memoAndRun([reproduction], reproduction)
        XCTAssertEqual(run.finding?.property, .undoRestores)
        XCTAssertNil(memo)
        let (prefix, _) = try memoAndRun([reproduction], Array(reproduction.dropLast()))
        XCTAssertEqual(prefix, .passes, "the steps before the failing one passed")
        // A plan found unsound after the run (in Swift): its step has an outcome, but did not pass.
        let dash = ["do dash token=\"p1\""]
        let (memoOfDash, runOfDash) = try memoAndRun([dash], dash, pack: "dash plays both steps")
        XCTAssertEqual(runOfDash.finding?.property, .animationIsSound)
        XCTAssertEqual(runOfDash.outcomes.count, 1)
        XCTAssertNil(memoOfDash)
    }

    /// A finding of the end-of-run rewind came after every step passed its
    /// checks: the shrink does not try the program without the end-of-run
    /// checks first, and ends the same, one candidate sooner.
    func testARewindFindingIsShrunkWithTheEndOfRunChecksAtOnce() throws {
        let program = try line("chess en passant", ["do move from=14 to=30", "do move from=49 to=33", "do move from=30 to=38",
                                                    "do move from=55 to=47", "do move from=13 to=21", "do move from=53 to=37",
                                                    "do move from=38 to=45"])
        let finding = try XCTUnwrap(executor().execute(program, checkLegality: true).finding)
        XCTAssertNotNil(finding.rewindUndos, "the rewind's finding")
        var untold = finding
        untold.rewindUndos = nil
        var results: [(program: FuzzProgram, attempts: Int)] = []
        for given in [finding, untold] {
            var shrinker = Shrinker(executor: executor(), clock: { 0 })
            let (shrunk, found) = shrinker.shrink(program, given)
            XCTAssertEqual(found.property, .undoRestores)
            results.append((shrunk, shrinker.attempts))
        }
        XCTAssertEqual(results[0].program, results[1].program)
        XCTAssertEqual(results[0].attempts, results[1].attempts - 1)
        // A finding at a step is still tried without them: its shrink needs no end-of-run check.
        let atStep = try line("chess en passant", Self.enPassantDetour)
        var shrinker = Shrinker(executor: executor(), clock: { 0 })
        let (shrunk, found) = shrinker.shrink(atStep, try XCTUnwrap(executor().execute(atStep, checkLegality: true).finding))
        XCTAssertEqual(found.property, .undoRestores)
        XCTAssertEqual(shrunk.steps.last, .undo(1))
        XCTAssertGreaterThan(shrinker.memo.answeredPassing, 0, "candidates judged passing: no end-of-run check")
    }

    /// Candidates whose steps earlier runs all played, undos and redos
    /// among them, are judged illegal or passing without a run, and the
    /// shrink is the one that runs every candidate.
    func testAShrinkEndsTheSameWithItsMemoJudgingPassingCandidates() throws {
        let program = try line("chess en passant", Self.enPassantDetour)
        let shrinkers = try shrinkEndsTheSame(program, ways: [{ $0.remembersSteps = true }, { $0.remembersSteps = false }])
        XCTAssertGreaterThan(shrinkers[0].memo.answeredPassing, 10)
        XCTAssertGreaterThan(shrinkers[0].memo.answeredIllegal, 10)
        XCTAssertEqual(shrinkers[1].memo.answered, 0)
    }
}
