import XCTest
@testable import Rulebench

/// The fuzz session's budget and reporting: time as the budget, the first
/// finding ends a session unless `keepGoing`, one report per bug, and
/// progress paced for logs.
final class FuzzBudgetTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-fuzz-budget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    private var template: String { EngineFixtures.repository.appendingPathComponent("rules/template").path }

    private func options(_ pack: String, depth: Int = 20) -> Fuzzer.Options {
        var options = Fuzzer.Options(pack: pack)
        options.depth = depth
        options.configuration.printHandler = { _ in }
        return options
    }

    /// A clock the test moves: one second per run.
    private final class FakeClock: @unchecked Sendable {
        var now = 1000.0
    }

    // MARK: Time is the budget

    func testTheRunCountFollowsTheBudget() {
        var options = options(template)
        XCTAssertEqual(options.runLimit, Fuzzer.Options.defaultRuns, "neither runs nor time: the default count")
        options.timeLimit = 60
        XCTAssertNil(options.runLimit, "time alone: runs until the time is spent")
        options.runs = 7
        XCTAssertEqual(options.runLimit, 7, "time and runs: whichever comes first")
    }

    func testATimedSessionRunsUntilTheTimeIsSpent() {
        // 150 seconds of fake time at one second per run: runs until the
        // session's last share (the hand-off's second and a tenth kept for
        // shrinking, 134 s), more than the default count, none after.
        var options = options(template, depth: 5)
        options.timeLimit = 150
        let clock = FakeClock()
        let (reports, progress) = Fuzzer(options: options).run(clock: { clock.now }, progress: { _ in clock.now += 1 })
        XCTAssertEqual(reports.map(\.finding.description), [])
        XCTAssertEqual(Fuzzer.fuzzingSeconds(of: 150), 150 - 1 - 15)
        XCTAssertEqual(progress.runs, 134)
        XCTAssertGreaterThan(progress.runs, Fuzzer.Options.defaultRuns)
        XCTAssertEqual(progress.elapsed, 134)
    }

    /// A finding made at the end of the fuzzing has the reserved share for
    /// its first shrink, all of what is left; an early one gets a third
    /// (the search for shorter instances and the finish take the rest).
    func testALateFindingGetsTheReserveForItsShrink() {
        XCTAssertEqual(MinimizerBudget.shrinkReserve(of: 20), 2)
        XCTAssertEqual(MinimizerBudget.firstShrinkSeconds(left: 2, of: 20), 2, "found as the fuzzing stopped: all that is left")
        XCTAssertEqual(MinimizerBudget.firstShrinkSeconds(left: 1.5, of: 20), 1.5, "never past the hand-off's end")
        XCTAssertEqual(MinimizerBudget.firstShrinkSeconds(left: 18, of: 20), 6, "found early: a third")
        XCTAssertEqual(MinimizerBudget.shrinkReserve(of: 36_000), Fuzzer.Options.defaultShrinkSeconds, "no more than an untimed shrink")
    }

    /// A first shrink cut short by time keeps half of what is left for its
    /// finish: the search for shorter instances, which may find none, ends
    /// halfway (a 16-step line was reported unfinished after 10 s of runs
    /// that found nothing). A shrink that ran whole leaves the search its share.
    func testAShrinkCutShortKeepsHalfOfWhatIsLeftForItsFinish() {
        XCTAssertEqual(MinimizerBudget.instanceSearchEnd(now: 9, end: 19, of: 20, shrinkCutShort: true), 14, "halfway to the end")
        XCTAssertEqual(MinimizerBudget.instanceSearchEnd(now: 9, end: 19, of: 20, shrinkCutShort: false), 19, "all that is left")
        XCTAssertEqual(MinimizerBudget.instanceSearchEnd(now: 1, end: 19, of: 20, shrinkCutShort: false), 11, "at most half the limit")
        XCTAssertEqual(MinimizerBudget.instanceSearchEnd(now: 1, end: 19, of: 20, shrinkCutShort: true), 10, "halfway, within half the limit")
    }

    func testRunsEndATimedSessionFirstWhenGiven() {
        var options = options(template, depth: 5)
        options.timeLimit = 150
        options.runs = 7
        let clock = FakeClock()
        let progress = Fuzzer(options: options).run(clock: { clock.now }, progress: { _ in clock.now += 1 }).progress
        XCTAssertEqual(progress.runs, 7)
    }

    func testFuzzWithTimeAndNoRunsSpendsTheTime() throws {
        // The real thing, piped as in CI: two seconds of the template pack
        // are spent fuzzing, not stopped at the default 100 runs, and the
        // piped progress is paced (a line every few seconds, none per run).
        let started = Date()
        // Short uniform runs, so that even a sanitizer build makes far more
        // than 100 of them in two seconds.
        let result = try RulebenchCommand.run(["fuzz", template, "--time", "2", "--search", "uniform", "--depth", "10",
                                              "--corpus", scratch.appendingPathComponent("c").path,
                                              "--out", scratch.appendingPathComponent("o").path], in: scratch)
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(result.status, 0, result.output)
        // Runs go on until the session's last share, kept for a finding's shrink and report.
        XCTAssertGreaterThanOrEqual(seconds, Fuzzer.fuzzingSeconds(of: 2), result.output)
        let summary = try XCTUnwrap(result.stdout.split(separator: "\n").last { $0.contains(" runs, ") }, result.stdout)
        // No run count caps it: it fuzzed for its whole share of the time,
        // as the summary says ("… in 1.3 s of fuzzing"), however fast the
        // machine (100 runs of depth 10 take a fraction of it, so a session
        // stopped by the default 100 runs would say less).
        let fuzzed = try XCTUnwrap(summary.firstRange(of: /in ([0-9.]+) s of fuzzing/).flatMap {
            Double(summary[$0].dropFirst(3).prefix { $0 != " " })
        }, String(summary))
        XCTAssertGreaterThanOrEqual(fuzzed, (Fuzzer.fuzzingSeconds(of: 2) * 10).rounded(.down) / 10, String(summary))
        let progressLines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("fuzz ") }
        XCTAssertLessThanOrEqual(progressLines.count, 1, result.stderr)
    }

    func testABadTimeIsRefusedWithWhatToDo() throws {
        let result = try RulebenchCommand.run(["fuzz", "template", "--time", "0"], in: EngineFixtures.repository)
        XCTAssertEqual(result.status, 2, result.output)
        XCTAssertTrue(result.stderr.contains("--time expects a positive number of seconds"), result.stderr)
    }

    // MARK: The first finding, or every distinct one

    /// A copy of the template pack with two bugs: step's undo forgets the
    /// move counter (an undo finding), and dash plays its steps at once (an
    /// animation finding).
    private func twoBugPack() throws -> String {
        let copy = scratch.appendingPathComponent("twobugs")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: template), to: copy)
        for (file, original, mutated) in [("actions/step.lua", "    game.moves = game.moves - 1\n", "\n"),
                                          ("actions/dash.lua", "subanimations = \"sequence\"", "subanimations = \"parallel\"")] {
            let url = copy.appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
            XCTAssertTrue(text.contains(original), "\(file) changed: the test's mutation no longer applies")
            try text.replacingOccurrences(of: original, with: mutated).write(to: url, atomically: true, encoding: .utf8)
        }
        return copy.path
    }

    func testTheSessionStopsAtTheFirstFinding() throws {
        var options = options(try twoBugPack())
        options.runs = 200
        let (reports, progress) = Fuzzer(options: options).run()
        XCTAssertEqual(reports.count, 1, "\(reports.map(\.finding.description))")
        XCTAssertLessThan(progress.runs, 200, "the session went on after its finding")
    }

    func testKeepGoingReportsEachBugOnce() throws {
        var options = options(try twoBugPack())
        options.runs = 60
        options.keepGoing = true
        let (reports, progress) = Fuzzer(options: options).run()
        XCTAssertEqual(Set(reports.map(\.finding.property)), [.undoRestores, .animationIsSound], "\(reports.map(\.finding.description))")
        XCTAssertEqual(Set(reports.map(\.key)).count, reports.count, "a bug reported twice")
        XCTAssertGreaterThan(progress.duplicates, 0, "sixty runs find the same bugs again; they are counted, not reported")
        XCTAssertEqual(progress.runs, 60)
    }

    /// Each report reaches `found` when its shrinking ends, before the
    /// session goes on: what a signal stops later is already written.
    func testEachFindingIsHandedOverAsSoonAsItIsShrunk() throws {
        var options = options(try twoBugPack())
        options.runs = 60
        options.keepGoing = true
        var handed: [FindingKey] = []
        var runsWhenHanded: [Int] = []
        var runs = 0
        let (reports, _) = Fuzzer(options: options).run(found: { report in
            handed.append(report.key)
            runsWhenHanded.append(runs)
        }, progress: { state in runs = state.runs })
        XCTAssertEqual(handed, reports.map(\.key))
        XCTAssertGreaterThanOrEqual(reports.count, 2)
        XCTAssertLessThan(runsWhenHanded.first ?? 60, 59, "the first finding waited for the end of the session")
    }

    func testKnownBugsAreNotReportedAgain() throws {
        // A corpus replay reported one bug: the session looks for another.
        let pack = try twoBugPack()
        var first = options(pack)
        first.runs = 60
        let found = try XCTUnwrap(Fuzzer(options: first).run().reports.first)
        let reports = Fuzzer(options: first).run(known: [found.key]).reports
        XCTAssertEqual(reports.count, 1)
        XCTAssertNotEqual(reports.first?.key, found.key)
    }

    // MARK: The deduplication key

    private func finding(_ property: FuzzFinding.Property, blame: String?, step: Int = 3, message: String = "m") -> FuzzFinding {
        FuzzFinding(property: property, stepIndex: step, message: message, differences: [], blame: blame)
    }

    func testTheKeyIsPropertyActionAndLine() {
        let undo = FindingKey(finding(.undoRestores, blame: "jetpack > move (undo at rules/desert/actions/move.lua:31)"))
        XCTAssertEqual(undo, FindingKey(property: .undoRestores, action: "jetpack > move", location: "rules/desert/actions/move.lua:31"))
        let error = FindingKey(finding(.legalIsAllowed, blame: "play at actions/play.lua:12"))
        XCTAssertEqual(error, FindingKey(property: .legalIsAllowed, action: "play", location: "actions/play.lua:12"))
        let invariant = FindingKey(finding(.invariantsHold, blame: "invariant scores_add_up at pack.lua:40"))
        XCTAssertEqual(invariant, FindingKey(property: .invariantsHold, action: "invariant scores_add_up", location: "pack.lua:40"))
        let nowhere = FindingKey(finding(.legalIsAllowed, blame: " at pack.lua:3"))
        XCTAssertEqual(nowhere, FindingKey(property: .legalIsAllowed, action: nil, location: "pack.lua:3"))
        let redo = FindingKey(finding(.redoReproduces, blame: "draw"))
        XCTAssertEqual(redo, FindingKey(property: .redoReproduces, action: "draw", location: nil))
        // An action named with " at " but no line is an action, not a place.
        XCTAssertEqual(FindingKey(finding(.redoReproduces, blame: "look at me")).action, "look at me")
        XCTAssertEqual(FindingKey(finding(.deterministic, blame: nil)), FindingKey(property: .deterministic, action: nil, location: nil))
    }

    func testFindingsOfOneBugShareAKeyWhateverTheirStepOrMessage() {
        let blame = "draw (undo at actions/draw.lua:12)"
        let a = finding(.undoRestores, blame: blame, step: 3, message: "undo of draw after 3 steps")
        let b = finding(.undoRestores, blame: blame, step: 40, message: "undo turn")
        XCTAssertEqual(FindingKey(a), FindingKey(b))
        XCTAssertNotEqual(FindingKey(a), FindingKey(finding(.undoRestores, blame: "draw (undo at actions/draw.lua:13)")))
        XCTAssertNotEqual(FindingKey(a), FindingKey(finding(.undoRestores, blame: "deal > draw (undo at actions/draw.lua:12)")),
                          "the action path is part of the key")
        XCTAssertNotEqual(FindingKey(a), FindingKey(finding(.redoReproduces, blame: blame)))
    }

    // MARK: Progress

    func testPipedProgressIsPaced() {
        // A thousand runs over a minute, one every 60 ms: a line every five
        // seconds is twelve lines, not a thousand.
        // (Each line comes at the first run five seconds after the last
        // line, so they drift: eleven of them, at 5.04 s, 10.08 s, ...)
        var pacer = ProgressPacer(interval: 5, start: 0)
        let times = (1...1000).map { Double($0) * 0.06 }.filter { pacer.isDue(at: $0) }
        XCTAssertEqual(times.count, 11, "\(times)")
        XCTAssertTrue(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 5 }, "\(times)")
        var again = ProgressPacer(interval: 5, start: 0)
        XCTAssertEqual([1, 4.9, 5, 6, 9.9, 10.1].map { again.isDue(at: $0) }, [false, false, true, false, false, true])
    }

    func testProgressIsReportedAfterEveryRunWithTheLimits() {
        var options = options(template, depth: 5)
        options.runs = 5
        var seen: [Fuzzer.Progress] = []
        _ = Fuzzer(options: options).run(progress: { seen.append($0) })
        XCTAssertEqual(seen.map(\.runs), [1, 2, 3, 4, 5])
        XCTAssertEqual(seen.last?.runLimit, 5)
        XCTAssertNil(seen.last?.timeLimit)
    }
}
