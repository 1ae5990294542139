import Foundation
import XCTest
@testable import Rulebench
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The three renderings of a run report.
final class ScenarioReportTests: XCTestCase {
    /// A run with one scenario of each outcome, one with awkward characters.
    private func sampleRun() throws -> RunReport {
        let passing = ScenarioFixtures.runner.run(fileAt: ScenarioFixtures.passing.appendingPathComponent("every-expectation.yaml"),
                                                  displayPath: "passing/every-expectation.yaml")
        var failing = try ScenarioFixtures.run("""
            scenario: "fails <with> & \\"quotes\\" \\x01 'apostrophes'"
            rules: \(ScenarioFixtures.counterRules)
            steps:
              - do: add
                with: { n: 1 }
                expect: { state: { count: 2 }, sounds: ["<bell>"] }
            """)
        failing.file = "inline/fails.yaml"
        let bad = ScenarioFixtures.runner.run(fileAt: ScenarioFixtures.malformed.appendingPathComponent("unknown-step-key.yaml"),
                                              displayPath: "malformed/unknown-step-key.yaml")
        let missing = ScenarioReport.badInput(file: "nowhere", problem: InputProblem("no such file or folder", file: "nowhere"), duration: 0)
        XCTAssertEqual([passing.status, failing.status, bad.status, missing.status], [.passed, .failed, .badInput, .badInput])
        return RunReport(scenarios: [passing, failing, bad, missing], duration: 0.5)
    }

    func testCountsAndExitCodes() throws {
        let run = try sampleRun()
        XCTAssertEqual([run.passedCount, run.failedCount, run.badInputCount], [1, 1, 2])
        XCTAssertEqual(run.exitCode, 2)
        XCTAssertEqual(RunReport(scenarios: Array(run.scenarios.prefix(2)), duration: 0).exitCode, 1)
        XCTAssertEqual(RunReport(scenarios: Array(run.scenarios.prefix(1)), duration: 0).exitCode, 0)
    }

    func testJUnitIsValidXMLWithTheRightCounts() throws {
        let xml = JUnitReport.render(try sampleRun())
        let collector = JUnitCollector()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = collector
        XCTAssertTrue(parser.parse(), "not well-formed: \(parser.parserError.map { "\($0)" } ?? "") in\n\(xml)")

        let root = try XCTUnwrap(collector.elements.first)
        XCTAssertEqual(root.name, "testsuites")
        XCTAssertEqual(root.attributes["tests"], "4")
        XCTAssertEqual(root.attributes["failures"], "1")
        XCTAssertEqual(root.attributes["errors"], "2")

        let suites = collector.elements.filter { $0.name == "testsuite" }
        XCTAssertEqual(suites.map { $0.attributes["name"] }, ["passing", "inline", "malformed", "."])
        XCTAssertEqual(suites.compactMap { Int($0.attributes["tests"] ?? "") }.reduce(0, +), 4)
        XCTAssertEqual(suites.compactMap { Int($0.attributes["failures"] ?? "") }.reduce(0, +), 1)
        XCTAssertEqual(suites.compactMap { Int($0.attributes["errors"] ?? "") }.reduce(0, +), 2)

        let cases = collector.elements.filter { $0.name == "testcase" }
        XCTAssertEqual(cases.count, 4)
        XCTAssertEqual(collector.elements.filter { $0.name == "failure" }.count, 1)
        XCTAssertEqual(collector.elements.filter { $0.name == "error" }.count, 2)
        XCTAssertEqual(cases[1].attributes["name"], "fails <with> & \"quotes\" \u{FFFD} 'apostrophes'", "escaped and read back")
        XCTAssertEqual(cases[1].attributes["file"], "inline/fails.yaml")
        let failure = try XCTUnwrap(collector.elements.first { $0.name == "failure" })
        XCTAssertTrue(failure.attributes["message"]?.hasPrefix("step 1 (line 4): state count: expected 2 (integer), got 1 (integer)") ?? false,
                      failure.attributes["message"] ?? "")
        XCTAssertTrue(failure.text.contains("state count"), failure.text)
        XCTAssertTrue(failure.text.contains("sounds"), failure.text)
        let error = try XCTUnwrap(collector.elements.first { $0.name == "error" })
        XCTAssertTrue(error.attributes["message"]?.hasPrefix("malformed/unknown-step-key.yaml:6:5: unknown key 'expct'") ?? false,
                      error.attributes["message"] ?? "")
    }

