import XCTest
@testable import Rulebench

/// The planted-bug suite: deliberate undo and determinism bugs in real packs.
/// Each must be caught by the fuzzer from a fixed seed within a bounded number
/// of steps, and shrunk to a small reproduction; the unmutated packs pass.
///
/// Run alone with `make test-planted` (or `swift test --filter
/// PlantedBugTests`). Sessions use a counted budget and, where time matters,
/// an injected clock: the shrinker reads the session's clock, so no test
/// waits on real time.
///
/// The mutants are listed in `Benchmarks/mutants.json`, which the
/// time-to-detect benchmark (`rulebench-bench --detect`) reads too: one list,
/// so the bench measures exactly the bugs the tests plant.
final class PlantedBugTests: XCTestCase {
    /// One deliberate bug: in `file` of `pack`, `original` is replaced by `mutated`
    /// (and each further edit applied in turn).
    struct Mutant: Decodable {
        let name: String
        /// A pack name under rules/, or a pack folder relative to the repository's root.
        let pack: String
        let file: String
        let original: String
        let mutated: String
        /// The `FuzzFinding.Property` case the fuzzer must report, by name.
        let expected: String
        /// The most steps the shrunk reproduction may have.
        let maxShrunkSteps: Int
        var moreEdits: [[String]]?
        /// Set for a bug reachable only through one specific line of play.
        var rare: RarePath?
        /// The test's fuzz session, when the shared one is not enough.
        var testBudget: Budget?

        /// The property `expected` names.
        var property: FuzzFinding.Property? {
            FuzzFinding.Property.allCases.first { "\($0)" == expected }
        }
    }

    /// Why a rare mutant is rare, and its shortest reproduction, found by hand.
    struct RarePath: Decodable {
        let why: String
        let minimal: Reproduction
        let minimalWhy: String
    }

    /// A game seed and steps, as the fuzzer prints them (`do move from=13 to=29`, `undo 1`).
    struct Reproduction: Decodable {
        let seed: Int64
        let steps: [String]
    }

    /// A fuzz session of the test: the shared one unless a mutant says otherwise.
    struct Budget: Decodable {
        var seed: UInt64 = 1
        var runs = 30
        var depth = 60
        /// Every distinct finding, not only the first: a mutant may break
        /// another property first (the module counter fails the replay
        /// before any redo), and the suite asks for the one it planted.
        var keepGoing = true
        /// The search, when the mutant names one (else the fuzzer's default).
        /// A rare path's budget names `uniform`: its seed and run count are
        /// ones uniform search meets, so the test does not hang on how the
        /// guided search evolves (`rulebench-bench --detect` compares them).
        /// Those seeds are figures of the search, picked anew when the step
        /// choice changes: with the `undo: last turn` step (2 in 100 draws)
        /// chess king taken went from seed 15 to 1 (at 15 its first instance
        /// shrank to 9 steps, over its goal of 7) and promotion by capture
        /// from 5 to 13 (5 no longer met it in 100 runs).
        var search: SearchStrategy?

        init() {}

        init(from decoder: Decoder) throws {
            let values = try decoder.container(keyedBy: CodingKeys.self)
            seed = try values.decodeIfPresent(UInt64.self, forKey: .seed) ?? seed
            runs = try values.decodeIfPresent(Int.self, forKey: .runs) ?? runs
            depth = try values.decodeIfPresent(Int.self, forKey: .depth) ?? depth
            keepGoing = try values.decodeIfPresent(Bool.self, forKey: .keepGoing) ?? keepGoing
            if let name = try values.decodeIfPresent(String.self, forKey: .search) {
                guard let strategy = SearchStrategy(rawValue: name) else {
                    throw DecodingError.dataCorruptedError(forKey: .search, in: values, debugDescription: "no search \(name)")
                }
                search = strategy
            }
        }

        private enum CodingKeys: String, CodingKey { case seed, runs, depth, keepGoing, search }
    }

