import XCTest
@testable import Rulebench

/// `explore --jobs N`: the divided walk on two workers counts what one
/// walk counts, and a failing walk reports the failure one walk meets first.
final class ParallelExploreTests: XCTestCase {
    /// A recipe for the same game on every worker.
    private func recipe(_ pack: String, bug: String? = nil) -> @Sendable () throws(RulebenchError) -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        configuration.rulesDirectory = EngineFixtures.repository.appendingPathComponent("rules")
        let options: [String: StateValue] = bug.map { ["bug": .string($0)] } ?? [:]
        return { [configuration] () throws(RulebenchError) in try Game(pack: pack, options: options, seed: 1, configuration: configuration) }
    }

    func testTwoWorkersCountWhatOneWalkCounts() throws {
        let chess = EngineFixtures.repository.appendingPathComponent("Benchmarks/packs/chess").path
        // One worker walks chess (20 first actions) below the first actions, two and six one level lower,
        // below its 400 pairs of first and second actions; the others are cut lower by both.
        for (pack, depth, workers) in [("cards", 5, 2), ("template", 4, 2), (ExplorerTests.walk, 4, 2), (chess, 3, 1), (chess, 3, 2), (chess, 3, 6),
                                       ("template", 2, 3)] {
            let makeGame = recipe(pack)
            let one = try Explorer(game: try makeGame(), depth: depth).runDivided()
            let heard = Heard()
            let two = try Explorer(game: try makeGame(), depth: depth)
                .runDivided(on: WorkerPool(workers: workers), makeGame: makeGame, progress: { done, _, _ in heard.append(done) })
            XCTAssertEqual(two.counts.nodes, one.counts.nodes, pack)
            XCTAssertEqual(one.counts.nodes.count, depth, "\(pack): the walk must reach its depth")
            XCTAssertEqual(two.byFirstAction.map(\.call), one.byFirstAction.map(\.call), pack)
            XCTAssertEqual(two.byFirstAction.map(\.count), one.byFirstAction.map(\.count), pack)
            XCTAssertEqual(heard.values, Array(1...one.byFirstAction.count), "\(pack): progress out of order")
        }
    }

    /// Two workers on chess (20 first actions whose subtrees differ up to
    /// twofold) get its 400 pairs of first and second actions, not the 20
    /// first actions: with 10 each, one worker waited for the other's last
    /// subtree through 5-10% of a depth-5 walk. One worker keeps the 20.
    func testTheWalkIsCutFineEnoughForWorkersToStayBusyToTheEnd() throws {
        let chess = EngineFixtures.repository.appendingPathComponent("Benchmarks/packs/chess").path
        let explorer = Explorer(game: try recipe(chess)(), depth: 5)
        let first = try explorer.game.legalActions()
        let before = try explorer.game.liveStateHash()
        for workers in [2, 4] {
            let paths = explorer.cut(below: first, workers: workers)
            XCTAssertGreaterThanOrEqual(paths.count, Explorer.subtreesPerWorker * workers, "\(workers) workers")
            XCTAssertEqual(paths.count, 400)
            XCTAssertEqual(Set(paths.map(\.count)), [2])
        }
        XCTAssertEqual(explorer.cut(below: first, workers: 1).count, 20)
        XCTAssertEqual(try explorer.game.liveStateHash(), before, "the cut must leave the game where it was")
    }

    func testAFailingWalkReportsTheFailureOneWalkMeetsFirst() throws {
        for bug in ["undo", "error"] {
            for workers in [2, 8] {
                let makeGame = recipe(ExplorerTests.walk, bug: bug)
                var one: ExplorationFailure?, two: ExplorationFailure?
                let (first, second) = (try makeGame(), try makeGame())
                do { _ = try Explorer(game: first, depth: 4).runDivided() } catch { one = error }
                do { _ = try Explorer(game: second, depth: 4).runDivided(on: WorkerPool(workers: workers), makeGame: makeGame) } catch { two = error }
                XCTAssertNotNil(one, bug)
                XCTAssertEqual(two?.description, one?.description, "\(bug), \(workers) workers")
            }
        }
    }

    /// `--unique --jobs N`: each depth's states expanded by the workers and
    /// merged in one walk's order give its counts, sequences and distinct
    /// states, at every depth (every depth past the first is cut below the root).
    func testWorkersCountTheDistinctStatesOneWalkCounts() throws {
        let chess = EngineFixtures.repository.appendingPathComponent("Benchmarks/packs/chess").path
        let lights = EngineFixtures.repository.appendingPathComponent("Benchmarks/packs/lights").path
        var metAgain = false
        for (pack, depth, workers) in [("cards", 5, 2), ("template", 5, 3), (ExplorerTests.walk, 4, 2), (chess, 3, 2), (lights, 3, 2)] {
            let makeGame = recipe(pack)
            let one = try Explorer(game: try makeGame(), depth: depth, distinctBound: 1_000_000).run()
            var heard: [Int] = []
            let two = try Explorer(game: try makeGame(), depth: depth, distinctBound: 1_000_000)
                .runDistinct(on: WorkerPool(workers: workers), makeGame: makeGame, progress: { heard.append($0.nodes.count) })
            XCTAssertEqual(two.nodes, one.nodes, pack)
            XCTAssertEqual(two.distinct, one.distinct, pack)
            XCTAssertEqual(one.nodes.count, depth, "\(pack): the walk must reach its depth")
            metAgain = metAgain || one.distinct != one.nodes
            // A depth at a time, as the workers walk: the one-worker walk it
            // falls back to after a failure reports otherwise.
            XCTAssertEqual(heard, Array(1...depth), pack)
        }
        XCTAssertTrue(metAgain, "some sequences must meet again in a state for the test to count")
    }

    /// The command: `explore --unique --jobs 2` prints the lines of `--jobs 1`.
    func testTheUniqueCommandPrintsWhatOneJobPrints() throws {
        func counts(jobs: String) throws -> [Substring] {
            let result = try RulebenchCommand.run(["explore", "template", "--depth", "5", "--unique", "--jobs", jobs], in: ScenarioFixtures.repository)
            XCTAssertEqual(result.status, 0, result.output)
            return result.stdout.split(separator: "\n").filter { $0.hasPrefix("depth ") }
        }
        let one = try counts(jobs: "1")
        XCTAssertEqual(one.count, 6, "\(one)")   // depth 0 (the start), then 1 to 5
        XCTAssertTrue(one.allSatisfy { $0.contains("distinct)") }, "\(one)")
        XCTAssertEqual(try counts(jobs: "2"), one)
    }

    /// A failing walk of distinct states, or one that reaches its bound,
    /// reports what the one-worker walk reports, with its path.
    func testAFailingDistinctWalkReportsWhatOneWalkReports() throws {
        for (bug, bound) in [("undo", 1_000), ("error", 1_000), ("none", 20)] {
            let makeGame = recipe(ExplorerTests.walk, bug: bug)
            var one: ExplorationFailure?, two: ExplorationFailure?
            let (first, second) = (try makeGame(), try makeGame())
            do { _ = try Explorer(game: first, depth: 4, distinctBound: bound).run() } catch { one = error }
            do {
                _ = try Explorer(game: second, depth: 4, distinctBound: bound).runDistinct(on: WorkerPool(workers: 2), makeGame: makeGame)
            } catch { two = error }
            XCTAssertNotNil(one, bug)
            XCTAssertEqual(two?.description, one?.description, bug)
        }
    }
}
