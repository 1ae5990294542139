import XCTest
@testable import Rulebench

/// What fuzz hands over after a finding: within the session's time, a
/// reproduction that `rulebench run` fails on from a fresh start, one file
/// per bug that nothing overwrites, that still finds its pack when moved.
final class FuzzHandOffTests: XCTestCase {
    /// A bump counter whose undo forgets the count once `legal` has been
    /// listed three times: state outside `game` (a module-level local)
    /// that only the fuzzer's listing of legal calls advances.
    private func legalCounterPack() throws -> URL {
        try temporaryPack(["bump": """
            local listed = 0
            return {
              legal = function(game, emit) listed = listed + 1; emit{} end,
              apply = function(game) game.count = game.count + 1 end,
              undo = function(game) if listed < 3 then game.count = game.count - 1 end end,
            }

            """], manifest: "return { name = \"counter\", setup = function(game) game.count = 0 end }\n", prefix: "counter")
    }

    /// The chess pack with a move counter in a module-level local: every
    /// fifth move's undo forgets the move count.
    private func moduleStateChess() throws -> URL {
        let pack = try scratchFolder("module-state").appendingPathComponent("chess")
        try FileManager.default.copyItem(at: EngineFixtures.repository.appendingPathComponent("Benchmarks/packs/chess"), to: pack)
        let file = pack.appendingPathComponent("actions/move.lua")
        var text = try String(contentsOf: file, encoding: .utf8)
        for (original, mutated) in [("local board = require \"board\"\n", "local board = require \"board\"\nlocal count = 0\n"),
                                    ("  apply = function(game, a, act)\n", "  apply = function(game, a, act)\n    count = count + 1\n"),
                                    ("    game.moves = game.moves - 1\n", "    if count % 5 ~= 0 then game.moves = game.moves - 1 end\n")] {
            XCTAssertTrue(text.contains(original), original)
            text = text.replacingOccurrences(of: original, with: mutated)
        }
        try text.write(to: file, atomically: true, encoding: .utf8)
        return pack
    }

    /// A copy of the cards pack whose draw undo restores a copy of the card.
    private func buggyCards() throws -> URL {
        let copy = try scratchFolder("cards").appendingPathComponent("cards")
        try FileManager.default.copyItem(at: EngineFixtures.repository.appendingPathComponent("rules/cards"), to: copy)
        let file = copy.appendingPathComponent("actions/draw.lua")
        let text = try String(contentsOf: file, encoding: .utf8)
        try text.replacingOccurrences(of: "table.insert(game.deck, a.card)", with: "table.insert(game.deck, require(\"rulebench\").copy(a.card))")
            .write(to: file, atomically: true, encoding: .utf8)
        return copy
    }

    private func options(_ pack: URL) -> Fuzzer.Options {
        var options = Fuzzer.Options(pack: pack.path)
        options.configuration = PlantedBugTests.configuration
        options.depth = 30
        return options
    }

    // MARK: The session's time

    /// A clock that moves 0.05 s a reading: the shrinker reads the session's
    /// clock, so the time left after the finding stops it (`time limit`),
    /// with the shortest reproduction so far, and the session ends within
    /// its time limit and a second. With the shrinker on real time (as
    /// before), it would run to its fixpoint. The search for a shorter line
    /// has the hand-off's last share (`Fuzzer.endingShare`): on this bug it
    /// proves the reproduction shortest, so the status says `shortest`, or
    /// `time limit` when it could not.
    func testTheSessionsTimeStopsTheShrinkWithTheShortestSoFar() throws {
        var options = options(try buggyCards())
        options.timeLimit = 3
        var now = 0.0
        let (reports, progress) = Fuzzer(options: options).run(clock: { now += 0.05; return now })
        let report = try XCTUnwrap(reports.first)
        XCTAssertTrue([.timeUp, .shortest].contains(report.shrinkStatus), "\(report.shrinkStatus)")
        XCTAssertLessThanOrEqual(progress.elapsed, 3 + 1)
        XCTAssertGreaterThan(progress.shrinkingSeconds, 0)
        XCTAssertLessThan(progress.fuzzingSeconds, progress.elapsed)
        XCTAssertLessThanOrEqual(report.shrunk.steps.count, report.original.steps.count)
        XCTAssertEqual(report.freshStart, .fails, "the shortest so far still fails from a fresh start")

        options.timeLimit = nil
        let untimed = try XCTUnwrap(Fuzzer(options: options).run(clock: { now += 0.05; return now }).reports.first)
        // Its fixpoint: 1-minimal, or shortest when the search for shorter
        // lines proved it (since the fuzzer plays `undo: last turn` steps,
        // this seed's first instance is one the search proves shortest).
        XCTAssertTrue([.minimal, .shortest].contains(untimed.shrinkStatus),
                      "without --time the shrink has its own budget and ends at its fixpoint, not \(untimed.shrinkStatus)")
        XCTAssertLessThan(report.shrinkAttempts, untimed.shrinkAttempts, "the session's time stopped the timed shrink first")
    }

