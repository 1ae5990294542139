import XCTest
@testable import Rulebench

/// `fuzz --jobs N` (`FuzzWorkers`): uniform runs are those of one worker,
/// run for run; a bug that every worker meets is shrunk and reported once;
/// the first finding stops every worker.
final class ParallelFuzzTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-jobs-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    private func options(_ pack: String, search: SearchStrategy, runs: Int) -> Fuzzer.Options {
        var options = Fuzzer.Options(pack: pack)
        options.depth = 30
        options.runs = runs
        options.search = search
        options.configuration.printHandler = { _ in }
        // What is compared is which runs each worker plays and what they
        // reach; the no-leak probes of the seated desert (every seat's view
        // after every step, SeatTests' subject) would triple each step's work.
        options.configuration.checksLeaks = false
        return options
    }

    /// A copy of the template pack whose step undo is off by one: every run that steps and undoes meets it.
    private func planted() throws -> String {
        let pack = scratch.appendingPathComponent("planted")
        try FileManager.default.copyItem(at: EngineFixtures.repository.appendingPathComponent("rules/template"), to: pack)
        let file = pack.appendingPathComponent("actions/step.lua")
        let text = try String(contentsOf: file, encoding: .utf8)
        let original = "game.tokens[a.token].square = a.from\n"
        XCTAssertTrue(text.contains(original))
        try text.replacingOccurrences(of: original, with: "game.tokens[a.token].square = a.from + 1\n")
            .write(to: file, atomically: true, encoding: .utf8)
        return pack.path
    }

    func testUniformRunsOfTwoWorkersAreThoseOfOne() {
        for shard in [(1, 1), (2, 3)] {
            var options = options(EngineFixtures.repository.appendingPathComponent("rules/desert").path, search: .uniform, runs: 24)
            options.shard = shard
            var alone: [Int: FuzzProgram] = [:], together: [Int: FuzzProgram] = [:]
            let one = Fuzzer(options: options).run(played: { alone[$0.index] = $0.program })
            let two = FuzzWorkers(options: options, pool: WorkerPool(workers: 2)).run(played: { together[$0.index] = $0.program })
            XCTAssertTrue(one.reports.isEmpty && two.reports.isEmpty, "the desert pack has no bug")
            XCTAssertEqual(alone.count, shard.1 == 1 ? 24 : 8)
            XCTAssertEqual(together.keys.sorted(), alone.keys.sorted(), "shard \(shard)")
            for (index, program) in alone { XCTAssertEqual(together[index], program, "run \(index)") }
            XCTAssertEqual(two.progress.runs, one.progress.runs)
            XCTAssertEqual(two.progress.steps, one.progress.steps)
        }
    }

    func testTheCoverageOfTwoWorkersIsEveryLineTheirRunsReached() throws {
        var options = options(EngineFixtures.repository.appendingPathComponent("rules/desert").path, search: .uniform, runs: 16)
        options.coverage = true
        let alone = Fuzzer(options: options)
        _ = alone.run()
        let one = try XCTUnwrap(try alone.coverage())
        let two = try XCTUnwrap(FuzzWorkers(options: options, pool: WorkerPool(workers: 2)).run().coverage)
        func reached(_ report: CoverageReport) -> [String: Set<Int>] {
            report.files.mapValues { Set($0.hits.filter { $0.value > 0 }.keys) }
        }
        XCTAssertFalse(reached(one).values.allSatisfy(\.isEmpty))
        XCTAssertEqual(reached(two), reached(one), "the same runs reach the same lines, on one worker or two")
        XCTAssertEqual(two.files.mapValues(\.defined), one.files.mapValues(\.defined))
    }

    func testAPlantedBugFoundByTwoWorkersIsReportedOnce() throws {
        let pack = try planted()
        for search in [SearchStrategy.uniform, .guided] {
            var options = options(pack, search: search, runs: 40)
            options.keepGoing = true
            options.shrinkBudget = 200
            var written: [FindingKey] = []
            let session = FuzzWorkers(options: options, pool: WorkerPool(workers: 2)).run(found: { written.append($0.key) })
            XCTAssertEqual(written.count, 1, "\(search): \(written)")
            XCTAssertEqual(session.reports.map(\.key), written, "\(search)")
            XCTAssertEqual(session.progress.findings, 1)
            XCTAssertGreaterThan(session.progress.duplicates, 0, "\(search): both workers meet the bug, one reports it")
        }
    }

    func testTheFirstFindingStopsEveryWorker() throws {
        var options = options(try planted(), search: .uniform, runs: 400)
        options.shrinkBudget = 200
        var written = 0
        let session = FuzzWorkers(options: options, pool: WorkerPool(workers: 2)).run(found: { _ in written += 1 })
        XCTAssertEqual(written, 1)
        XCTAssertEqual(session.reports.count, 1)
        XCTAssertLessThan(session.progress.runs, 200, "a worker went on through its share of the runs after the first finding")
    }
    /// The one finding of a session that stops at its first is that of the
    /// lowest run to find a bug, as with one worker, however the workers'
    /// runs interleave: a later run's finding waits for the earlier runs.
    func testTheFirstFindingIsTheOneOfOneWorker() throws {
        let pack = try planted()
        for seed in UInt64(1)...4 {
            var options = options(pack, search: .uniform, runs: 400)
            options.seed = seed
            options.depth = 12
            options.shrinkBudget = 200
            let one = Fuzzer(options: options).run()
            let two = FuzzWorkers(options: options, pool: WorkerPool(workers: 2)).run()
            let alone = try XCTUnwrap(one.reports.first, "seed \(seed)")
            let together = try XCTUnwrap(two.reports.first, "seed \(seed)")
            XCTAssertEqual(two.reports.count, 1, "seed \(seed)")
            XCTAssertEqual(together.run, alone.run, "seed \(seed): the first finding's run")
            XCTAssertEqual(together.key, alone.key, "seed \(seed)")
            XCTAssertEqual(together.shrunk, alone.shrunk, "seed \(seed)")
        }
    }
}

