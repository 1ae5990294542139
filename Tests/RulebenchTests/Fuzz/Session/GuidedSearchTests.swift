import XCTest
@testable import Rulebench

/// The guided search: steps chosen rare kinds first, runs that build on
/// runs that reached new edges of the pack's Lua, swarm runs, and a
/// breadth-first sweep once 5,000 steps are taken.
final class GuidedSearchTests: XCTestCase {
    private func options(_ pack: String) -> Fuzzer.Options {
        var options = Fuzzer.Options(pack: pack)
        options.configuration.printHandler = { _ in }
        options.configuration.rulesDirectory = EngineFixtures.repository.appendingPathComponent("rules")
        options.search = .guided
        return options
    }

    func testNewEdgesAreCountedOnceAcrossRuns() {
        let executor = Fuzzer(options: options("cards")).executor
        let start = FuzzProgram(pack: "cards", seed: 5, options: [:])
        let request = Kernel.RunRequest(program: nil, choiceSeed: 9, depth: 40, rewindAtEnd: true)
        let (program, generated) = executor.play(start, request)
        XCTAssertGreaterThan(generated.newEdges, 10)
        // Played as a program (legal runs before `do` steps only), then again.
        let first = executor.execute(program, checkLegality: true)
        let again = executor.execute(program, checkLegality: true)
        XCTAssertEqual(again.newEdges, 0, "the same program reaches nothing new")
        XCTAssertEqual(again.trace, first.trace)
        XCTAssertEqual(first.trace, generated.trace)
    }

    func testOtherParamsKeepTheAction() throws {
        let executor = Fuzzer(options: options("template")).executor
        let start = FuzzProgram(pack: "template", seed: 1, options: [:])
        // "Same action, other params": the step becomes a legal call of that action.
        var other = Kernel.RunRequest(program: [.perform(ActionCall("step", ["token": "p1"]))], choiceSeed: 4, depth: 1, rewindAtEnd: true)
        other.anyLegalCall = (0, "step")
        let (played, outcome) = executor.play(start, other)
        XCTAssertTrue(outcome.valid)
        guard case .perform(let call)? = played.steps.first else { return XCTFail("\(played.steps)") }
        XCTAssertEqual(call.name, "step")
    }

    func testEveryKindOfRunIsChosenAndBuildsOnKeptPrograms() {
        var search = GuidedSearch(seed: 7, depth: 30)
        var kept = FuzzProgram(pack: "template", seed: 42, options: [:])
        kept.steps = (0..<10).map { _ in .perform(ActionCall("step", ["token": "p1"])) }
        var result = FuzzExecutor.Result()
        result.newEdges = 3
        result.novelSteps = [4]
        search.observe(kept, result)
        XCTAssertEqual(search.corpus.first?.frontier, [4])
        // A new frontier is probed: before its step, then after it, by the
        // first probe runs.
        XCTAssertEqual(search.pending.map(\.cut), [4, 5])
        XCTAssertEqual(search.corpus.count, 1)
        var kinds = Set<GuidedSearch.Kind>()
        var probes: [Int] = []
        var fresh = (runs: 0, covered: 0)
        for index in 0..<300 {
            let start = FuzzProgram(pack: "template", seed: Int64(index), options: [:])
            let run = search.next(newGame: start, choiceSeed: UInt64(index))
            kinds.insert(run.kind)
            XCTAssertEqual(run.request.favoursRareKinds, run.kind != .probe, "steps are chosen rare kinds first")
            if run.kind == .probe { probes.append(run.request.program?.count ?? 0) }
            switch run.kind {
            case .fresh, .swarm:
                XCTAssertEqual(run.start.seed, Int64(index))
                XCTAssertNil(run.request.program)
                XCTAssertEqual(run.request.leavesOutKinds, run.kind == .swarm)
                if run.kind == .fresh {
                    fresh.runs += 1
                    if run.request.collectsCoverage == true { fresh.covered += 1 }
                } else {
                    XCTAssertEqual(run.request.collectsCoverage, false, "swarm runs go without the line hook")
                }
            case .extend, .otherParams, .splice, .probe:
                XCTAssertEqual(run.start.seed, 42, "built on the kept game")
                XCTAssertTrue(run.request.checkLegality)
                if run.kind == .probe {
                    XCTAssertEqual(run.request.depth, run.request.program?.count, "a probe plays the start only")
                    XCTAssertFalse(run.request.rewindAtEnd)
                }
                let program = run.request.program ?? []
                XCTAssertFalse(program.isEmpty)
                XCTAssertLessThanOrEqual(program.count, 30)
                if run.kind != .splice {
                    XCTAssertEqual(Array(kept.steps.prefix(program.count)), program, "a kept program's start")
                }
            }
        }
        XCTAssertEqual(kinds, Set(GuidedSearch.Kind.allCases))
        XCTAssertEqual(Array(probes.prefix(2)), [4, 5])
        XCTAssertTrue(search.pending.isEmpty)
        // Coverage slows rule code: one fresh run in eight collects it.
        XCTAssertEqual(fresh.covered, (fresh.runs + 7) / 8)
        // A run that found nothing new, or was not a playable game, is not kept.
        result.newEdges = 0
        search.observe(kept, result)
        result.newEdges = 5
        result.valid = false
        search.observe(kept, result)
        XCTAssertEqual(search.corpus.count, 1)
    }

