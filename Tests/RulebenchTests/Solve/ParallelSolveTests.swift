import XCTest
@testable import Rulebench

/// `solve --jobs N`: the breadth-first search over several workers finds
/// what one worker finds (the same line, not only one as short), proves
/// what it proves, counts what it counts, and reports the failure it meets
/// first; the searches that stay on one worker say so by running as one.
final class ParallelSolveTests: XCTestCase {
    static let eight = EngineFixtures.repository.appendingPathComponent("Benchmarks/packs/eight").path
    static let bigLights = EngineFixtures.repository.appendingPathComponent("Benchmarks/packs/lights").path

    /// A recipe for the same game on every worker.
    private func recipe(_ pack: String, _ options: [String: StateValue] = [:]) -> @Sendable () throws(RulebenchError) -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        return { [configuration] () throws(RulebenchError) in try Game(pack: pack, options: options, seed: 1, configuration: configuration) }
    }

    /// One search with `workers` workers (1: `Solver` itself).
    private func solve(_ makeGame: @escaping @Sendable () throws(RulebenchError) -> Game, workers: Int, _ options: Solver.Options,
                       shouldStop: @escaping () -> Bool = { false }) throws -> Solver.Result {
        let solver = Solver(game: try makeGame(), options: options)
        if workers == 1 { return try solver.run(shouldStop: shouldStop) }
        return try ParallelSolver(solver: solver, pool: WorkerPool(workers: workers), makeGame: makeGame).run(shouldStop: shouldStop)
    }

    private func options(_ goal: String, maxDepth: Int = 20, maxStates: Int = 100_000, estimate: Bool = true) -> Solver.Options {
        var options = Solver.Options(goal: goal)
        options.maxDepth = maxDepth
        options.maxStates = maxStates
        options.usesEstimate = estimate
        return options
    }

    private func assertSame(_ one: Solver.Result, _ two: Solver.Result, _ label: String) {
        XCTAssertEqual(two.outcome, one.outcome, label)
        let (a, b) = (one.statistics, two.statistics)
        XCTAssertEqual(b.search, a.search, label)
        XCTAssertEqual([b.nodes, b.distinctStates, b.performs, b.transpositions, b.pruned, b.depth, b.finishedDepth],
                       [a.nodes, a.distinctStates, a.performs, a.transpositions, a.pruned, a.depth, a.finishedDepth], label)
    }

    func testTwoWorkersSolveProveAndCountAsOne() throws {
        let river = SolverTests.river, lights = SolverTests.lights
        let cases: [(String, [String: StateValue], Solver.Options)] = [
            (lights, [:], options("dark")),                                              // solved in 5
            (lights, [:], options("dark", maxDepth: 3)),                                 // not within 3
            (lights, [:], options("dark", maxStates: 20)),                               // the bound
            (river, [:], options("crossed")),                                            // solved in 11
            (river, ["missionaries": .int(4)], options("crossed")),                      // unreachable
            (Self.bigLights, [:], options("dark")),                                      // solved in 4
            (Self.eight, ["tiles": .string("123/456/7_8")], options("solved", estimate: false)),
            (Self.bigLights, ["pressed": .table([.int(1): .int(3), .int(2): .int(11), .int(3): .int(17)])], options("dark")),  // solved in 3
            (SolverSearchTests.counter, [:], options("pruned")),                               // dead ends
            (SolverSearchTests.counter, ["target": .int(101)], options("reach")),              // unreachable
        ]
        for (pack, packOptions, options) in cases {
            let makeGame = recipe(pack, packOptions)
            let one = try solve(makeGame, workers: 1, options)
            for workers in [2, 3, 4] {
                assertSame(one, try solve(makeGame, workers: workers, options), "\(pack) \(packOptions) \(options.goal) on \(workers)")
            }
        }
    }

    func testTheOutcomesCoverEveryKind() throws {
        // The cases above must not all end alike: a check of the check.
        let lights = recipe(SolverTests.lights)
        XCTAssertEqual(try solve(lights, workers: 2, options("dark", maxDepth: 3)).outcome, .notWithin(3))
        XCTAssertEqual(try solve(lights, workers: 2, options("dark", maxStates: 20)).outcome, .boundReached(depth: 2))
        XCTAssertEqual(try solve(recipe(SolverTests.river, ["missionaries": .int(4)]), workers: 2, options("crossed")).outcome, .unreachable)
        guard case .solved(let line) = try solve(lights, workers: 2, options("dark")).outcome else { return XCTFail("not solved") }
        XCTAssertEqual(line.count, 5)
    }

    func testEveryStateIsKeptOnceWhateverWorkerReachesIt() throws {
        // Presses commute and undo themselves, so the states within 3
        // presses of the start are its subsets of at most 3 of the 25
        // lights, each kept once however many workers reach it, and every
        // other move of a state expanded (those within 2) is a transposition.
        let makeGame = recipe(Self.bigLights)
        func choose(_ k: Int) -> Int { (0..<k).reduce(1) { $0 * (25 - $1) / ($1 + 1) } }
        let kept = (0...3).map(choose).reduce(0, +), expanded = (0...2).map(choose).reduce(0, +)
        for workers in [1, 2, 3] {
            let result = try solve(makeGame, workers: workers, options("dark", maxDepth: 3))
            XCTAssertEqual(result.outcome, .notWithin(3), "\(workers) workers")
            let s = result.statistics
            XCTAssertEqual([s.distinctStates, s.nodes, s.performs, s.transpositions],
                           [kept, expanded, 25 * expanded, 25 * expanded - (kept - 1)], "\(workers) workers")
        }
    }

    func testAWorkerSendsAStateItMetAsSeenUnlessToldToForget() throws {
        // Expanding a child of the start meets the start again (a light
        // pressed twice): the worker met it (it was handed the start), so it
        // comes back as seen, without its copy; a worker told to forget
        // (states handed out of the search's order) asks it as new.
        let kernel = try recipe(SolverTests.lights)().kernel
        _ = try kernel.solveBegin(goal: "dark", bound: 1000, table: true, maxDepth: 20, how: "breadth")
        defer { kernel.solveEnd() }
        let start = try kernel.solveStart().state
        guard case .children(let first) = kernel.solveChildren(of: [start], depth: 0), let child = first.first?.first else {
            return XCTFail("the start has no children")
        }
        XCTAssertEqual(child.kind, .open)
        func back(_ outOfOrder: Bool) -> Kernel.SolveChild? {
            guard case .children(let all) = kernel.solveChildren(of: [child.state], depth: 1, outOfOrder: outOfOrder) else { return nil }
            return all.first?.first { $0.state.key == start.key }
        }
        let seen = try XCTUnwrap(back(false))
        XCTAssertEqual(seen.kind, .seen)
        XCTAssertEqual(seen.state.snapshot, [])
        let forgotten = try XCTUnwrap(back(true))
        XCTAssertEqual(forgotten.kind, .open)
        XCTAssertEqual(forgotten.state.snapshot, start.snapshot)
    }

    func testTheWorkersEachReportTheirTime() throws {
        let result = try solve(recipe(Self.bigLights), workers: 3, options("dark"))
        XCTAssertEqual(result.statistics.workerSeconds.count, 3)
        XCTAssertGreaterThan(result.statistics.workerSeconds.reduce(0, +), 0)
        XCTAssertEqual(try solve(recipe(Self.bigLights), workers: 1, options("dark")).statistics.workerSeconds, [])
    }

    func testAnUndoBugIsTheOneOneWorkerMeets() throws {
        let makeGame = recipe(SolverTests.lights, ["bug": .string("undo")])
        var failures: [ExplorationFailure] = []
        for workers in [1, 2] {
            let game = try makeGame()
            let before = try game.liveStateHash()
            XCTAssertThrowsError(try ParallelSolver(solver: Solver(game: game, options: options("dark")), pool: WorkerPool(workers: workers),
                                                    makeGame: makeGame).run()) { error in
                guard let failure = error as? ExplorationFailure, case .undoMismatch = failure.error else { return XCTFail("\(error)") }
                failures.append(failure)
            }
            XCTAssertEqual(try game.liveStateHash(), before)
        }
        XCTAssertEqual(failures.count, 2)
        XCTAssertEqual(failures.last?.path, failures.first?.path)
        XCTAssertEqual(failures.last?.path.last, ActionCall("press", ["n": .int(5)]))
    }

    func testAnUndoBugDeeperIsTheOneOneWorkerMeets() throws {
        // Two presses deep, where the batches hold several states: the
        // states before the failing one in its batch are merged first.
        let makeGame = recipe(SolverTests.lights, ["bug": .string("late")])
        func failure(_ workers: Int) -> ExplorationFailure? {
            do { _ = try solve(makeGame, workers: workers, options("dark")) } catch { return error as? ExplorationFailure }
            return nil
        }
        let one = try XCTUnwrap(failure(1))
        XCTAssertEqual(one.path.count, 3, "\(one)")
        for workers in [2, 3] {
            XCTAssertEqual(failure(workers)?.path, one.path, "\(workers) workers")
        }
    }

    func testAGoalThatFailsIsReportedWithTheLineOneWorkerReports() throws {
        // `flaky` fails the first time it is asked where light 5 is off: after press 2 from all on.
        let makeGame = recipe(SolverTests.lights, ["flaky": .bool(true)])
        for workers in [1, 2] {
            XCTAssertThrowsError(try solve(makeGame, workers: workers, options("flaky"))) { error in
                guard let failure = error as? ExplorationFailure, case .script(let script) = failure.error else { return XCTFail("\(error)") }
                XCTAssertEqual(failure.path, [ActionCall("press", ["n": .int(2)])], "\(workers) workers")
                XCTAssertTrue(script.message.contains("flaky fails once"), script.message)
            }
        }
    }

    func testTheEstimateKeepsOneWorker() throws {
        // A* cannot be split by depth: it runs as one worker runs it.
        let makeGame = recipe(Self.eight, ["tiles": .string("867/254/3_1")])
        let options = options("solved", maxDepth: 40)
        let two = try solve(makeGame, workers: 2, options)
        XCTAssertEqual(two.statistics.search, .bestFirst)
        assertSame(try solve(makeGame, workers: 1, options), two, "A*")
    }

    func testStoppingEndsTheSearchAsInterrupted() throws {
        var polls = 0
        let result = try solve(recipe(SolverTests.river, ["missionaries": .int(4)]), workers: 2, options("crossed")) {
            polls += 1
            return polls > 3
        }
        XCTAssertEqual(result.outcome, .interrupted)
        XCTAssertGreaterThan(result.statistics.nodes, 0)
    }

    func testTheCommandsReportIsTheSameWithTwoJobs() throws {
        func report(_ jobs: String, _ more: [String]) throws -> String {
            let result = try RulebenchCommand.run(["solve", Self.bigLights, "--goal", "dark", "--jobs", jobs] + more, in: EngineFixtures.repository)
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout.replacing(/"seconds" *: *[0-9.e+-]+/, with: "\"seconds\":0")
                .replacing(/"statesPerSecond" *: *[0-9.e+-]+/, with: "\"statesPerSecond\":0")
                .replacing(/in [0-9.]+ s \([0-9]+ states\/s\)/, with: "in (time)")
        }
        for more in [["--json"], []] {
            let one = try report("1", more)
            XCTAssertTrue(one.contains("press"), one)
            XCTAssertEqual(try report("2", more), one)
        }
    }
}