    /// The list of `Benchmarks/mutants.json`.
    static func mutants() throws -> [Mutant] {
        struct List: Decodable { let mutants: [Mutant] }
        let url = EngineFixtures.repository.appendingPathComponent("Benchmarks/mutants.json")
        return try JSONDecoder().decode(List.self, from: Data(contentsOf: url)).mutants
    }

    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-mutants-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The folder of a pack of the repo: a name under rules/ or a path from the root.
    private static func source(of pack: String) -> URL {
        pack.contains("/") ? EngineFixtures.repository.appendingPathComponent(pack)
            : EngineFixtures.repository.appendingPathComponent("rules").appendingPathComponent(pack)
    }

    /// A copy of a pack of the repo, with the mutation applied.
    private func mutatedPack(_ mutant: Mutant, index: Int) throws -> URL {
        try Self.mutatedPack(mutant, index: index, in: folder)
    }

    /// A copy of a pack of the repo in `folder`, with the mutation applied.
    static func mutatedPack(_ mutant: Mutant, index: Int, in folder: URL) throws -> URL {
        let source = Self.source(of: mutant.pack)
        let copy = folder.appendingPathComponent("mutant\(index)-\(source.lastPathComponent)")
        try FileManager.default.copyItem(at: source, to: copy)
        let file = copy.appendingPathComponent(mutant.file)
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains(mutant.original), "\(mutant.name): the original text is gone from \(mutant.file)")
        var mutated = text.replacingOccurrences(of: mutant.original, with: mutant.mutated)
        for edit in mutant.moreEdits ?? [] {
            XCTAssertEqual(edit.count, 2, "\(mutant.name): an edit is an original and its replacement")
            XCTAssertTrue(mutated.contains(edit[0]), "\(mutant.name): '\(edit[0])' is gone from \(mutant.file)")
            mutated = mutated.replacingOccurrences(of: edit[0], with: edit[1])
        }
        try mutated.write(to: file, atomically: true, encoding: .utf8)
        return copy
    }

    /// The candidates one finding's shrinks may run in the mutants'
    /// sessions: a fifth of the default (`Shrinker.defaultBudget`), so that
    /// the search for a shorter ending after the shrink walks a fifth of its
    /// default nodes (`Minimizer.endingNodes`). With the default, the chess
    /// promotion's search walked its million nodes, four fifths of the
    /// suite's shrinking time; with this, every mutant still shrinks to the
    /// length it shrank to with the default (the table the test prints).
    static let shrinkBudget = Shrinker.defaultBudget / 5

    /// The reports of a session; without `shrinking`, a finding's shrink
    /// stops at once (a test of detection alone need not pay for it).
    private func fuzz(_ pack: String, _ budget: Budget = Budget(), shrinking: Bool = true) -> [Fuzzer.Report] {
        var options = Fuzzer.Options(pack: pack)
        options.shrinkBudget = shrinking ? Self.shrinkBudget : 1
        options.seed = budget.seed
        options.runs = budget.runs
        options.depth = budget.depth
        options.keepGoing = budget.keepGoing
        if let search = budget.search { options.search = search }
        options.configuration = Self.configuration
        return Fuzzer(options: options).run().reports
    }

    /// Counted from the start (a budget under the watched minimum, 4M), so
    /// that no operation is ever run again: some mutants keep state outside
    /// the game (a module counter), which a second run of an operation
    /// advances, and how often a watched operation looks long enough to run
    /// again depends on the machine (under ASan, often). Counted, every
    /// session is the same on every machine.
    static let configuration: Game.Configuration = {
        var configuration = Game.Configuration()
        configuration.instructionBudget = 3_000_000
        configuration.printHandler = { _ in }
        // The mutants are undo and determinism bugs; the no-leak probes of
        // the seated packs (cards, desert) would multiply every session's
        // steps (BENCHMARKS.md, "Seats and secrets") and are tested in SeatTests.
        configuration.checksLeaks = false
        return configuration
    }()

    func testEveryMutantIsCaughtAndShrunk() throws {
        var table: [String] = []
        for (index, mutant) in try Self.mutants().enumerated() {
            let expected = try XCTUnwrap(mutant.property, "\(mutant.name): no property \(mutant.expected)")
            let budget = mutant.testBudget ?? Budget()
            let pack = try mutatedPack(mutant, index: index)
            let reports = fuzz(pack.path, budget)
            guard let report = reports.first(where: { $0.finding.property == expected }) else {
                XCTFail("\(mutant.name): not caught as \(expected) (found: \(reports.map(\.finding.property)))")
                continue
            }
            XCTAssertLessThanOrEqual(report.shrunk.steps.count, mutant.maxShrunkSteps,
                                     "\(mutant.name): shrunk to \(report.shrunk.steps.map(\.description))")
            XCTAssertLessThanOrEqual(report.stepsToDetection, budget.runs * budget.depth)
            // The reproduction fails the same way when run again from scratch.
            let again = FuzzExecutor(configuration: Self.configuration, base: nil)
                .execute(report.shrunk, checkLegality: false)
            XCTAssertEqual(again.finding?.property, expected, "\(mutant.name): the shrunk program does not reproduce")
            assertOneMinimal(report.shrunk, key: report.key, mutant)
            table.append("| \(mutant.name) | \(mutant.pack) | \(report.finding.property) | \(report.stepsToDetection) | \(report.original.steps.count) → \(report.shrunk.steps.count) | \(String(format: "%.2f", report.shrinkSeconds)) s |")
        }
        print("| mutant | pack | caught as | steps to detection | run length → shrunk | shrink time |\n|---|---|---|---|---|---|\n" + table.joined(separator: "\n"))
    }

    /// A rare mutant's hand-found shortest line is a game a player could
    /// play, fails as planted, and cannot lose a step; the shrinker may
    /// keep one step more than it.
    func testRarePathsFailOnTheirMinimalLine() throws {
        let rare = try Self.mutants().enumerated().filter { $0.element.rare != nil }
        XCTAssertGreaterThanOrEqual(rare.count, 4, "the suite plants at least four rare-path bugs")
        for (index, mutant) in rare {
            let path = try XCTUnwrap(mutant.rare)
            let expected = try XCTUnwrap(mutant.property, "\(mutant.name): no property \(mutant.expected)")
            let pack = try mutatedPack(mutant, index: index)
            let steps = try path.minimal.steps.map { try XCTUnwrap(Self.step($0), "\(mutant.name): cannot read '\($0)'") }
            let program = FuzzProgram(pack: pack.path, seed: path.minimal.seed, options: [:], steps: steps)
            XCTAssertEqual(mutant.maxShrunkSteps, steps.count + 1, "\(mutant.name): maxShrunkSteps is the minimal length + 1")
            let run = FuzzExecutor(configuration: Self.configuration, base: nil).execute(program, checkLegality: true)
            XCTAssertTrue(run.valid, "\(mutant.name): the minimal line has an illegal step")
            let finding = try XCTUnwrap(run.finding, "\(mutant.name): the minimal line does not fail")
            XCTAssertEqual(finding.property, expected, "\(mutant.name): \(finding)")
            assertOneMinimal(program, key: FindingKey(finding), mutant)
        }
    }

    /// The guided search plays a rare kind of move as soon as it is offered
    /// (`Kernel/fuzz.lua`, rare kinds first), so the chess rare paths are
    /// found within 40 runs of session seed 1 (at most 4,000 steps), where
    /// uniform search needs a median of 3,561 to 30,973 steps (BENCHMARKS.md,
    /// "Time to detect").
    func testTheGuidedSearchFindsTheChessRarePathsInFewRuns() throws {
        let rare = try Self.mutants().enumerated().filter { $0.element.rare != nil && $0.element.pack.hasSuffix("chess") }
        XCTAssertEqual(rare.count, 3)
        for (index, mutant) in rare {
            let pack = try mutatedPack(mutant, index: index)
            var budget = Budget()
            (budget.runs, budget.depth, budget.keepGoing, budget.search) = (40, 100, false, .guided)
            let reports = fuzz(pack.path, budget, shrinking: false)
            let report = try XCTUnwrap(reports.first, "\(mutant.name): not found in 40 guided runs")
            XCTAssertEqual(report.finding.property, mutant.property, "\(mutant.name)")
            XCTAssertLessThanOrEqual(report.stepsToDetection, 4_000, "\(mutant.name)")
        }
    }

    /// An idle move that came before a needed one (Na3 before e3) cannot
    /// be deleted with an idle move of the other side without handing the
    /// steps between to the wrong side: the shrinker swaps it behind, then
    /// deletes it with its neighbour, and mends the move that needed the
    /// deleted one (a5-a4 without a5) with another legal move.
    func testTheShrinkerReordersAnIdleMoveToDeleteIt() throws {
        let (shrunk, status) = try shrinking(["do move from=2 to=17", "do move from=54 to=38", "do move from=13 to=21",
                                              "do move from=49 to=33", "do move from=4 to=40", "do move from=33 to=25",
                                              "do move from=40 to=61", "undo 1"], of: "chess king taken")
        XCTAssertEqual(shrunk.steps.count, 6, "\(shrunk.steps.map(\.description))")
        XCTAssertEqual(status, .minimal)
    }

    /// White's idle Na3 is paid for by black's pawn walk d5-d4-d3-dxc2:
    /// deleting Na3 with d5 breaks d4, mending d4 breaks d3, and so on.
    /// Pass 6 mends each broken step in turn and reaches the 10-step
    /// minimum; without it the shrinker stops at 12.
    func testTheShrinkerMendsAWalkThatADeletionBroke() throws {
        let (shrunk, status) = try shrinking(["do move from=15 to=31", "do move from=54 to=46", "do move from=2 to=17",
                                              "do move from=51 to=35", "do move from=31 to=39", "do move from=35 to=27",
                                              "do move from=39 to=46", "do move from=27 to=19", "do move from=46 to=53",
                                              "do move from=19 to=10", "do move from=53 to=60", "undo 1"], of: "chess promotion")
        XCTAssertEqual(shrunk.steps.count, 10, "\(shrunk.steps.map(\.description))")
        XCTAssertEqual(status, .minimal)
    }

    /// The mutant whose name starts with `name`, and a mutated copy of its pack.
    private func plantedMutant(named name: String) throws -> (Mutant, URL) {
        let (index, mutant) = try XCTUnwrap(try Self.mutants().enumerated().first { $0.element.name.hasPrefix(name) })
        return (mutant, try mutatedPack(mutant, index: index))
    }

    /// `lines` (as `FuzzStep.description` prints them), a failing program of
    /// game seed 0 in the mutant's pack, shrunk: the result and how it ended.
    private func shrinking(_ lines: [String], of name: String) throws -> (FuzzProgram, ShrinkStatus) {
        let pack = try plantedMutant(named: name).1
        let steps = try lines.map { try XCTUnwrap(Self.step($0)) }
        let program = FuzzProgram(pack: pack.path, seed: 0, options: [:], steps: steps)
        let executor = FuzzExecutor(configuration: Self.configuration, base: nil)
        let finding = try XCTUnwrap(executor.execute(program, checkLegality: true).finding)
        // A clock that stands still: the candidate budget alone bounds the
        // shrink, so its result is the same on a slow build (AddressSanitizer).
        var shrinker = Shrinker(executor: executor, clock: { 0 })
        let (shrunk, _) = shrinker.shrink(program, finding)
        return (shrunk, shrinker.status)
    }

    /// A timed session that stops at its first finding looks for other
    /// instances of the bug and reports the shortest reproduction: the
    /// first black king capture it finds shrinks to a long route, a later
    /// instance to a shorter line (7 steps, then 6). The session without a
    /// time limit shrinks only the first, and its search for shorter
    /// endings (`Fuzzer.shortenedEndings`) takes that one to 6 as well, so
    /// the timed one is at most as long. A clock that moves
    /// 1 ms a reading makes the session's time the same in every run; the
    /// shrinker reads it once or twice a candidate, so the first shrink
    /// runs to its end, and the search for other instances (its 30 s, some
    /// 15,000 candidates) ends after 4 instances in a row no shorter. (At
    /// 3 ms a reading it stops at 7 steps, not 6.)
    func testATimedSessionReportsTheShortestInstanceOfItsBug() throws {
        let (mutant, pack) = try plantedMutant(named: "chess king taken")
        var options = Fuzzer.Options(pack: pack.path)
        options.seed = 1
        options.configuration = Self.configuration
        let first = try XCTUnwrap(Fuzzer(options: options).run().reports.first, "found without a time limit")
        XCTAssertEqual(first.instancesShrunk, 1, "no time limit: only the first instance is shrunk")

        options.timeLimit = 1_000
        var now = 0.0
        let clock: Fuzzer.Clock = { now += 0.001; return now }
        let reports = Fuzzer(options: options).run(clock: clock).reports
        let report = try XCTUnwrap(reports.first)
        XCTAssertGreaterThan(report.instancesShrunk, 1)
        XCTAssertLessThanOrEqual(report.shrunk.steps.count, first.shrunk.steps.count, "\(report.shrunk.steps.map(\.description))")
        XCTAssertLessThanOrEqual(report.shrunk.steps.count, mutant.maxShrunkSteps)
        XCTAssertEqual(report.key, first.key, "the same bug")
        XCTAssertEqual(report.stepsToDetection, first.stepsToDetection, "detected by the same first run")
    }

    /// A step as `FuzzStep.description` prints it; nil when it is not one.
    static func step(_ text: String) -> FuzzStep? {
        let words = text.split(separator: " ").map(String.init)
        switch (words.first, words.count) {
        case ("undo", 2) where words[1] == "turn": return .undoTurn
        case ("undo", 3) where words[1...] == ["last", "turn"]: return .undoLastTurn
        case ("undo", 2): return Int(words[1]).map(FuzzStep.undo)
        case ("redo", 2): return Int(words[1]).map(FuzzStep.redo)
        case ("do", 2...), ("try", 2...):
            var params: [String: StateValue] = [:]
            for word in words.dropFirst(2) {
                guard let equals = word.firstIndex(of: "=") else { return nil }
                params[String(word[..<equals])] = StateValue(argument: String(word[word.index(after: equals)...]))
            }
            let call = ActionCall(words[1], params)
            return words[0] == "do" ? .perform(call) : .attempt(call)
        default: return nil
        }
    }

    /// No single step of `program` can be deleted: the program without it
    /// is illegal or does not fail at the same place (judged with the
    /// end-of-run checks only when the finding needs them, as the shrinker
    /// does).
    private func assertOneMinimal(_ program: FuzzProgram, key: FindingKey, _ mutant: Mutant) {
        guard key.property != .deterministic else { return }
        let executor = FuzzExecutor(configuration: Self.configuration, base: nil)
        let atTheEnd = executor.execute(program, checkLegality: true, finalChecks: false).finding.map { key.admits($0) } != true
        for index in program.steps.indices {
            var shorter = program
            shorter.steps.remove(at: index)
            let run = executor.execute(shorter, checkLegality: true, finalChecks: atTheEnd)
            XCTAssertFalse(run.valid && run.finding.map { key.admits($0) } == true,
                           "\(mutant.name): deleting step \(index + 1) of \(program.steps.map(\.description)) still fails")
        }
    }

    func testUnmutatedPacksPass() {
        for pack in ["rules/template", "rules/cards", "rules/desert", "Benchmarks/packs/chess"] {
            let reports = fuzz(EngineFixtures.repository.appendingPathComponent(pack).path)
            XCTAssertTrue(reports.isEmpty, "\(pack): \(reports.map(\.finding.description))")
        }
    }

    func testSameSeedGivesSameRun() {
        let path = EngineFixtures.repository.appendingPathComponent("rules/cards").path
        var options = Fuzzer.Options(pack: path)
        options.seed = 5
        let fuzzer = Fuzzer(options: options)
        let first = fuzzer.generate(gameSeed: 3, choiceSeed: 99)
        let second = fuzzer.generate(gameSeed: 3, choiceSeed: 99)
        XCTAssertEqual(first.0, second.0)
        XCTAssertEqual(first.1.trace, second.1.trace)
    }
}