/// What the workers of a parallel guided session tell each other
/// (`Discoveries`, through `FuzzWorkerLink`): an edge of the pack's Lua that
/// one worker reached is not new to another, and each hears the others'
/// discoveries once.
final class ParallelGuidedSharingTests: XCTestCase {
    private let desert = EngineFixtures.repository.appendingPathComponent("rules/desert").path

    /// Worker `shard` of 2 of a guided session on `link`.
    private func worker(_ shard: Int, link: FuzzWorkerLink?) -> Fuzzer {
        var options = Fuzzer.Options(pack: desert)
        options.search = .guided
        options.depth = 30
        options.shard = (shard, 2)
        options.link = link
        options.configuration.printHandler = { _ in }
        return Fuzzer(options: options)
    }

    /// One run of game seed 5 with uniform choices from seed 7 (the same
    /// steps on any worker), every line covered, sharing with `link` as `worker`.
    private func play(_ fuzzer: Fuzzer, worker: Int, link: FuzzWorkerLink) -> (FuzzExecutor.Result, judged: FuzzExecutor.Result) {
        var request = Kernel.RunRequest(program: nil, choiceSeed: 7, depth: 30, rewindAtEnd: true)
        request.collectsCoverage = true
        request.share = link.news(for: worker)
        let start = FuzzProgram(pack: desert, seed: 5, options: [:])
        let (program, result) = fuzzer.executor.play(start, request)
        return (result, link.observe(program, result, worker: worker, keeps: false))
    }

    private func link() -> FuzzWorkerLink {
        FuzzWorkerLink(workers: [1, 2], known: [], search: GuidedSearch(seed: 1, depth: 30), keepGoing: false)
    }

