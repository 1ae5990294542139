import Foundation
import XCTest
@testable import Rulebench

/// Levels by the thousand (docs/levels.md): a pack's generate, `rulebench
/// generate` (deterministic, every level solved, the time limit), the level
/// file read back, `run` replaying stored solutions and naming what no longer
/// solves, `solve --levels --write-solutions` repairing them, and --unique.
final class LevelTests: XCTestCase {
    static let repository = EngineFixtures.repository
    static let pipes = repository.appendingPathComponent("Benchmarks/packs/pipes").path
    static let eight = repository.appendingPathComponent("Benchmarks/packs/eight").path
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-levels-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    private func game(_ pack: String, _ options: [String: StateValue] = [:]) throws -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        return try Game(pack: pack, options: options, configuration: configuration)
    }

    private func rulebench(_ arguments: [String]) throws -> RulebenchCommand.Result {
        try RulebenchCommand.run(arguments, in: scratch)
    }

    /// A copy of the pipes pack in the scratch folder, to change its rules.
    private func copyOfPipes() throws -> URL {
        let copy = scratch.appendingPathComponent("pipes")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Self.pipes), to: copy)
        return copy
    }

    func testTheSameSeedAndParamsGiveTheSameLevel() throws {
        let pipes = try game(Self.pipes)
        let params: [String: StateValue] = ["rows": .int(5), "columns": .int(5)]
        let first = try pipes.generate(seed: 42, params: params)
        XCTAssertEqual(try game(Self.pipes).generate(seed: 42, params: params), first)
        XCTAssertNotEqual(try pipes.generate(seed: 43, params: params), first)
        guard case .string(let grid)? = first["grid"] else { return XCTFail("\(first)") }
        XCTAssertEqual(grid.split(separator: "/").map(\.count), [5, 5, 5, 5, 5])
        // Generating changes nothing in the game.
        let hash = pipes.stateHash
        _ = try pipes.generate(seed: 7, params: params)
        XCTAssertEqual(try pipes.liveStateHash(), hash)
        // A spanning tree turned no times is solved: every opening meets another.
        let solved = try pipes.generate(seed: 9, params: params.merging(["turns": .int(0)]) { $1 })
        try pipes.restart(seed: 0, options: solved)
        XCTAssertTrue(try pipes.goalHolds("connected"))
        let hex = try pipes.generate(seed: 9, params: params.merging(["turns": .int(0), "shape": .string("hex")]) { $1 })
        try pipes.restart(seed: 0, options: hex)
        XCTAssertTrue(try pipes.goalHolds("connected"), "\(hex)")
        // The 8-puzzle's scramble is solvable: a shortest line of at most the moves made.
        let eight = try game(Self.eight)
        try eight.restart(seed: 0, options: try eight.generate(seed: 3, params: ["moves": .int(9)]))
        var options = Solver.Options(goal: "solved")
        options.maxDepth = 9
        guard case .solved(let line) = try Solver(game: eight, options: options).run().outcome else { return XCTFail("not solved") }
        XCTAssertLessThanOrEqual(line.count, 9)
    }

    func testAPackWithoutGenerateIsBadInput() throws {
        let result = try rulebench(["generate", Self.repository.appendingPathComponent("rules/template").path, "--count", "1",
                                    "--goal", "x", "--out", "l.yaml"])
        XCTAssertEqual(result.status, 2, result.output)
        let desert = try rulebench(["generate", Self.repository.appendingPathComponent("rules/desert").path, "--count", "1",
                                    "--goal", "won", "--out", "l.yaml"])
        XCTAssertEqual(desert.status, 2, desert.output)
        XCTAssertTrue(desert.stderr.contains("declares no generate(rng, params)"), desert.output)
    }

    func testGenerateWritesTheSameFileTwiceAndRunReplaysEveryLevel() throws {
        let arguments = ["generate", Self.pipes, "--count", "12", "--seed", "1", "--param", "rows=5", "--param", "columns=5",
                         "--goal", "solved", "--progress-interval", "0"]
        let first = try rulebench(arguments + ["--out", "a.yaml"])
        XCTAssertEqual(first.status, 0, first.output)
        XCTAssertTrue(first.stdout.contains("12 levels written to a.yaml"), first.stdout)
        XCTAssertTrue(first.stderr.contains("generate \(Self.pipes): "), first.stderr)
        let second = try rulebench(arguments + ["--out", "b.yaml"])
        XCTAssertEqual(second.status, 0, second.output)
        let a = try String(contentsOf: scratch.appendingPathComponent("a.yaml"), encoding: .utf8)
        XCTAssertEqual(a, try String(contentsOf: scratch.appendingPathComponent("b.yaml"), encoding: .utf8))

        let file = try LevelFile.parse(a, file: "a.yaml")
        XCTAssertEqual(file.levels.count, 12)
        XCTAssertEqual(Set(file.levels.map(\.options)).count, 12, "duplicates are dropped")
        for level in file.levels {
            XCTAssertEqual(level.solution?.found, .shortest)
            XCTAssertEqual(level.grade?.moves, level.solution?.calls.count)
            XCTAssertGreaterThan(level.grade?.moves ?? 0, 0)
        }
        // Written and read back: the same levels, the same text.
        XCTAssertEqual(try LevelFile.parse(file.text(), file: "again").levels, file.levels)
        let schema = try SchemaSubset(try JSONValue.parse(String(contentsOf: Self.repository.appendingPathComponent("scenarios/levels.schema.json"),
                                                                    encoding: .utf8)))
        XCTAssertEqual(schema.problems(try ScenarioParser.json(a, file: "a.yaml")), [])

        let run = try rulebench(["run", "a.yaml"])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.stdout.contains("12 scenarios: 12 passed, 0 failed"), run.stdout)
        XCTAssertTrue(run.stdout.contains("PASS  a.yaml  level 12"), run.stdout)
    }

    func testAWrongStoredSolutionFailsRunNamingTheLevelAndStep() throws {
        let made = try rulebench(["generate", Self.eight, "--count", "3", "--param", "moves=8", "--goal", "solved", "--out", "e.yaml"])
        XCTAssertEqual(made.status, 0, made.output)
        let url = scratch.appendingPathComponent("e.yaml")
        var file = try LevelFile.parse(contentsOf: url)
        var calls = try XCTUnwrap(file.levels[1].solution?.calls)
        XCTAssertGreaterThan(calls.count, 1)
        calls.removeLast()             // one move short of the goal
        file.levels[1].solution?.calls = calls
        try file.text().write(to: url, atomically: true, encoding: .utf8)
        let run = try rulebench(["run", "e.yaml"])
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertTrue(run.stdout.contains("FAIL  e.yaml  level 2"), run.stdout)
        XCTAssertTrue(run.stdout.contains("step \(calls.count) at e.yaml:"), run.stdout)
        XCTAssertTrue(run.stdout.contains("goal solved does not hold"), run.stdout)
        XCTAssertTrue(run.stdout.contains("3 scenarios: 2 passed, 1 failed"), run.stdout)

        // A call the rules refuse is named at its step.
        calls[0] = ActionCall("slide", ["from": .int(99)])
        file.levels[1].solution?.calls = calls
        try file.text().write(to: url, atomically: true, encoding: .utf8)
        let refused = try rulebench(["run", "e.yaml"])
        XCTAssertEqual(refused.status, 1, refused.output)
        XCTAssertTrue(refused.stdout.contains("level 2, step 1 of"), refused.stdout)
    }

    func testAPlantedRulesChangeIsNamedByRunAndRepairedBySolve() throws {
        let pack = try copyOfPipes()
        let made = try rulebench(["generate", "pipes", "--count", "12", "--seed", "3", "--param", "rows=4", "--param", "columns=4",
                                  "--goal", "solved", "--out", "p.yaml"])
        XCTAssertEqual(made.status, 0, made.output)
        let before = try LevelFile.parse(contentsOf: scratch.appendingPathComponent("p.yaml"))
        XCTAssertEqual(before.packReference, "pipes")
        // The planted change: a turn of row 1 turns row 2's cell, and the other way round.
        let turn = pack.appendingPathComponent("actions/turn.lua")
        let rules = try String(contentsOf: turn, encoding: .utf8)
        let planted = rules.replacingOccurrences(of: "game.rows[a.r][a.c] = sides.turn(game.rows[a.r][a.c], game.hex)",
                                                 with: "local r = a.r == 1 and 2 or a.r == 2 and 1 or a.r\n    game.rows[r][a.c] = sides.turn(game.rows[r][a.c], game.hex)")
        XCTAssertNotEqual(planted, rules)
        try planted.write(to: turn, atomically: true, encoding: .utf8)
        // Which levels break, by the library's own replay under the new rules.
        let replay = LevelReplay(file: before, display: "p.yaml", folder: scratch)
        let broken = replay.run(in: try replay.makeGame()).filter { !$0.passed }.map(\.level)
        XCTAssertFalse(broken.isEmpty)
        XCTAssertLessThan(broken.count, before.levels.count, "some levels never turn rows 1 and 2")
        let run = try rulebench(["run", "p.yaml"])
        XCTAssertEqual(run.status, 1, run.output)
        for level in before.levels {
            XCTAssertEqual(run.stdout.contains("FAIL  p.yaml  level \(level.name) ("), broken.contains(level.name), run.stdout)
        }
        let dry = try rulebench(["solve", "--levels", "p.yaml"])
        XCTAssertEqual(dry.status, 0, dry.output)
        XCTAssertTrue(dry.stdout.contains("\(broken.count) would get a new one"), dry.stdout)
        let repair = try rulebench(["solve", "--levels", "p.yaml", "--write-solutions"])
        XCTAssertEqual(repair.status, 0, repair.output)
        XCTAssertTrue(repair.stdout.contains("\(before.levels.count - broken.count) kept their solution, \(broken.count) given a new one"),
                      repair.stdout)
        let after = try LevelFile.parse(contentsOf: scratch.appendingPathComponent("p.yaml"))
        XCTAssertEqual(after.levels.map(\.options), before.levels.map(\.options))
        XCTAssertEqual(after.levels.map(\.seed), before.levels.map(\.seed))
        XCTAssertEqual(after.levels.map(\.name), before.levels.map(\.name))
        for (old, new) in zip(before.levels, after.levels) where !broken.contains(old.name) {
            XCTAssertEqual(old.solution, new.solution, "a level that still solved kept its solution")
        }
        let again = try rulebench(["run", "p.yaml"])
        XCTAssertEqual(again.status, 0, again.output)
    }

    func testUniqueIsRightOnAKnownUniqueAndAKnownNonUniqueLevel() throws {
        // One end facing north that must turn once to meet its neighbour: one line.
        let unique = try game(Self.pipes, ["grid": .string("18")])
        XCTAssertEqual(try SolutionCount(game: unique, goal: "connected", limit: 5).run(length: 1), .counted(1, limitReached: false))
        // Two ends each one turn away: two orders, two lines (and no third).
        let two = try game(Self.pipes, ["grid": .string("14")])
        XCTAssertEqual(try SolutionCount(game: two, goal: "connected", limit: 5).run(length: 2), .counted(2, limitReached: false))
        XCTAssertEqual(try SolutionCount(game: two, goal: "connected", limit: 2).run(length: 2), .counted(2, limitReached: true))
        XCTAssertEqual(try two.liveStateHash(), two.stateHash, "the count leaves the game as it was")
        // Three ends: 3! orders.
        let three = try game(Self.pipes, ["grid": .string("154")])
        XCTAssertEqual(try SolutionCount(game: three, goal: "connected", limit: 100).run(length: 3), .counted(6, limitReached: false))
        XCTAssertEqual(try SolutionCount(game: three, goal: "connected", limit: 100, maxMoves: 5).run(length: 3), .outOfBudget(moves: 5))

        // generate --unique keeps only levels whose shortest line is the only one, and says so in the file.
        let made = try rulebench(["generate", Self.eight, "--count", "4", "--param", "moves=10", "--goal", "solved", "--unique",
                                  "--out", "u.yaml"])
        XCTAssertEqual(made.status, 0, made.output)
        let file = try LevelFile.parse(contentsOf: scratch.appendingPathComponent("u.yaml"))
        for level in file.levels {
            XCTAssertEqual(level.solution?.linesOfThisLength, 1)
            let replay = try game(Self.eight, level.options)
            XCTAssertEqual(try SolutionCount(game: replay, goal: "solved", limit: 10).run(length: level.grade?.moves ?? 0),
                           .counted(1, limitReached: false))
        }
        // Pipes levels whose turns fall on two or more cells are never unique (the turns commute): most
        // candidates are skipped, and said so; what is kept turns one cell only, and counts one line.
        let pipes = try rulebench(["generate", Self.pipes, "--count", "1", "--param", "rows=3", "--param", "columns=3",
                                   "--param", "turns=4", "--min-grade", "2", "--goal", "solved", "--unique", "--time", "20", "--out", "n.yaml"])
        XCTAssertEqual(pipes.status, 0, pipes.output)
        XCTAssertTrue(pipes.stdout.contains(" not unique)"), pipes.stdout)
        let kept = try XCTUnwrap(try LevelFile.parse(contentsOf: scratch.appendingPathComponent("n.yaml")).levels.first)
        let calls = try XCTUnwrap(kept.solution?.calls)
        XCTAssertEqual(Set(calls).count, 1, "one cell turned \(calls.count) times")
        XCTAssertEqual(try SolutionCount(game: try game(Self.pipes, kept.options), goal: "solved", limit: 10).run(length: calls.count),
                       .counted(1, limitReached: false))
    }

    func testAGeneratorThatCanNeverSucceedEndsAtTheTimeLimitSayingWhy() throws {
        let pack = scratch.appendingPathComponent("never")
        try FileManager.default.createDirectory(at: pack.appendingPathComponent("actions"), withIntermediateDirectories: true)
        try """
            -- never: a counter that can never reach 3 (it counts 0 and 1 only).
            return {
              name = "never",
              options = { start = 0 },
              setup = function(game, options) game.n = options.start end,
              generate = function(rng, params) return { start = rng:random(0, 1) } end,
              goals = { three = function(game) return game.n == 3 end },
            }
            """.write(to: pack.appendingPathComponent("pack.lua"), atomically: true, encoding: .utf8)
        try """
            return {
              legal = function(game, emit) emit {} end,
              apply = function(game) game.n = 1 - game.n end,
            }
            """.write(to: pack.appendingPathComponent("actions/flip.lua"), atomically: true, encoding: .utf8)
        let result = try rulebench(["generate", pack.path, "--count", "5", "--goal", "three", "--time", "1", "--out", "x.yaml"])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.stdout.hasPrefix("0 levels: "), result.stdout)
        XCTAssertTrue(result.stdout.contains("unsolvable"), result.stdout)
        XCTAssertTrue(result.stdout.contains("duplicate"), result.stdout)
        XCTAssertTrue(result.stdout.contains("stopped at the time limit"), result.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("x.yaml").path))
    }

    func testACandidateOutOfBudgetIsReportedAndSkippedNeverKept() throws {
        let result = try rulebench(["generate", Self.eight, "--count", "2", "--param", "moves=30", "--max-states", "20",
                                    "--goal", "solved", "--time", "2", "--out", "b.yaml"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.stderr.contains("skipped candidate seed "), result.stderr)
        XCTAssertTrue(result.stderr.contains("out of budget: 20 states kept"), result.stderr)
        XCTAssertTrue(result.stdout.contains("out of budget"), result.stdout)
        // What was kept was solved within the budget: its line replays to the goal.
        let file = try LevelFile.parse(contentsOf: scratch.appendingPathComponent("b.yaml"))
        for level in file.levels { XCTAssertLessThanOrEqual(level.grade?.states ?? .max, 20) }
        let run = try rulebench(["run", "b.yaml"])
        XCTAssertEqual(run.status, 0, run.output)
    }

    func testCtrlCKeepsTheLevelsFinished() throws {
        let (process, out, err) = try RulebenchCommand.start(["generate", Self.pipes, "--count", "50", "--param", "turns=12",
                                                              "--goal", "solved", "--progress-interval", "0", "--out", "c.yaml"], in: scratch)
        var seen = ""
        while !seen.contains("1/50 levels") {   // a progress line after each candidate: wait for the first level
            let data = err.fileHandleForReading.availableData
            if data.isEmpty { break }
            seen += String(decoding: data, as: UTF8.self)
        }
        XCTAssertTrue(seen.contains("1/50 levels"), seen)
        kill(process.processIdentifier, SIGINT)
        let result = RulebenchCommand.finish(process, out, err)
        XCTAssertEqual(result.status, 130, result.output)
        XCTAssertTrue(result.stdout.contains("interrupted: the "), result.stdout)
        let file = try LevelFile.parse(contentsOf: scratch.appendingPathComponent("c.yaml"))
        XCTAssertGreaterThanOrEqual(file.levels.count, 1)
        XCTAssertLessThan(file.levels.count, 50)
        let run = try rulebench(["run", "c.yaml"])
        XCTAssertEqual(run.status, 0, run.output)
    }
}
