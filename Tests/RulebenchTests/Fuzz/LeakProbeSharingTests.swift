import XCTest
@testable import Rulebench

/// The no-leak probes of one state share its side as it is (seats.lua's
/// probeshare: the marks, the legal calls, the scene and the step's run are
/// read once for every seat, and the next step's legal calls are the ones
/// the probes listed). Coverage turns the sharing off (a second run of the
/// same rule code counts its lines there), and uniform search chooses the
/// same steps either way: so a session with coverage and one without must
/// play the same runs and steps and find the same things, planted leaks
/// included, with the same seat, what was shown and the same line.
final class LeakProbeSharingTests: XCTestCase {
    private static let leaks = TestPaths.fixtures.appendingPathComponent("leaks")

    private struct Session: Equatable {
        var runs: Int
        var steps: Int
        var programs: [String]
        var findings: [String]
    }

    private func session(_ pack: String, coverage: Bool) -> Session {
        var options = Fuzzer.Options(pack: pack)
        options.seed = 1
        options.runs = 6
        options.depth = 12
        options.search = .uniform
        options.coverage = coverage
        options.configuration = PlantedBugTests.configuration
        options.configuration.checksLeaks = true
        var programs: [String] = []
        let (reports, progress) = Fuzzer(options: options).run(played: { programs.append("\($0.index): \($0.program.steps)") })
        let findings = reports.map { report in
            let finding = report.finding
            return "\(finding.property) step \(report.stepsToDetection): \(finding.message) \(report.original.steps)"
        }
        return Session(runs: progress.runs, steps: progress.steps, programs: programs, findings: findings)
    }

    func testSharedProbesFindWhatUnsharedProbesFindAtTheSameSteps() throws {
        for name in ["top-card-view", "plan-names-card", "offered-call", "hidden-write", "base"] {
            let pack = Self.leaks.appendingPathComponent(name).path
            let shared = session(pack, coverage: false)
            let alone = session(pack, coverage: true)
            XCTAssertGreaterThan(shared.steps, 0, name)
            XCTAssertEqual(shared, alone, name)
            if name != "base" {
                XCTAssertTrue(shared.findings.contains { $0.hasPrefix("seatSeesOnly") }, "\(name): \(shared.findings)")
            } else {
                XCTAssertTrue(shared.findings.isEmpty, "base: \(shared.findings)")
            }
        }
    }
}