    func testAnEdgeOneWorkerReachedIsNotNewToAnother() throws {
        let shared = link()
        let (a, judgedA) = play(worker(1, link: shared), worker: 1, link: shared)
        XCTAssertNil(a.finding)
        XCTAssertGreaterThan(a.newEdges, 0, "the first run of a session reaches new edges")
        XCTAssertEqual(judgedA.newEdges, a.newEdges, "new to the session too")
        let found = try XCTUnwrap(a.found)
        XCTAssertEqual(found.edges.count, a.newEdges, "the kernel lists each new edge")
        let (b, judgedB) = play(worker(2, link: shared), worker: 2, link: shared)
        XCTAssertEqual(b.trace, a.trace, "the same run on both workers")
        XCTAssertEqual(b.newEdges, 0, "worker 2's kernel counted worker 1's edges as new")
        XCTAssertEqual(judgedB.newEdges, 0)
        // The same run on a worker that was told nothing reaches them all again.
        let apart = link()
        let (alone, _) = play(worker(2, link: apart), worker: 2, link: apart)
        XCTAssertEqual(alone.newEdges, a.newEdges)
    }

    /// The guided search's sweep comes after the session's first steps, not
    /// a worker's: two workers with 3,000 steps each have taken 6,000.
    func testTheSweepIsMadeOnceAfterTheSessionsSteps() {
        let shared = link()
        XCTAssertFalse(shared.sweepsNow(worker: 1, steps: 3_000, after: 5_000))
        XCTAssertTrue(shared.sweepsNow(worker: 2, steps: 3_000, after: 5_000), "6,000 steps in the session")
        XCTAssertFalse(shared.sweepsNow(worker: 1, steps: 6_000, after: 5_000), "once per session")
        let second = FuzzWorkerLink(workers: [2, 4], known: [], search: nil, keepGoing: false, shard: (2, 2))
        XCTAssertFalse(second.sweepsNow(worker: 2, steps: 9_000, after: 5_000), "shard 1 sweeps, not shard 2")
    }

    func testAnEdgeTwoWorkersReachAtOnceIsNewOnce() {
        var log = DiscoveryLog(workers: [1, 2])
        XCTAssertEqual(log.tell(Discoveries(edges: [3, 4], earlier: [1]), by: 1), 2)
        XCTAssertEqual(log.tell(Discoveries(edges: [4, 5], earlier: [1, 2]), by: 2), 1, "4 was worker 1's")
        XCTAssertEqual(log.news(for: 1).edges, [2, 5], "worker 2's news, less what worker 1 told first")
        XCTAssertEqual(log.news(for: 1), Discoveries(), "heard once")
        XCTAssertEqual(log.news(for: 2).edges, [1, 3, 4], "never its own")
    }

    func testEachWorkerHearsTheKindsTheOthersPlayed() {
        var log = DiscoveryLog(workers: [1, 2, 3])
        let kinds = [Discoveries.KindPlays(site: 11, plays: 2), .init(site: 12, plays: 1)]
        _ = log.tell(Discoveries(kinds: kinds), by: 1)
        _ = log.tell(Discoveries(kinds: [.init(site: 11, plays: 1)]), by: 2)
        XCTAssertEqual(log.news(for: 3).kinds, kinds + [.init(site: 11, plays: 1)])
        XCTAssertEqual(log.news(for: 2).kinds, kinds)
        log.leave(1)
        XCTAssertEqual(log.news(for: 3).kinds, [], "heard once")
    }

    /// A worker's run says which kinds of move it played, without the
    /// plays the other workers told it.
    func testAWorkerReportsTheKindsItPlayed() throws {
        let shared = link()
        let fuzzer = worker(1, link: shared)
        var request = Kernel.RunRequest(program: nil, choiceSeed: 7, depth: 30, rewindAtEnd: true)
        request.favoursRareKinds = true
        request.share = Discoveries(kinds: [.init(site: 999, plays: 5)])
        let (_, result) = fuzzer.executor.play(FuzzProgram(pack: desert, seed: 5, options: [:]), request)
        let found = try XCTUnwrap(result.found)
        let performed = result.outcomes.filter { if case .performed = $0 { return true } else { return false } }.count
        XCTAssertGreaterThan(found.kinds.count, 1)
        XCTAssertLessThanOrEqual(found.kinds.map(\.plays).reduce(0, +), performed)
        XCTAssertGreaterThan(found.kinds.map(\.plays).reduce(0, +), 0)
        XCTAssertFalse(found.kinds.contains { $0.site == 999 }, "the plays it was told are not its own")
    }
}