    func testJSONReportIsMachineReadable() throws {
        let json = try JSONValue.parse(JSONReport.render(try sampleRun()))
        XCTAssertEqual(json["total"], .int(4))
        XCTAssertEqual(json["passed"], .int(1))
        XCTAssertEqual(json["failed"], .int(1))
        XCTAssertEqual(json["badInput"], .int(2))
        XCTAssertEqual(json["exitCode"], .int(2))
        guard case .array(let scenarios)? = json["scenarios"] else { return XCTFail("scenarios is a list") }
        XCTAssertEqual(scenarios.map { $0["status"] }, [.string("passed"), .string("failed"), .string("bad-input"), .string("bad-input")])
        let failure = try XCTUnwrap(scenarios[1]["failure"])
        XCTAssertEqual(failure["step"], .int(1))
        XCTAssertEqual(failure["line"], .int(4))
        guard case .array(let mismatches)? = failure["mismatches"] else { return XCTFail("mismatches is a list") }
        XCTAssertEqual(mismatches.map { $0["check"] }, [.string("state count"), .string("sounds")])
        XCTAssertEqual(mismatches.last?["expected"], .string("[<bell>]"))
        XCTAssertEqual(mismatches.first?["line"], .int(6))
        guard case .array(let diff)? = failure["stateDiff"] else { return XCTFail("stateDiff is a list") }
        XCTAssertEqual(diff.first?["path"], .string("count"))
        let problem = try XCTUnwrap(scenarios[2]["problem"])
        XCTAssertEqual(problem["line"], .int(6))
        XCTAssertEqual(problem["column"], .int(5))
    }

    func testTextReportHasOneLinePerScenarioAndDetailsForTheFailure() throws {
        let run = try sampleRun()
        let text = TextReport.render(run)
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines[0].hasPrefix("PASS  passing/every-expectation.yaml  Every expectation kind holds"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("FAIL  inline/fails.yaml"), lines[1])
        XCTAssertTrue(lines.contains("      step 1 at inline.yaml:4:5: do: add {n=1}"), text)
        XCTAssertTrue(lines.contains("        sounds (line 6):"), text)
        XCTAssertTrue(lines.contains("          expected [<bell>]"), text)
        XCTAssertTrue(lines.contains("          actual   [click]"), text)
        XCTAssertTrue(lines.contains("      state changed by this step:"), text)
        XCTAssertTrue(lines.contains("        count: 0 -> 1"), text)
        XCTAssertTrue(lines.contains { $0.hasPrefix("BAD   malformed/unknown-step-key.yaml:6:5: unknown key 'expct'") }, text)
        XCTAssertTrue(lines.contains("BAD   nowhere: no such file or folder"), text)
        XCTAssertEqual(lines.last, "4 scenarios: 1 passed, 1 failed, 2 bad input (500.0 ms)")
    }

    func testStateDiffWalksTablesAndMarksAbsentValues() {
        let before: StateValue = ["a": 1, "t": ["x": 1, "y": [1, 2]]]
        let after: StateValue = ["a": 1.0, "t": ["x": 1, "y": [1], "z": false], "n": "new"]
        XCTAssertEqual(StateDiff.changes(from: before, to: after).map(\.description), [
            "a: 1 -> 1.0", "n: absent -> \"new\"", "t.y.2: 2 -> absent", "t.z: absent -> false",
        ])
        XCTAssertEqual(StateDiff.changes(from: before, to: after, limit: 1).count, 1)
        XCTAssertEqual(StateDiff.changes(from: before, to: before), [])
    }
}

/// Collects the elements of an XML document with their attributes and text.
private final class JUnitCollector: NSObject, XMLParserDelegate {
    final class Element {
        let name: String
        let attributes: [String: String]
        var text = ""
        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }
    }

    private(set) var elements: [Element] = []
    private var open: [Element] = []

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        let element = Element(name: elementName, attributes: attributeDict)
        elements.append(element)
        open.append(element)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        open.last?.text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        open.removeLast()
    }
}
