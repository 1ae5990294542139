import Foundation
import XCTest
@testable import Rulebench

/// The solver: shortest lines on puzzles with published minimums, positions
/// with no solution, its transposition counts against brute force, and
/// goals wherever they can be asked about (scenarios, play, check).
final class SolverTests: XCTestCase {
    static let folder = EngineFixtures.repository.appendingPathComponent("Tests/RulebenchTests/Fixtures/solve")
    static let river = folder.appendingPathComponent("river").path
    static let lights = folder.appendingPathComponent("lights").path

    private func game(_ pack: String, _ options: [String: StateValue] = [:]) throws -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        return try Game(pack: pack, options: options, seed: 1, configuration: configuration)
    }

    private func solve(_ game: Game, goal: String, maxDepth: Int = 20, maxStates: Int = 100_000,
                       table: Bool = true) throws -> Solver.Result {
        var options = Solver.Options(goal: goal)
        options.maxDepth = maxDepth
        options.maxStates = maxStates
        options.usesTranspositionTable = table
        return try Solver(game: game, options: options).run()
    }

    /// Brute force, by walking every sequence of up to `depth` moves through
    /// Game: `levels[d]`, the states at the end of the sequences of d + 1
    /// moves; `all`, every state within `depth` moves (the start included).
    private func bruteForce(_ game: Game, depth: Int) throws -> (levels: [Set<StateHash>], all: Set<StateHash>) {
        var levels = Array(repeating: Set<StateHash>(), count: depth)
        var all: Set<StateHash> = [game.stateHash]
        func walk(_ level: Int) throws {
            guard level < depth else { return }
            for call in try game.legalActions() {
                try game.perform(call)
                levels[level].insert(game.stateHash)
                all.insert(game.stateHash)
                try walk(level + 1)
                try game.undo()
            }
        }
        try walk(0)
        return (levels, all)
    }

    // MARK: Shortest lines

    func testMissionariesAndCannibalsTakeElevenCrossings() throws {
        let g = try game(Self.river)
        let before = try g.liveStateHash()
        let result = try solve(g, goal: "crossed")
        guard case .solved(let line) = result.outcome else { return XCTFail("\(result.outcome)") }
        XCTAssertEqual(line.count, 11, "the published minimum")
        XCTAssertEqual(result.statistics.finishedDepth, 10, "no line of 10 or fewer crossings")
        XCTAssertEqual(try g.liveStateHash(), before, "the search leaves the game as it was")
        XCTAssertEqual(g.history.cursor, 0)
        // The line plays, and reaches the goal only at its end.
        let replay = try game(Self.river)
        for (index, call) in line.enumerated() {
            XCTAssertFalse(try replay.goalHolds("crossed"), "the goal held after \(index) moves")
            try replay.perform(call)
        }
        XCTAssertTrue(try replay.goalHolds("crossed"))
    }

    func testLightsOutFromAllOnTakesFivePressesWithOrWithoutTheTable() throws {
        let withTable = try solve(try game(Self.lights), goal: "dark")
        let without = try solve(try game(Self.lights), goal: "dark", table: false)
        guard case .solved(let line) = withTable.outcome, case .solved(let plain) = without.outcome else {
            return XCTFail("\(withTable.outcome) \(without.outcome)")
        }
        XCTAssertEqual(Set(line.map { $0.params["n"] }), Set([1, 3, 5, 7, 9].map { StateValue.int($0) }))
        XCTAssertEqual(plain.count, 5)
        // Presses commute: with the closed set each set of presses (at most
        // 1 + 9 + 36 + 84 + 126 within four) is expanded once; without it,
        // every order (9^3 lines of three presses alone).
        XCTAssertLessThanOrEqual(withTable.statistics.nodes, 256)
        XCTAssertGreaterThan(without.statistics.nodes, 729)
    }

    func testAGoalThatHoldsAtTheStartIsAnEmptyLine() throws {
        let result = try solve(try game(Self.lights, ["lit": .string("000000000")]), goal: "dark")
        XCTAssertEqual(result.outcome, .solved([]))
        XCTAssertEqual(result.statistics.nodes, 1)
    }

    // MARK: No solution

    func testFourCouplesWithABoatOfTwoCanNeverCross() throws {
        let result = try solve(try game(Self.river, ["missionaries": .int(4)]), goal: "crossed")
        XCTAssertEqual(result.outcome, .unreachable)
        // Every reachable state, counted by brute force.
        let reachable = try bruteForce(try game(Self.river, ["missionaries": .int(4)]), depth: result.statistics.finishedDepth + 1)
        XCTAssertEqual(result.statistics.distinctStates, reachable.all.count)
    }

    func testNoSolutionWithinTheDepthSaysSo() throws {
        let result = try solve(try game(Self.river), goal: "crossed", maxDepth: 6)
        XCTAssertEqual(result.outcome, .notWithin(6))
        XCTAssertEqual(result.statistics.finishedDepth, 6)
    }

    func testAFullTableStopsTheSearchWithItsBound() throws {
        let result = try solve(try game(Self.lights), goal: "dark", maxStates: 20)
        XCTAssertEqual(result.outcome, .boundReached(depth: 2))
        XCTAssertEqual(result.statistics.finishedDepth, 1)
        XCTAssertEqual(result.statistics.distinctStates, 20)
    }

    func testStoppingReportsTheDeepestDepthFinished() throws {
        let g = try game(Self.lights)
        let before = try g.liveStateHash()
        var calls = 0
        var options = Solver.Options(goal: "dark")
        options.maxStates = 100_000
        // Stops once depth 3 has been reached.
        let result = try Solver(game: g, options: options).run(shouldStop: { calls > 0 }) { statistics in
            if statistics.depth == 3 { calls += 1 }
        }
        XCTAssertEqual(result.outcome, .interrupted)
        // The iteration in progress is not finished; the one before it is
        // (a whole iteration may be one kernel call, so it may be depth 3's).
        XCTAssertGreaterThanOrEqual(result.statistics.finishedDepth, 2)
        XCTAssertEqual(result.statistics.finishedDepth, result.statistics.depth - 1)
        XCTAssertEqual(try g.liveStateHash(), before)
    }

    // MARK: Transpositions against brute force

    func testDistinctStatesMatchABruteForceCount() throws {
        // Neither goal can be reached within the depth: all-on lights need 5 presses.
        for (pack, goal, depth) in [(Self.lights, "dark", 3), (Self.river, "never", 8)] {
            let reference = try bruteForce(try game(pack), depth: depth)
            // The solver's table holds every state within `depth` moves once.
            let result = try solve(try game(pack), goal: goal, maxDepth: depth)
            XCTAssertEqual(result.outcome, .notWithin(depth), pack)
            XCTAssertEqual(result.statistics.distinctStates, reference.all.count, pack)
            // explore --unique: the distinct states among the sequences of each length.
            let counts = try Explorer(game: try game(pack), depth: depth, distinctBound: 100_000).run()
            XCTAssertEqual(counts.distinct, reference.levels.map(\.count), pack)
        }
    }

    func testExploreUniqueStopsAtItsBound() throws {
        XCTAssertThrowsError(try Explorer(game: try game(Self.lights), depth: 3, distinctBound: 10).run()) { error in
            XCTAssertTrue("\(error)".contains("bound of 10 states"), "\(error)")
        }
    }

    // MARK: Failures while solving

    func testAnUndoBugIsReportedWithItsLineAndTheGameIsRestored() throws {
        let g = try game(Self.lights, ["bug": .string("undo")])
        let before = try g.liveStateHash()
        XCTAssertThrowsError(try solve(g, goal: "dark")) { error in
            guard let failure = error as? ExplorationFailure, case .undoMismatch(let problems) = failure.error else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(failure.path.last, ActionCall("press", ["n": .int(5)]))
            XCTAssertEqual(problems.first?.undoFunction?.line, 20)
        }
        XCTAssertEqual(try g.liveStateHash(), before)
        XCTAssertEqual(g.history.cursor, 0)
    }

    func testEveryOperationOfTheSearchHasItsOwnBudget() throws {
        func walk(spin: Int64, budget: Int64) throws -> Game {
            var configuration = Game.Configuration()
            configuration.printHandler = { _ in }
            configuration.instructionBudget = budget
            return try Game(pack: ExplorerTests.walk, options: ["bug": .string("slow"), "spin": .int(spin)], seed: 1,
                            configuration: configuration)
        }
        let reference = try solve(try game(ExplorerTests.walk), goal: "threes")
        XCTAssertEqual(reference.outcome, .solved(Array(repeating: ActionCall("mark", ["n": .int(3)]), count: 3)))
        // Each apply spends most of the budget; the search as a whole far more.
        let counted = try solve(try walk(spin: 120_000, budget: 200_000), goal: "threes")
        XCTAssertEqual(counted.outcome, reference.outcome)
        // A budget this large runs calls watched rather than counted; a call
        // that may have run past its time allowance runs again counted. The
        // table keeps only finished work, so the search and its counts are
        // the same either way.
        let watched = try solve(try walk(spin: 2_400_000, budget: 4_000_000), goal: "threes")
        XCTAssertEqual(watched.outcome, reference.outcome)
        XCTAssertEqual(watched.statistics.nodes, reference.statistics.nodes)
        XCTAssertEqual(watched.statistics.performs, reference.statistics.performs)
        XCTAssertEqual(watched.statistics.transpositions, reference.statistics.transpositions)
        // One operation past its budget fails the search with its line.
        XCTAssertThrowsError(try solve(try walk(spin: 300_000, budget: 200_000), goal: "threes")) { error in
            guard let failure = error as? ExplorationFailure, case .budgetExceeded(let budget) = failure.error else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(budget.location?.line, 12)
            XCTAssertEqual(failure.path, [ActionCall("mark", ["n": .int(1)])])
        }
    }

    func testAStepThatFailsLeavesTheSearchWithFinishedWorkOnly() throws {
        // A call stopped halfway (here by an error) must leave a search that
        // the same call, made again, can trust: a state's children join the
        // search only once all its moves are done, so the second call finds
        // the shortest line all the same.
        let g = try game(Self.lights, ["flaky": .bool(true)])
        let before = try g.liveStateHash()
        _ = try g.kernel.solveBegin(goal: "flaky", bound: 100_000, table: true, maxDepth: 5, how: "shortest")
        defer { g.kernel.solveEnd() }
        XCTAssertThrowsError(try g.kernel.solveStep(expansions: 1000)) { error in
            XCTAssertTrue("\((error as? ExplorationFailure)?.error as Any)".contains("flaky fails once"), "\(error)")
        }
        XCTAssertEqual(try g.liveStateHash(), before, "the step is rolled back")
        let again = try g.kernel.solveStep(expansions: 1000)
        XCTAssertEqual(again.status, .found)
        XCTAssertEqual(Set(try g.kernel.solveLine().map { $0.params["n"] }), Set([1, 3, 5, 7, 9].map { StateValue.int($0) }))
        XCTAssertEqual(try g.liveStateHash(), before)
    }

    func testGoalsAreReadOnlyAndAnswerTrueOrFalse() throws {
        let g = try game(Self.river, ["badgoals": .bool(true)])
        for (goal, line, text) in [("broken", 37, "returned 3"), ("writes", 38, "read-only")] {
            XCTAssertThrowsError(try g.goalHolds(goal)) { error in
                guard case .script(let failure)? = error as? RulebenchError else { return XCTFail("\(error)") }
                XCTAssertEqual(failure.location?.line, line)
                XCTAssertTrue(failure.message.contains(text), failure.message)
            }
            XCTAssertThrowsError(try solve(g, goal: goal))
        }
        XCTAssertEqual(try g.state(at: "side"), .string("left"))
        XCTAssertThrowsError(try g.goalHolds("crosed")) { error in
            guard case .badInput(let problem)? = error as? RulebenchError else { return XCTFail("\(error)") }
            XCTAssertTrue(problem.message.contains("did you mean 'crossed'"), problem.message)
        }
        XCTAssertThrowsError(try solve(g, goal: "crosed")) { error in
            guard let failure = error as? ExplorationFailure, case .badInput = failure.error else { return XCTFail("\(error)") }
        }
    }

    func testCheckLintsGoals() throws {
        var options = PackChecker.Options()
        options.seeds = [1]
        options.depth = 2
        options.setupOptions = ["badgoals": .bool(true)]
        let problems = try PackChecker(pack: Self.river, options: options).check()
        XCTAssertEqual(problems.filter { $0.severity == .error }.map(\.line), [37, 38], problems.map(\.description).joined(separator: "\n"))
        options.setupOptions = [:]
        XCTAssertEqual(try PackChecker(pack: Self.lights, options: options).check(), [])
    }

    // MARK: Goals in scenarios and play

    func testScenarioExpectGoal() throws {
        let header = "scenario: inline\nrules: ../solve/lights\nsetup: { options: { lit: \"110100000\" } }\nsteps:\n"
        let passing = try ScenarioFixtures.run(header + "  - do: press\n    with: { n: 1 }\n    expect: { goal: dark }\n")
        XCTAssertEqual(passing.status, .passed, TextReport.render(passing))
        let failing = try ScenarioFixtures.run(header + "  - expect: { goal: dark }\n")
        XCTAssertEqual(failing.status, .failed)
        XCTAssertEqual(failing.failure?.mismatches.first?.check, "goal")
        let unknown = try ScenarioFixtures.run(header + "  - expect: { goal: drak }\n")
        XCTAssertEqual(unknown.status, .badInput)
        XCTAssertTrue(unknown.problem?.message.contains("did you mean 'dark'") ?? false, "\(String(describing: unknown.problem))")
    }

    func testPlaySaysWhetherAGoalHolds() throws {
        var output = ""
        let session = PlaySession(game: try game(Self.lights, ["lit": .string("110100000")])) { output += $0 }
        session.handle("goal dark")
        session.handle("press n=1")
        session.handle("goal")
        session.handle("goal drak")
        XCTAssertTrue(output.contains("goal dark: does not hold"), output)
        XCTAssertTrue(output.contains("goal dark: holds"), output)
        XCTAssertTrue(output.contains("unknown goal 'drak'"), output)
        XCTAssertEqual(session.errorCount, 1)
    }

    // MARK: The command

    func testSolveWritesAScenarioThatRunPassesAndExitsByOutcome() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("solve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("shortest.yaml").path
        let solved = try RulebenchCommand.run(["solve", Self.river, "--goal", "crossed", "--out", out], in: folder)
        XCTAssertEqual(solved.status, 0, solved.output)
        XCTAssertTrue(solved.stdout.contains("reached in 11 moves"), solved.stdout)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(text.contains("expect: { goal: \"crossed\" }"), text)
        let run = try RulebenchCommand.run(["run", out], in: folder)
        XCTAssertEqual(run.status, 0, run.output)

        // From a prepared position: one cannibal left, the boat beside him.
        let near = folder.appendingPathComponent("near.yaml").path
        let prepared = try RulebenchCommand.run(["solve", Self.river, "--goal", "crossed", "--state", "left.m=0", "--state", "left.c=1",
                                                 "--out", near], in: folder)
        XCTAssertEqual(prepared.status, 0, prepared.output)
        XCTAssertTrue(prepared.stdout.contains("reached in 1 move\n  1. cross c=1 m=0"), prepared.stdout)
        XCTAssertTrue(try String(contentsOfFile: near, encoding: .utf8).contains("\"left.c\": 1"))
        XCTAssertEqual(try RulebenchCommand.run(["run", near], in: folder).status, 0)

        let none = try RulebenchCommand.run(["solve", Self.river, "--goal", "crossed", "--option", "missionaries=4", "--json"], in: folder)
        XCTAssertEqual(none.status, 1, none.output)
        XCTAssertTrue(none.stdout.contains("\"status\": \"unreachable\""), none.stdout)
        XCTAssertTrue(none.stdout.contains("\"distinctStates\": "), none.stdout)
        let shallow = try RulebenchCommand.run(["solve", Self.river, "--goal", "crossed", "--max-depth", "4"], in: folder)
        XCTAssertEqual(shallow.status, 1, shallow.output)
        XCTAssertTrue(shallow.stdout.contains("no solution within 4 moves"), shallow.stdout)
        let unknown = try RulebenchCommand.run(["solve", Self.river, "--goal", "crosed"], in: folder)
        XCTAssertEqual(unknown.status, 2, unknown.output)
    }
    /// `--any` takes the first line depth-first: on the counter, 10 moves where
    /// 7 is the fewest. Nothing it prints or writes may call that line shortest.
    func testAnyNeverClaimsAShortestLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("solve-any-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let counter = Self.folder.appendingPathComponent("counter").path
        let anyOut = folder.appendingPathComponent("any.yaml").path
        let any = try RulebenchCommand.run(["solve", counter, "--goal", "reach", "--any", "--out", anyOut], in: folder)
        XCTAssertEqual(any.status, 0, any.output)
        XCTAssertTrue(any.stdout.contains("reached in 10 moves"), any.stdout)
        XCTAssertTrue(any.stdout.contains("not necessarily a shortest one"), any.stdout)
        let anyText = try String(contentsOfFile: anyOut, encoding: .utf8)
        XCTAssertFalse(anyText.contains("fewest"), anyText)
        XCTAssertFalse(anyText.contains("A shortest line"), anyText)
        XCTAssertFalse(anyText.contains("no line of"), anyText)
        XCTAssertTrue(anyText.contains("not proven shortest"), anyText)
        XCTAssertEqual(try RulebenchCommand.run(["run", anyOut], in: folder).status, 0)
        let anyJSON = try RulebenchCommand.run(["solve", counter, "--goal", "reach", "--any", "--json"], in: folder)
        XCTAssertTrue(anyJSON.stdout.contains("\"shortest\": false"), anyJSON.stdout)
        XCTAssertFalse(anyJSON.stdout.contains("\"shortest\": true"), anyJSON.stdout)

        // Breadth-first proves its 7 moves the fewest, and says so.
        let bfsOut = folder.appendingPathComponent("bfs.yaml").path
        let bfs = try RulebenchCommand.run(["solve", counter, "--goal", "reach", "--out", bfsOut, "--json"], in: folder)
        XCTAssertEqual(bfs.status, 0, bfs.output)
        XCTAssertTrue(bfs.stdout.contains("\"moves\": 7"), bfs.stdout)
        XCTAssertTrue(bfs.stdout.contains("\"shortest\": true"), bfs.stdout)
        let bfsText = try String(contentsOfFile: bfsOut, encoding: .utf8)
        XCTAssertTrue(bfsText.contains("the fewest possible"), bfsText)
        XCTAssertTrue(bfsText.contains("no line of 6 or fewer reaches it"), bfsText)

        // A* proves it only if the estimate never overestimates: the header says so.
        let starOut = folder.appendingPathComponent("star.yaml").path
        XCTAssertEqual(try RulebenchCommand.run(["solve", counter, "--goal", "guided", "--out", starOut], in: folder).status, 0)
        let starText = try String(contentsOfFile: starOut, encoding: .utf8)
        XCTAssertFalse(starText.contains("fewest"), starText)
        XCTAssertTrue(starText.contains("if the goal's estimate never overestimates"), starText)
        // An estimate that overestimates cuts the 7-move line: A* may not say no line of 20 moves exists.
        let over = try RulebenchCommand.run(["solve", counter, "--goal", "over"], in: folder)
        XCTAssertEqual(over.status, 1, over.output)
        XCTAssertFalse(over.stdout.contains("is not reached by any line"), over.stdout)
        XCTAssertTrue(over.stdout.contains("only if the goal's estimate never overestimates"), over.stdout)
    }
}
