import XCTest
@testable import Rulebench
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `rulebench timeline`: the animation of one scenario step, as text and SVG.
final class TimelineCommandTests: XCTestCase {
    func testStepAnimationOfADash() throws {
        let url = EngineFixtures.repository.appendingPathComponent("scenarios/template/dash.yaml")
        let scenario = try ScenarioParser.parse(contentsOf: url, displayPath: nil)
        let dash = scenario.steps.first { if case .perform("dash", _) = $0.operation { return true }; return false }
        let result = try StepAnimation.of(scenario, directory: url.deletingLastPathComponent(), step: dash?.number)
        let timeline = result.timeline
        XCTAssertEqual(timeline.soundNames.first, "whoosh")
        XCTAssertEqual(timeline.duration, 0.7, accuracy: 1e-9, "its own 0.2 s of frames, then two 0.25 s steps in sequence")
        XCTAssertEqual(timeline.conflicts.count, 0)
    }

    func testCommandWritesTextAndWellFormedSVG() throws {
        let svg = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-\(UUID().uuidString).svg")
        defer { try? FileManager.default.removeItem(at: svg) }
        let result = try RulebenchCommand.run(["timeline", "scenarios/template/dash.yaml", "--svg", svg.path], in: EngineFixtures.repository)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.stdout.contains("token:p"), result.stdout)
        let data = try Data(contentsOf: svg)
        XCTAssertTrue(XMLParser(data: data).parse(), "the SVG is not well-formed XML")
    }

    func testMissingStepIsBadInput() throws {
        let result = try RulebenchCommand.run(["timeline", "scenarios/template/dash.yaml", "--step", "99"], in: EngineFixtures.repository)
        XCTAssertEqual(result.status, 2, result.output)
        XCTAssertTrue(result.stderr.contains("no step 99"), result.stderr)
    }
}