    func testTheSweepFindsABugTwoMovesDeep() throws {
        var options = options(ExplorerTests.walk)
        options.setupOptions = ["bug": "undo"]
        let fuzzer = Fuzzer(options: options)
        let (program, result, nodes) = try XCTUnwrap(fuzzer.sweep(seed: 1))
        XCTAssertEqual(result.finding?.property, .undoRestores)
        XCTAssertLessThanOrEqual(nodes, 3 + 9 + 27)
        XCTAssertTrue(program.steps.count >= 2)
        // A session of long runs sweeps after its first 5,000 steps; the
        // runs before it may find the bug first: either way it is reported, shrunk.
        options.runs = 60
        options.depth = 100
        let reports = Fuzzer(options: options).run().reports
        XCTAssertEqual(reports.first?.finding.property, .undoRestores)
        XCTAssertLessThanOrEqual(reports.first?.shrunk.steps.count ?? 99, 3)
    }

    func testAGuidedSessionRunsTheSameWayTwice() {
        var options = options("cards")
        options.runs = 20
        options.depth = 40
        var runs: [[[FuzzStep]]] = [[], []]
        let first = Fuzzer(options: options).run(played: { runs[0].append($0.program.steps) }).progress
        let second = Fuzzer(options: options).run(played: { runs[1].append($0.program.steps) }).progress
        XCTAssertEqual(first.steps, second.steps)
        XCTAssertEqual(runs[0], runs[1], "the same runs, step for step")
        XCTAssertEqual(first.runs, 20)
    }

    /// A call's kind names its file without the folders above it: the same
    /// session plays the same runs wherever the pack lies (chunks are named
    /// by their path from the working directory).
    func testAGuidedSessionIsTheSameWhereverThePackIs() throws {
        let source = EngineFixtures.repository.appendingPathComponent("Benchmarks/packs/chess")
        var played: [[[FuzzStep]]] = []
        for place in ["here", "somewhere-else"] {
            let copy = try scratchFolder(place).appendingPathComponent(place == "here" ? "chess" : "my-chess")
            try FileManager.default.copyItem(at: source, to: copy)
            var options = options(copy.path)
            options.runs = 30
            options.depth = 30
            var runs: [[FuzzStep]] = []
            _ = Fuzzer(options: options).run(played: { runs.append($0.program.steps) })
            played.append(runs)
        }
        XCTAssertEqual(played[0].count, 30)
        XCTAssertEqual(played[0], played[1])
    }

    /// A probe walks every line two moves deep from a kept program's
    /// frontier: a rare two-move line there is found in one run.
    func testAProbeFindsWhatIsTwoMovesFromTheFrontier() throws {
        var options = options(ExplorerTests.walk)
        options.setupOptions = ["bug": "undo"]
        options.runs = 0
        let fuzzer = Fuzzer(options: options)
        let start = FuzzProgram(pack: ExplorerTests.walk, seed: 1, options: options.setupOptions,
                                steps: [.perform(ActionCall("mark", ["n": 1]))])
        var request = Kernel.RunRequest(program: start.steps, choiceSeed: 1, depth: 1, checkLegality: true)
        request.rewindAtEnd = false
        let run = GuidedSearch.Run(start: start, request: request, kind: .probe)
        let (program, result, nodes) = fuzzer.probe(run)
        XCTAssertEqual(result.finding?.property, .undoRestores, "\(program.steps)")
        XCTAssertGreaterThan(nodes, 0)
        XCTAssertEqual(program.steps.first, .perform(ActionCall("mark", ["n": 1])))
    }
}
