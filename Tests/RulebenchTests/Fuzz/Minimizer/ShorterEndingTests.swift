import XCTest
@testable import Rulebench

/// The search for a shorter ending from each prefix of a reproduction, on
/// the `detour` fixture pack: a token walked four squares to `finish`,
/// whose undo is broken (the end-of-run rewind finds it), where two leaps
/// would do. The walked line is 1-minimal, so the shrinker leaves it as it
/// is; the ending search finds the leaps, within its node budget and the
/// session's time.
final class ShorterEndingTests: XCTestCase {
    static let detour = EngineFixtures.repository.appendingPathComponent("Tests/RulebenchTests/Fixtures/shrink/detour").path

    private let walk = FuzzStep.perform(ActionCall("walk", [:]))
    private let finish = FuzzStep.perform(ActionCall("finish", [:]))
    private func leap(_ to: Int) -> FuzzStep { .perform(ActionCall("leap", ["to": .int(Int64(to))])) }

    private func fuzzer() -> Fuzzer {
        var options = Fuzzer.Options(pack: Self.detour)
        options.configuration = PlantedBugTests.configuration
        return Fuzzer(options: options)
    }

    /// The walked line, shrunk: what the ending search starts from.
    private func shrunkWalk(_ fuzzer: Fuzzer, file: StaticString = #filePath, line: UInt = #line) throws -> Minimization {
        let program = FuzzProgram(pack: Self.detour, seed: 0, options: [:], steps: [walk, walk, walk, walk, finish])
        let run = fuzzer.executor.execute(program, checkLegality: true, finalChecks: true)
        XCTAssertTrue(run.valid, "the test's program is not legal", file: file, line: line)
        let finding = try XCTUnwrap(run.finding, "the test's program does not fail", file: file, line: line)
        XCTAssertEqual(finding.property, .undoRestores, file: file, line: line)
        return fuzzer.minimizer.shrink(program, finding, clock: { 0 })
    }

    /// Whether `report`'s reproduction plays legally from a fresh game and fails as `key` asks.
    private func reproduces(_ report: Minimization, as key: FindingKey, _ fuzzer: Fuzzer) -> Bool {
        let run = fuzzer.executor.execute(report.shrunk, checkLegality: true, finalChecks: true)
        return run.valid && run.finding.map(key.admits) == true
    }

    func testADetourNoEditRemovesGetsAShorterEnding() throws {
        let fuzzer = fuzzer()
        let shrunk = try shrunkWalk(fuzzer)
        // The shrinker alone: 1-minimal at the walked line's 5 steps.
        XCTAssertEqual(shrunk.shrinkStatus, .minimal)
        XCTAssertEqual(shrunk.shrunk.steps.count, 5, "\(shrunk.shrunk.steps)")
        // A search of every line from the setup, 300 nodes at most: `hum`
        // fans it out past its limit before the 3 actions the leaps need.
        let start = FuzzProgram(pack: Self.detour, seed: 0, options: [:])
        guard case .passed(proven: false) = fuzzer.minimizer.deepen(from: start, below: 6, nodeLimit: 300, stop: { false }) else {
            return XCTFail("the whole-line search was expected to run out of its 300 nodes")
        }

        // From the prefix of 2 walks, a leap and the finish are 2 actions: 4 steps.
        var budget = Minimizer.EndingBudget(nodesPerSearch: 300)
        let shorter = fuzzer.minimizer.shortenedEndings(shrunk, budget: &budget, until: nil, clock: { 0 }, shouldStop: { false }, observe: { _ in })
        XCTAssertEqual(shorter.shrunk.steps, [walk, walk, leap(4), finish])
        XCTAssertTrue(reproduces(shorter, as: shrunk.key, fuzzer), "\(shorter.shrunk.steps)")
        XCTAssertNotEqual(shorter.shrinkStatus, .shortest, "only the whole-line search proves a length")
        XCTAssertEqual(shorter.original, shrunk.original)

        // With nodes enough for 3 actions from the setup: the two leaps.
        var more = Minimizer.EndingBudget(nodesPerSearch: 5_000)
        let shortest = fuzzer.minimizer.shortenedEndings(shrunk, budget: &more, until: nil, clock: { 0 }, shouldStop: { false }, observe: { _ in })
        XCTAssertEqual(shortest.shrunk.steps, [leap(2), leap(4), finish])
        XCTAssertTrue(reproduces(shortest, as: shrunk.key, fuzzer), "\(shortest.shrunk.steps)")
        XCTAssertLessThanOrEqual(more.walked, more.nodes)
    }

    /// The search's budget in nodes in all, and the session's time on a
    /// fake clock (a tenth of a second a reading): each stops it with the
    /// reproduction it had, no later than the reading that passed the end.
    func testTheSearchForShorterEndingsStopsWithinItsBudget() throws {
        let fuzzer = fuzzer()
        let shrunk = try shrunkWalk(fuzzer)

        // 100 nodes in all: not enough to reach the prefix the leap starts from.
        var nodes = Minimizer.EndingBudget(nodes: 100)
        let withinNodes = fuzzer.minimizer.shortenedEndings(shrunk, budget: &nodes, until: nil, clock: { 0 }, shouldStop: { false }, observe: { _ in })
        XCTAssertEqual(withinNodes.shrunk.steps, shrunk.shrunk.steps)
        XCTAssertLessThanOrEqual(nodes.walked, nodes.nodes + 10, "one level (10 calls) at most past the budget")
        XCTAssertGreaterThan(nodes.walked, 0)

        // Half a second: five readings of the clock.
        var readings: [Double] = []
        let clock: Fuzzer.Clock = { readings.append(Double(readings.count + 1) / 10); return readings.last! }
        let end = 0.5
        var timed = Minimizer.EndingBudget(stop: { clock() >= end })
        let withinTime = fuzzer.minimizer.shortenedEndings(shrunk, budget: &timed, until: end, clock: clock, shouldStop: { false }, observe: { _ in })
        XCTAssertEqual(withinTime.shrunk.steps, shrunk.shrunk.steps)
        XCTAssertLessThanOrEqual(readings.filter { $0 >= end }.count, 2, "the search went on after its end: \(readings.count) readings")

        // The same search with time to spare finds the shorter ending: the budget is what stopped it.
        var spare = Minimizer.EndingBudget()
        let unbounded = fuzzer.minimizer.shortenedEndings(shrunk, budget: &spare, until: nil, clock: { 0 }, shouldStop: { false }, observe: { _ in })
        XCTAssertLessThan(unbounded.shrunk.steps.count, shrunk.shrunk.steps.count)
    }
}
