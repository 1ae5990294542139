import Foundation
import XCTest
@testable import Rulebench

/// `rulebench run` as a user runs it: the built binary, real files, exit codes.
final class ScenarioCLITests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    private func run(_ arguments: [String], in directory: URL? = nil) throws -> RulebenchCommand.Result {
        try RulebenchCommand.run(arguments, in: directory ?? ScenarioFixtures.repository)
    }

    private func write(_ name: String, _ text: String) throws {
        let url = scratch.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private var counter: String { ScenarioFixtures.repository.appendingPathComponent("Tests/RulebenchTests/Fixtures/packs/counter").path }

    func testPassingScenariosExitZero() throws {
        let result = try run(["run", "scenarios/template"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.hasPrefix("PASS  scenarios/template/") }.count, lines.count - 1, result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("passed, 0 failed (" + (lines.last?.split(separator: "(").last ?? "") + "\n"), result.stdout)
    }

    func testAFailingScenarioExitsOneAndShowsTheStep() throws {
        try write("fail.yaml", """
            scenario: fails at step 2
            rules: \(counter)
            steps:
              - do: turn
              - do: add
                with: { n: 1 }
                expect: { state: { count: 5 } }
            """)
        try write("pass.yaml", "scenario: passes\nrules: \(counter)\nsteps:\n  - do: turn\n")
        let result = try run(["run", "."], in: scratch)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("FAIL  fail.yaml  fails at step 2"), result.stdout)
        XCTAssertTrue(result.stdout.contains("step 2 at fail.yaml:5:5: do: add {n=1}"), result.stdout)
        XCTAssertTrue(result.stdout.contains("state count (line 7):"), result.stdout)
        XCTAssertTrue(result.stdout.contains("count: 0 -> 1"), result.stdout)
        XCTAssertTrue(result.stdout.contains("PASS  pass.yaml  passes"), result.stdout)
        XCTAssertTrue(result.stdout.contains("2 scenarios: 1 passed, 1 failed"), result.stdout)
    }

    func testAMalformedFileExitsTwoAndTheOthersStillRun() throws {
        try write("a/bad.yaml", "scenario: bad\nrules: \(counter)\nsteps:\n  - do: turn\n    expct: {}\n")
        try write("b/fail.yaml", "scenario: fails\nrules: \(counter)\nsteps:\n  - do: add\n    with: { n: 0 }\n")
        try write("c/pass.yml", "scenario: passes\nrules: \(counter)\nsteps:\n  - do: turn\n")
        try write("c/notes.txt", "not a scenario")
        try write("c/scenario.schema.yaml", "not: a scenario")
        let junit = scratch.appendingPathComponent("out/report.xml")
        try FileManager.default.createDirectory(at: junit.deletingLastPathComponent(), withIntermediateDirectories: true)
        let result = try run(["run", "--junit", junit.path], in: scratch)   // no PATH: scenarios/ is the default...
        XCTAssertEqual(result.status, 2, "there is no scenarios/ here: \(result.stdout)\(result.stderr)")
        XCTAssertTrue(result.stdout.contains("BAD   scenarios: no such file or folder"), result.stdout)

        let all = try run(["run", "a", "b", "c", "--junit", junit.path], in: scratch)
        XCTAssertEqual(all.status, 2, all.stdout + all.stderr)
        let lines = all.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "BAD   a/bad.yaml:5:5: unknown key 'expct' in a step; did you mean 'expect'? (a step takes: do, with, as, undo, redo, expect)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("FAIL  b/fail.yaml  fails") }, all.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("PASS  c/pass.yml  passes") }, all.stdout)
        XCTAssertEqual(lines.last?.hasPrefix("3 scenarios: 1 passed, 1 failed, 1 bad input"), true, all.stdout)
        let xml = try String(contentsOf: junit, encoding: .utf8)
        XCTAssertTrue(xml.contains("<testsuites name=\"rulebench run\" tests=\"3\" failures=\"1\" errors=\"1\""), xml)
    }

    func testJSONOutputIsTheWholeStandardOutput() throws {
        try write("x.yaml", "scenario: x\nrules: \(counter)\nsteps:\n  - do: turn\n    expect: { state: { turn: 2 } }\n")
        let result = try run(["run", "x.yaml", "--json"], in: scratch)
        XCTAssertEqual(result.status, 1)
        let json = try JSONValue.parse(result.stdout)
        XCTAssertEqual(json["failed"], .int(1))
        XCTAssertEqual(json["exitCode"], .int(1))
    }

    func testBadArgumentsExitTwo() throws {
        let result = try run(["run", "--no-such-flag"])
        XCTAssertEqual(result.status, 2, result.stderr)
        let unwritable = try run(["run", "scenarios/template", "--junit", "/nonexistent-folder/report.xml"])
        XCTAssertEqual(unwritable.status, 2)
        XCTAssertTrue(unwritable.stderr.contains("/nonexistent-folder/report.xml: cannot write the JUnit report"), unwritable.stderr)
    }

    func testHelpDescribesTheCommandWithAnExample() throws {
        let result = try run(["run", "--help"])
        XCTAssertEqual(result.status, 0)
        for text in ["--json", "--junit", "rulebench run scenarios --junit", "Exit codes", "scenarios/"] {
            XCTAssertTrue(result.stdout.contains(text), "help lacks \(text):\n\(result.stdout)")
        }
    }
}