    /// The progress line names the phase while a finding is shrunk.
    func testProgressShowsTheShrinkingPhase() throws {
        let options = options(try buggyCards())
        var phases: [String] = []
        _ = Fuzzer(options: options).run(progress: { if let phase = $0.phase { phases.append(phase) } })
        let phase = try XCTUnwrap(phases.last)
        XCTAssertTrue(phase.hasPrefix("shrinking finding 1: "), phase)
        XCTAssertTrue(phase.contains(" → "), phase)
    }

    /// A real session of two seconds through the command line, on a bug
    /// whose shrinking and search for shorter instances take longer than
    /// that: it ends on time, and the JSON report gives the fuzzing and
    /// the shrinking apart.
    func testATwoSecondSessionEndsWithinItsTimeAndASecond() throws {
        let scratch = try scratchFolder("fuzz-time")
        let pack = try moduleStateChess()
        let result = try RulebenchCommand.run(["fuzz", pack.path, "--time", "2", "--seed", "3", "--json",
                                              "--out", scratch.appendingPathComponent("out").path,
                                              "--corpus", scratch.appendingPathComponent("corpus").path], in: scratch)
        XCTAssertEqual(result.status, 1, result.output)
        let report = try JSONValue.parse(result.stdout)
        guard case .double(let seconds)? = report["seconds"], case .double(let fuzzing)? = report["fuzzingSeconds"],
              case .double(let shrinking)? = report["shrinkingSeconds"] else { return XCTFail(result.stdout) }
        XCTAssertLessThanOrEqual(seconds, 3, result.stdout)
        XCTAssertEqual(fuzzing + shrinking, seconds, accuracy: 1e-6)
        XCTAssertGreaterThan(shrinking, 0)
    }

    // MARK: From a fresh start

    /// A module-state mutant (`moduleStateChess`): the fuzzer's
    /// reproduction fails under `rulebench run` (a fresh game, fresh
    /// module state).
    func testAModuleStateBugIsReproducedFromAFreshStart() throws {
        let pack = try moduleStateChess()
        var options = options(pack)
        (options.seed, options.runs, options.depth) = (3, 20, 40)
        let report = try XCTUnwrap(Fuzzer(options: options).run().reports.first)
        XCTAssertEqual(report.finding.property, .undoRestores)
        XCTAssertEqual(report.freshStart, .fails)
        let out = try scratchFolder("module-state-out")
        let url = try FindingWriter.writeScenario(report, pack: pack.path, out: out.path, name: "found.yaml",
                                                  origin: FindingOrigin(command: "rulebench fuzz"))
        XCTAssertEqual(ScenarioRunner().run(fileAt: url).status, .failed)
    }

