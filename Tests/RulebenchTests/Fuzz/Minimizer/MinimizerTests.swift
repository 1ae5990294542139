import XCTest
@testable import Rulebench

/// The minimizer's contract with its passes (`Minimizer.passes`): they run
/// in the order registered, each on what the one before it kept, and a
/// pass's result is kept only when it is no less simple by the one order
/// (`Shrinker.isSimpler`). On the `detour` fixture pack (a token walked to
/// `finish`, whose undo is broken).
final class MinimizerTests: XCTestCase {
    private let walk = FuzzStep.perform(ActionCall("walk", [:]))
    private let finish = FuzzStep.perform(ActionCall("finish", [:]))

    /// A pass that appends a step to the reproduction (a longer one), and
    /// says which reproduction lengths it was given.
    private struct Lengthening: MinimizerPass {
        let phase = ", lengthening"
        let seen: @Sendable (Int) -> Void
        func applies(to report: Minimization, in work: Minimizer.Work) -> Bool { true }
        func minimize(_ report: Minimization, in work: Minimizer.Work, by minimizer: Minimizer) -> Minimization {
            seen(report.shrunk.steps.count)
            var longer = report
            longer.shrunk.steps.append(.undo(1))
            return longer
        }
    }

    private final class Lengths: @unchecked Sendable {
        var values: [Int] = []
    }

    private func found() throws -> (Fuzzer, FuzzProgram, FuzzFinding) {
        var options = Fuzzer.Options(pack: ShorterEndingTests.detour)
        options.configuration = PlantedBugTests.configuration
        let fuzzer = Fuzzer(options: options)
        let program = FuzzProgram(pack: ShorterEndingTests.detour, seed: 0, options: [:], steps: [walk, walk, walk, walk, finish])
        let run = fuzzer.executor.execute(program, checkLegality: true, finalChecks: true)
        return (fuzzer, program, try XCTUnwrap(run.finding, "the test's program does not fail"))
    }

    private let budget = MinimizerBudget(timeLimit: nil, start: 0, begun: 0, clock: { 0 }, shouldStop: { false })

    func testAPassThatLengthensTheReproductionIsNotKept() throws {
        let (fuzzer, program, finding) = try found()
        let lengths = Lengths()
        let passes: [any MinimizerPass] = [ShrinkPass(.first), Lengthening { lengths.values.append($0) },
                                           Lengthening { lengths.values.append($0) }]
        let report = fuzzer.minimizer.minimize(FailingProgram(program: program, finding: finding), budget: budget,
                                               instances: nil, passes: passes, observe: { _, _ in })
        XCTAssertEqual(report.shrunk.steps.count, 5, "\(report.shrunk.steps)")
        XCTAssertEqual(report.shrinkStatus, .minimal)
        // Each pass is given what was kept: the shrink's 5 steps, both times.
        XCTAssertEqual(lengths.values, [5, 5])
    }

    func testAnUntimedMinimizationShrinksThenSearchesEveryLine() throws {
        let (fuzzer, program, finding) = try found()
        var phases: [String] = []
        let report = fuzzer.minimizer.minimize(FailingProgram(program: program, finding: finding), budget: budget,
                                               instances: nil, observe: { _, phase in
                                                   if phases.last != phase { phases.append(phase) }
                                               })
        // Untimed: no search for shorter instances and no finish; the shrink
        // (1-minimal at the walked 5 steps), then the whole-line search,
        // which finds the leaps and proves them shortest, so no ending is sought.
        XCTAssertEqual(phases, ["", ", looking for a shorter line"])
        XCTAssertLessThan(report.shrunk.steps.count, 5, "\(report.shrunk.steps)")
        XCTAssertEqual(report.shrinkStatus, .shortest)
        XCTAssertEqual(report.original, program, "the program it was given")
    }
}
