import XCTest
@testable import Rulebench

/// `rulebench fuzz` and `rulebench explore` on real packs: exit codes, reproductions, corpus, SIGINT.
final class FuzzCommandTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-fuzz-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// A copy of the cards pack whose draw undo restores a copy of the card.
    private func buggyPack() throws -> URL {
        let copy = scratch.appendingPathComponent("buggy")
        try FileManager.default.copyItem(at: EngineFixtures.repository.appendingPathComponent("rules/cards"), to: copy)
        let file = copy.appendingPathComponent("actions/draw.lua")
        let text = try String(contentsOf: file, encoding: .utf8)
        try text.replacingOccurrences(of: "table.insert(game.deck, a.card)", with: "table.insert(game.deck, require(\"rulebench\").copy(a.card))")
            .write(to: file, atomically: true, encoding: .utf8)
        return copy
    }

    func testCleanPackExitsZero() throws {
        let result = try RulebenchCommand.run(["fuzz", "cards", "--search", "uniform", "--runs", "5", "--depth", "30", "--corpus", scratch.appendingPathComponent("corpus").path,
                                              "--out", scratch.appendingPathComponent("out").path], in: EngineFixtures.repository)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.stdout.contains("5 runs, 150 steps"), result.stdout)
        XCTAssertTrue(result.stdout.contains("0 findings"), result.stdout)
    }

    func testFindingExitsOneWritesAScenarioThatFailsAndIsReplayedFromTheCorpus() throws {
        let pack = try buggyPack()
        let out = scratch.appendingPathComponent("out")
        let corpus = scratch.appendingPathComponent("corpus")
        let result = try RulebenchCommand.run(["fuzz", pack.path, "--runs", "5", "--depth", "30", "--json",
                                              "--out", out.path, "--corpus", corpus.path], in: scratch)
        XCTAssertEqual(result.status, 1, result.output)
        let report = try JSONValue.parse(result.stdout)
        guard case .array(let findings)? = report["findings"], let first = findings.first else { return XCTFail(result.stdout) }
        XCTAssertEqual(first["property"], .string(FuzzFinding.Property.undoRestores.rawValue))
        guard case .string(let scenario)? = first["scenario"] else { return XCTFail("no scenario in \(result.stdout)") }
        let text = try String(contentsOfFile: scenario, encoding: .utf8)
        XCTAssertTrue(text.contains("draw (undo at"), text)
        XCTAssertTrue(text.contains("actions/draw.lua"), text)

        // The reproduction fails under `rulebench run` with the same finding.
        let run = try RulebenchCommand.run(["run", scenario], in: scratch)
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertTrue(run.output.contains("deck."), run.output)

        // The next session replays the corpus first.
        let again = try RulebenchCommand.run(["fuzz", pack.path, "--runs", "1", "--depth", "1", "--out", out.path, "--corpus", corpus.path], in: scratch)
        XCTAssertTrue(again.stdout.contains("known findings replayed, 1 still fail"), again.output)
        XCTAssertEqual(again.status, 1)
    }

    /// Runs of one step have no undo of their own: the bug shows when the
    /// run's end rewinds the history. The reproduction undoes what is still
    /// done, so `rulebench run` fails on it too.
    func testAFindingOfTheEndOfRunRewindIsReproducedWithTheUndo() throws {
        let pack = try temporaryPack(["bump": """
            return {
              legal = function(game, emit) emit{} end,
              apply = function(game) game.count = game.count + 1 end,
              undo = function(game) end,
            }

            """], manifest: "return { name = \"forgetful\", setup = function(game) game.count = 0 end }\n", prefix: "forgetful")
        let out = scratch.appendingPathComponent("out")
        let result = try RulebenchCommand.run(["fuzz", pack.path, "--search", "uniform", "--runs", "5", "--depth", "1",
                                              "--out", out.path, "--corpus", scratch.appendingPathComponent("corpus").path], in: scratch)
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.output.contains("rewinding the whole history"), result.output)
        let name = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: out.path).first { $0.hasSuffix(".yaml") })
        let text = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
        XCTAssertTrue(text.hasSuffix("  - do: \"bump\"\n  # the end of the fuzz run: the rewind, up to the undo that fails\n  - undo: 1\n"), text)
        XCTAssertTrue(text.contains("to 2.\n"), "the header counts the closing undo: \(text)")
        let run = try RulebenchCommand.run(["run", out.appendingPathComponent(name).path], in: scratch)
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertTrue(run.output.contains("count"), run.output)
    }

    func testInterruptStopsCleanlyWithFindingsWritten() throws {
        let pack = try buggyPack()
        let out = scratch.appendingPathComponent("out")
        let (process, stdout, stderr) = try RulebenchCommand.start(
            ["fuzz", pack.path, "--runs", "1000000", "--depth", "40", "--keep-going", "--out", out.path,
             "--corpus", scratch.appendingPathComponent("corpus").path], in: scratch)
        Thread.sleep(forTimeInterval: 3)
        XCTAssertTrue(process.isRunning, "the fuzz ended before it was interrupted")
        kill(process.processIdentifier, SIGINT)
        let result = RulebenchCommand.finish(process, stdout, stderr)
        XCTAssertEqual(result.status, 130, result.output)
        let written = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        XCTAssertFalse(written.isEmpty, "no finding written: \(result.output)")
        XCTAssertTrue(result.stdout.contains("FINDING"), result.stdout)
    }

    func testBadInputExitsTwo() throws {
        let unknown = try RulebenchCommand.run(["fuzz", "no-such-pack"], in: EngineFixtures.repository)
        XCTAssertEqual(unknown.status, 2, unknown.output)
        XCTAssertTrue(unknown.stderr.contains("unknown rule pack 'no-such-pack'"), unknown.stderr)
        let shard = try RulebenchCommand.run(["fuzz", "cards", "--shard", "3/2"], in: EngineFixtures.repository)
        XCTAssertEqual(shard.status, 2, shard.output)
        XCTAssertTrue(shard.stderr.contains("--shard expects K/N"), shard.stderr)
    }

    func testShardsSplitTheRuns() throws {
        func runs(_ shard: String) throws -> String {
            let result = try RulebenchCommand.run(["fuzz", "cards", "--runs", "6", "--depth", "5", "--shard", shard, "--json",
                                                  "--corpus", scratch.appendingPathComponent("c").path], in: EngineFixtures.repository)
            XCTAssertEqual(result.status, 0, result.output)
            return (try JSONValue.parse(result.stdout))["runs"].map { "\($0)" } ?? ""
        }
        XCTAssertEqual(try runs("1/2"), "int(3)")
        XCTAssertEqual(try runs("2/2"), "int(3)")
    }

    func testExploreCountsSequences() throws {
        let result = try RulebenchCommand.run(["explore", "template", "--depth", "3"], in: EngineFixtures.repository)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.stdout.contains("depth 1: 4\ndepth 2: 16\ndepth 3: 64\n"), result.stdout)
    }
}