    /// A bug that only the fuzzer's own listing of legal calls brings on
    /// (a module-level counter in `legal`) does not fail from a fresh
    /// start: it is reported as such, and no file that passes is written.
    func testABugNoFreshStartReproducesIsReportedAndNotWritten() throws {
        let pack = try legalCounterPack()
        let scratch = try scratchFolder("fresh-start")
        let out = scratch.appendingPathComponent("out")
        let result = try RulebenchCommand.run(["fuzz", pack.path, "--search", "uniform", "--runs", "5", "--depth", "10",
                                              "--out", out.path, "--corpus", scratch.appendingPathComponent("corpus").path], in: scratch)
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.stdout.contains("not reproduced from a fresh start"), result.stdout)
        XCTAssertTrue(result.stdout.contains("state outside `game`"), result.stdout)
        let written = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        XCTAssertEqual(written.filter { $0.hasSuffix(".yaml") }, [], "a file that passes was written")
    }

    // MARK: Files

    /// A finding at setup (the pack's invariants break before any step,
    /// for odd generator states: the game seed 0 that the command loads
    /// the pack with passes) gets a reproduction that `rulebench run` fails on (exit 1), not an
    /// empty `steps:` that it calls bad input.
    func testAFindingAtSetupGetsAReproductionThatFails() throws {
        let pack = try temporaryPack(["bump": "return { legal = function(game, emit) emit{} end, apply = function(game) game.count = game.count + 1 end }\n"],
                                     manifest: """
            return { name = "broken", setup = function(game) game.count = game._rng % 2 == 1 and -1 or 0 end,
                     invariants = { nonnegative = function(game) return game.count >= 0 end } }

            """, prefix: "broken")
        let scratch = try scratchFolder("setup-finding")
        let out = scratch.appendingPathComponent("out")
        let result = try RulebenchCommand.run(["fuzz", pack.path, "--runs", "30", "--depth", "3", "--out", out.path,
                                              "--corpus", scratch.appendingPathComponent("corpus").path], in: scratch)
        XCTAssertEqual(result.status, 1, result.output)
        let name = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: out.path).first { $0.hasSuffix(".yaml") }, result.output)
        let run = try RulebenchCommand.run(["run", out.appendingPathComponent(name).path], in: scratch)
        XCTAssertEqual(run.status, 1, run.output)
    }

    /// Two fuzzers on one `--out` (here the same session twice, as two
    /// CI jobs with the same seed would be) keep both files: writing
    /// creates, never replaces.
    func testTwoFuzzersOnOneOutKeepEveryFile() throws {
        let pack = try buggyCards()
        let scratch = try scratchFolder("shared-out")
        let out = scratch.appendingPathComponent("out")
        for corpus in ["corpus1", "corpus2"] {
            let result = try RulebenchCommand.run(["fuzz", pack.path, "--runs", "5", "--depth", "30", "--out", out.path,
                                                  "--corpus", scratch.appendingPathComponent(corpus).path], in: scratch)
            XCTAssertEqual(result.status, 1, result.output)
        }
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".yaml") }.sorted()
        XCTAssertEqual(written.count, 2, "\(written)")
        XCTAssertTrue(written.allSatisfy { $0.hasPrefix("cards-undoRestores-") && $0.contains("draw.lua-") }, "\(written)")
    }

    /// Distinct bugs get distinct names: the identity is in the name.
    func testTheNameCarriesTheBugsIdentity() {
        func report(_ blame: String) -> Fuzzer.Report {
            let finding = FuzzFinding(property: .undoRestores, stepIndex: 0, message: "", differences: [], blame: blame)
            let program = FuzzProgram(pack: "p", seed: 0, options: [:])
            return Fuzzer.Report(finding: finding, original: program, shrunk: program, outcomes: [], shrinkSeconds: 0,
                                 shrinkAttempts: 0, stepsToDetection: 0)
        }
        XCTAssertEqual(FindingWriter.name(of: report("jetpack > move (undo at rules/desert/actions/move.lua:31)"), pack: "desert"),
                       "desert-undoRestores-jetpack_move-move.lua-31.yaml")
        XCTAssertNotEqual(FindingWriter.name(of: report("move (undo at actions/move.lua:31)"), pack: "desert"),
                          FindingWriter.name(of: report("move (undo at actions/move.lua:40)"), pack: "desert"))
    }

    /// The `# Found by:` command quotes every argument for a POSIX shell:
    /// a text option that reads as a number keeps its quotes, a path with
    /// a space stays one word.
    func testTheFoundByCommandQuotesEveryArgument() {
        var options = Fuzzer.Options(pack: "my packs/race")
        options.setupOptions = ["start": .string("0123"), "name": .string("it's")]
        let program = FuzzProgram(pack: options.pack, seed: 0, options: [:])
        let finding = FuzzFinding(property: .undoRestores, stepIndex: 0, message: "", differences: [], blame: nil)
        let report = Fuzzer.Report(finding: finding, original: program, shrunk: program, outcomes: [], shrinkSeconds: 0,
                                   shrinkAttempts: 0, stepsToDetection: 0)
        let command = Fuzzer(options: options).origin(of: report).command
        XCTAssertTrue(command.hasPrefix("rulebench fuzz 'my packs/race' "), command)
        XCTAssertTrue(command.contains(#"--option 'start="0123"'"#), command)
        XCTAssertTrue(command.contains(#"--option 'name=it'\''s'"#), command)
    }

    /// A reproduction of a pack in the project's rules/ names the pack by
    /// name, and one of a pack elsewhere in the project by its path from
    /// the project's root: moved to another folder of the project, or into
    /// another checkout, it still finds its pack.
    func testAReproductionMovedToAnotherFolderStillFindsItsPack() throws {
        let project = try scratchFolder("project")
        let rules = project.appendingPathComponent("rules")
        try FileManager.default.createDirectory(at: rules, withIntermediateDirectories: true)
        let cards = rules.appendingPathComponent("cards")
        try FileManager.default.copyItem(at: try buggyCards(), to: cards)
        let other = project.appendingPathComponent("Benchmarks/packs/cards2")
        try FileManager.default.createDirectory(at: other.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: cards, to: other)
        for (pack, reference) in [(cards, "cards"), (other, "Benchmarks/packs/cards2")] {
            let out = project.appendingPathComponent(".rulebench/findings")
            let result = try RulebenchCommand.run(["fuzz", pack.path, "--runs", "5", "--depth", "30", "--out", out.path,
                                                  "--corpus", project.appendingPathComponent(".rulebench/c").path], in: project)
            XCTAssertEqual(result.status, 1, result.output)
            let name = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: out.path).first { $0.hasSuffix(".yaml") })
            let text = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
            XCTAssertTrue(text.contains("rules: \"\(reference)\"\n"), text)
            let moved = project.appendingPathComponent("scenarios/found/\(name)")
            try FileManager.default.createDirectory(at: moved.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: out.appendingPathComponent(name), to: moved)
            let elsewhere = try scratchFolder("elsewhere")   // run from outside the project
            let run = try RulebenchCommand.run(["run", moved.path], in: elsewhere)
            XCTAssertEqual(run.status, 1, run.output)
            XCTAssertTrue(run.output.contains("deck."), run.output)
        }
    }
}
