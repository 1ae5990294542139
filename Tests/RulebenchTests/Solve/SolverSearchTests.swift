import Foundation
import XCTest
@testable import Rulebench

/// The solver's searches: the proof of no solution, the estimate's best-first
/// search against breadth-first, dead ends, `--any`, `explore --unique`
/// against the sequence walk, `check`'s warning for an estimate that
/// overestimates, and progress kept off standard output.
final class SolverSearchTests: XCTestCase {
    static let counter = SolverTests.folder.appendingPathComponent("counter").path
    static let eight = EngineFixtures.repository.appendingPathComponent("Benchmarks/packs/eight").path
    static let pipes = EngineFixtures.repository.appendingPathComponent("Benchmarks/packs/pipes").path

    private func game(_ pack: String, _ options: [String: StateValue] = [:]) throws -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        return try Game(pack: pack, options: options, seed: 1, configuration: configuration)
    }

    private func solve(_ game: Game, goal: String, any: Bool = false, estimate: Bool = true) throws -> Solver.Result {
        var options = Solver.Options(goal: goal)
        options.maxDepth = 60
        options.maxStates = 100_000
        options.any = any
        options.usesEstimate = estimate
        return try Solver(game: game, options: options).run()
    }

    /// Plays `line` on a fresh game: the goal holds at its end, and not before
    /// (for a shortest line).
    private func assertReaches(_ line: [ActionCall], _ pack: String, _ options: [String: StateValue], goal: String,
                               onlyAtTheEnd: Bool = true, file: StaticString = #filePath, lineNumber: UInt = #line) throws {
        let replay = try game(pack, options)
        for call in line {
            if onlyAtTheEnd { XCTAssertFalse(try replay.goalHolds(goal), "the goal held before the end", file: file, line: lineNumber) }
            try replay.perform(call)
        }
        XCTAssertTrue(try replay.goalHolds(goal), file: file, line: lineNumber)
    }

    func testAnUnsolvableLevelIsProvenBySearchingEveryState() throws {
        // Four tees on a 2 by 2 grid: one opening always faces the edge.
        let result = try solve(try game(Self.pipes, ["grid": .string("77/77")]), goal: "connected")
        XCTAssertEqual(result.outcome, .unreachable)
        // Four turns of each of four pipes: 4^4 boards, each expanded once,
        // each of its four moves performed once.
        XCTAssertEqual(result.statistics.distinctStates, 256)
        XCTAssertEqual(result.statistics.nodes, 256)
        XCTAssertEqual(result.statistics.performs, 256 * 4)

        let text = try RulebenchCommand.run(["solve", Self.pipes, "--goal", "connected", "--option", "grid=77/77"],
                                            in: EngineFixtures.repository)
        XCTAssertEqual(text.status, 1, text.output)
        XCTAssertTrue(text.stdout.contains("unreachable: all 256 reachable states searched"), text.stdout)
        let json = try RulebenchCommand.run(["solve", Self.pipes, "--goal", "connected", "--option", "grid=77/77", "--json"],
                                            in: EngineFixtures.repository)
        XCTAssertEqual(json.status, 1, json.output)
        XCTAssertTrue(json.stdout.contains("\"status\": \"unreachable\""), json.stdout)
        XCTAssertTrue(json.stdout.contains("\"message\": \"unreachable: all 256 reachable states searched\""), json.stdout)
    }

    func testTheEstimateFindsAShortestLineWithFewerStates() throws {
        for tiles in ["152/7_3/846", "236/1_7/485", "241/753/86_"] {
            let options: [String: StateValue] = ["tiles": .string(tiles)]
            let breadth = try solve(try game(Self.eight, options), goal: "solved", estimate: false)
            let best = try solve(try game(Self.eight, options), goal: "solved")
            guard case .solved(let shortest) = breadth.outcome, case .solved(let line) = best.outcome else {
                return XCTFail("\(tiles): \(breadth.outcome) \(best.outcome)")
            }
            XCTAssertEqual(breadth.statistics.search, .breadthFirst)
            XCTAssertEqual(best.statistics.search, .bestFirst)
            XCTAssertEqual(line.count, shortest.count, tiles)
            XCTAssertLessThan(best.statistics.distinctStates * 2, breadth.statistics.distinctStates, tiles)
            try assertReaches(line, Self.eight, options, goal: "solved")
        }
    }

    func testDeadEndsArePrunedAndTheLineStaysShortest() throws {
        let plain = try solve(try game(Self.counter), goal: "reach")
        let pruned = try solve(try game(Self.counter), goal: "pruned")
        guard case .solved(let shortest) = plain.outcome, case .solved(let line) = pruned.outcome else {
            return XCTFail("\(plain.outcome) \(pruned.outcome)")
        }
        XCTAssertEqual(line.count, shortest.count)
        XCTAssertEqual(plain.statistics.pruned, 0)
        XCTAssertGreaterThan(pruned.statistics.pruned, 0)
        XCTAssertLessThan(pruned.statistics.nodes, plain.statistics.nodes, "a dead end is never expanded")
        try assertReaches(line, Self.counter, [:], goal: "pruned")

        // n never shrinks: 0 is out of reach. Without dead ends every n up to
        // 100 is searched; with them, the start itself (1, past 0) is pruned.
        let none = try solve(try game(Self.counter, ["target": .int(0)]), goal: "reach")
        XCTAssertEqual(none.outcome, .unreachable)
        XCTAssertEqual(none.statistics.distinctStates, 100)
        let cut = try solve(try game(Self.counter, ["target": .int(0)]), goal: "pruned")
        XCTAssertEqual(cut.outcome, .unreachable)
        XCTAssertEqual(cut.statistics.distinctStates, 1)
        XCTAssertEqual(cut.statistics.pruned, 1)
        XCTAssertEqual(cut.statistics.performs, 0)
    }

    func testAnyFindsALineDepthFirst() throws {
        let options: [String: StateValue] = ["tiles": .string("263/4_5/178")]
        let any = try solve(try game(Self.eight, options), goal: "solved", any: true)
        guard case .solved(let line) = any.outcome else { return XCTFail("\(any.outcome)") }
        XCTAssertEqual(any.statistics.search, .depthFirst)
        try assertReaches(line, Self.eight, options, goal: "solved", onlyAtTheEnd: false)
        // Without an estimate, moves in legal order, dbl first: doubling to 64
        // leads to no 37 (every n from 64 to 100 is searched), so the walk
        // backs up to 32 and counts up from there.
        let plain = try solve(try game(Self.counter), goal: "reach", any: true)
        guard case .solved(let counted) = plain.outcome else { return XCTFail("\(plain.outcome)") }
        XCTAssertEqual(counted.map(\.name), Array(repeating: "dbl", count: 5) + Array(repeating: "inc", count: 5))
        try assertReaches(counted, Self.counter, [:], goal: "reach", onlyAtTheEnd: false)
    }

    func testExploreUniqueCountsTheSequencesTheWalkCounts() throws {
        for (pack, depth) in [(SolverTests.lights, 4), (Self.eight, 10), (Self.counter, 9)] {
            let walked = try Explorer(game: try game(pack), depth: depth).run()
            let unique = try Explorer(game: try game(pack), depth: depth, distinctBound: 100_000).run()
            XCTAssertEqual(unique.nodes, walked.nodes, pack)
            let distinct = try XCTUnwrap(unique.distinct)
            XCTAssertEqual(distinct.count, walked.nodes.count, pack)
            for (states, sequences) in zip(distinct, walked.nodes) { XCTAssertLessThanOrEqual(states, sequences, pack) }
        }
        // The 8-puzzle's gap moves back and forth: at depth 10 the 4,000-odd
        // sequences end on far fewer boards.
        let eight = try Explorer(game: try game(Self.eight), depth: 10, distinctBound: 100_000).run()
        XCTAssertLessThan(try XCTUnwrap(eight.distinct?.last) * 4, try XCTUnwrap(eight.nodes.last))
    }

    func testCheckWarnsOfAnEstimateAboveTheMovesLeft() throws {
        var options = PackChecker.Options()
        options.seeds = [1]
        options.depth = 2
        options.setupOptions = ["start": .int(34)]
        let problems = try PackChecker(pack: Self.counter, options: options).check()
        let warnings = problems.filter { $0.message.contains("estimate says") }
        XCTAssertEqual(warnings.count, 1, problems.map(\.description).joined(separator: "\n"))
        XCTAssertTrue(warnings.first?.message.contains("goal 'over'") ?? false, "\(warnings)")
        XCTAssertEqual(warnings.first?.line, 25, "the line of the estimate")
        XCTAssertEqual(warnings.first?.severity, .warning)
    }

    /// A fractional estimate (which `check` accepts) orders the search as
    /// the number it is, and `math.maxinteger` never wraps g + h: both find
    /// the shortest line, 7 moves to 37, as breadth-first does.
    func testFractionalAndHugeEstimatesFindTheShortestLine() throws {
        let breadth = try solve(try game(Self.counter), goal: "reach", estimate: false)
        guard case .solved(let shortest) = breadth.outcome else { return XCTFail("\(breadth.outcome)") }
        XCTAssertEqual(shortest.count, 7)
        for goal in ["fraction", "huge"] {
            let result = try solve(try game(Self.counter), goal: goal)
            XCTAssertEqual(result.statistics.search, .bestFirst, goal)
            guard case .solved(let line) = result.outcome else { return XCTFail("\(goal): \(result.outcome)") }
            XCTAssertEqual(line.count, shortest.count, goal)
            try assertReaches(line, Self.counter, [:], goal: goal)
            XCTAssertEqual(result.statistics.finishedDepth, 6, "\(goal): no line of 6 moves")
            // Past the target the estimate is math.maxinteger: those states are cut, never expanded first.
            XCTAssertLessThanOrEqual(result.statistics.nodes, result.statistics.distinctStates, goal)
        }
        for goal in ["fraction", "huge"] {
            let any = try solve(try game(Self.counter), goal: goal, any: true)
            guard case .solved(let line) = any.outcome else { return XCTFail("\(goal): \(any.outcome)") }
            try assertReaches(line, Self.counter, [:], goal: goal, onlyAtTheEnd: false)
        }
        // `check` accepts both (neither overestimates), as `solve` does.
        var options = PackChecker.Options()
        options.seeds = [1]
        options.depth = 2
        let problems = try PackChecker(pack: Self.counter, options: options).check()
        XCTAssertFalse(problems.contains { $0.message.contains("'fraction'") || $0.message.contains("'huge'") },
                       problems.map(\.description).joined(separator: "\n"))
    }

    func testFoolsMateIsFoundFromTheFirstMove() throws {
        // Pseudo-legal chess (Benchmarks/packs/chess), after 1. f3: black
        // mates in three plies (e5 or e6, g4, Qh4), fool's mate. The whole
        // four plies from the start: `rulebench-bench --solve`.
        let chess = EngineFixtures.repository.appendingPathComponent("Benchmarks/packs/chess").path
        let g = try game(chess)
        try g.perform("move", ["from": .int(14), "to": .int(22)])
        var options = Solver.Options(goal: "mated")
        options.maxDepth = 3
        let result = try Solver(game: g, options: options).run()
        guard case .solved(let line) = result.outcome else { return XCTFail("\(result.outcome)") }
        XCTAssertEqual(line.count, 3)
        XCTAssertEqual(line.last, ActionCall("move", ["from": .int(60), "to": .int(32)]), "the queen to h4")
        XCTAssertEqual(result.statistics.finishedDepth, 2, "no mate in two plies")
        for call in line { try g.perform(call) }
        XCTAssertTrue(try g.goalHolds("mated"))
    }

    func testAGoalTableWithAMistakeFailsToLoadAtItsLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("goal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("actions"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (goal, says) in [("won = { holds = function(game) return true end, estimat = function(game) return 0 end },",
                              "\"estimat\" is not one of them"),
                             ("won = { estimate = function(game) return 0 end },", "needs holds = function(game)")] {
            let source = "return {\n  name = \"g\",\n  goals = {\n    \(goal)\n  },\n}\n"
            try source.write(to: folder.appendingPathComponent("pack.lua"), atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try game(folder.path)) { error in
                guard case .packLoad(let problem)? = error as? RulebenchError else { return XCTFail("\(error)") }
                XCTAssertTrue(problem.message.contains(says), problem.message)
                XCTAssertEqual(problem.line, 4, problem.message)
            }
        }
    }

    func testProgressGoesToStandardErrorAndTheJSONStaysClean() throws {
        let run = try RulebenchCommand.run(["solve", Self.counter, "--goal", "reach", "--json", "--progress-interval", "0"],
                                           in: EngineFixtures.repository)
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.stderr.contains("solve \(Self.counter) (breadth-first): depth"), run.stderr)
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(report?["status"] as? String, "solved", run.stdout)
    }
}
