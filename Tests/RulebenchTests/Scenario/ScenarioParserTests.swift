import Foundation
import XCTest
@testable import Rulebench

/// Paths and helpers shared by the scenario tests.
enum ScenarioFixtures {
    static let repository = TestPaths.repository
    static let folder = TestPaths.fixtures.appendingPathComponent("scenarios")
    static let malformed = folder.appendingPathComponent("malformed")
    static let passing = folder.appendingPathComponent("passing")
    /// The counter pack, as a scenario in `folder` names it.
    static let counterRules = "../packs/counter"

    /// A runner whose rule prints are swallowed.
    static let runner: ScenarioRunner = {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        return ScenarioRunner(configuration: configuration)
    }()

    /// Parses and runs scenario text as if it were a file in `folder`.
    static func run(_ yaml: String) throws -> ScenarioReport {
        let scenario = try ScenarioParser.parse(yaml, file: "inline.yaml")
        return runner.run(scenario, directory: folder)
    }

    /// The bad-input problem of parsing `yaml`, or nil when it parses.
    static func parseProblem(_ yaml: String) -> String? {
        do {
            _ = try ScenarioParser.parse(yaml, file: "inline.yaml")
            return nil
        } catch {
            guard case .badInput(let problem) = error else { return "not bad input: \(error)" }
            return problem.description
        }
    }

    /// Every *.yaml file below `folder`, sorted.
    static func yamlFiles(in folder: URL) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        return (enumerator?.compactMap { $0 as? URL } ?? [])
            .filter { ["yaml", "yml"].contains($0.pathExtension) }
            .sorted { $0.path < $1.path }
    }
}

final class ScenarioParserTests: XCTestCase {
    /// Each file in Fixtures/scenarios/malformed starts with
    /// `# expect-error: LINE:COL: message`; the report must be exactly
    /// `FILE:LINE:COL: message...` (the message may go on).
    func testEveryMalformedFixtureReportsItsFileLineAndColumn() throws {
        let files = ScenarioFixtures.yamlFiles(in: ScenarioFixtures.malformed)
        XCTAssertGreaterThanOrEqual(files.count, 10, "at least ten kinds of malformed files")
        for url in files {
            let text = try String(contentsOf: url, encoding: .utf8)
            let header = try XCTUnwrap(text.split(separator: "\n").first, url.lastPathComponent)
            let prefix = "# expect-error: "
            XCTAssertTrue(header.hasPrefix(prefix), "\(url.lastPathComponent) needs an expect-error header")
            let expected = "x.yaml:" + header.dropFirst(prefix.count)
            let report = ScenarioFixtures.runner.run(fileAt: url, displayPath: "x.yaml")
            XCTAssertEqual(report.status, .badInput, url.lastPathComponent)
            let actual = report.problem?.description ?? "(no problem)"
            XCTAssertTrue(actual.hasPrefix(expected), "\(url.lastPathComponent):\n  expected \(expected)\n  actual   \(actual)")
            XCTAssertFalse(actual.contains("\n"), "one line: \(actual)")
        }
    }

    func testMalformedFixturesCoverTheKindsTheIssueNames() {
        let names = Set(ScenarioFixtures.yamlFiles(in: ScenarioFixtures.malformed).map { $0.deletingPathExtension().lastPathComponent })
        for kind in ["yaml-syntax", "unknown-top-key", "unknown-step-key", "unknown-expect-key", "unknown-action",
                     "unknown-pack", "seed-not-integer", "undo-float", "wrong-param-type", "missing-steps"] {
            XCTAssertTrue(names.contains(kind), "missing malformed fixture \(kind)")
        }
    }

    func testAScenarioReadsIntoTheModel() throws {
        let scenario = try ScenarioParser.parse("""
            scenario: the model
            rules: template
            setup:
              seed: 7
              options: { players: 3, names: [a, b] }
              state: { tokens.p1.square: 4, gone: null }
            steps:
              - do: step
                with: { token: p1 }
                expect:
                  state: { tokens.p1.square: 5, "tokens.p9": null }
                  subactions: [move, [slide, [], hop], discard]
                  sounds: [step]
                  animation: { duration: 0.25, conflicts: 0 }
                  invariants: hold
                  hash: "0123456789abcdef"
              - undo: 2
              - undo: turn
              - redo: 1
              - expect: { state: { moves: 0 } }
            """, file: "model.yaml")
        XCTAssertEqual(scenario.title, "the model")
        XCTAssertEqual(scenario.rules.value, "template")
        XCTAssertEqual(scenario.rules.location.description, "model.yaml:2:8")
        XCTAssertEqual(scenario.setup.seed, 7)
        XCTAssertEqual(scenario.setup.options["players"], .int(3))
        XCTAssertEqual(scenario.setup.options["names"], ["a", "b"])
        XCTAssertEqual(scenario.setup.state.map(\.path.description), ["tokens.p1.square", "gone"])
        XCTAssertNil(scenario.setup.state[1].value)
        XCTAssertEqual(scenario.steps.map(\.operation), [
            .perform(action: "step", params: ["token": "p1"]), .undo(count: 2), .undoTurn, .redo(count: 1), .check,
        ])
        XCTAssertEqual(scenario.steps.map(\.location.line), [8, 17, 18, 19, 20])
        let expect = scenario.steps[0].expectations
        XCTAssertEqual(expect.state.map(\.path.description), ["tokens.p1.square", "tokens.p9"])
        XCTAssertEqual(expect.subactions?.value,
                       [SubactionPattern("move", [SubactionPattern("slide", []), SubactionPattern("hop")]), SubactionPattern("discard")])
        XCTAssertEqual(expect.sounds?.value, ["step"])
        XCTAssertEqual(expect.duration?.value, 0.25)
        XCTAssertEqual(expect.conflicts?.value, 0)
        XCTAssertEqual(expect.invariantsHold?.value, true)
        XCTAssertEqual(expect.hash?.value, "0123456789abcdef")
        XCTAssertEqual(expect.hash?.location.line, 16)
    }

    /// YAML 1.2 core types: ints are Lua integers, floats Lua floats, and
    /// `no`/`on` stay strings (YAML 1.1 would make them booleans).
    func testValuesAreTypedLikeLua() throws {
        let scenario = try ScenarioParser.parse("""
            scenario: types
            rules: template
            steps:
              - expect:
                  state:
                    a: 3
                    b: 3.0
                    c: "3"
                    d: no
                    e: true
                    f: 1e3
                    g: -0x10
                    h: ~
                    i: { 1: x, k: [1, 2.5] }
                    j: 'on'
                    k: 0x10
            """, file: "types.yaml")
        let values = Dictionary(uniqueKeysWithValues: scenario.steps[0].expectations.state.map { ($0.path.description, $0.value) })
        XCTAssertEqual(values["a"], .some(.int(3)))
        XCTAssertEqual(values["b"], .some(.double(3)))
        XCTAssertEqual(values["c"], .some(.string("3")))
        XCTAssertEqual(values["d"], .some(.string("no")))
        XCTAssertEqual(values["e"], .some(.bool(true)))
        XCTAssertEqual(values["f"], .some(.double(1000)))
        XCTAssertEqual(values["g"], .some(.string("-0x10")), "a signed hex number is not a core-schema integer")
        XCTAssertEqual(values["k"], .some(.int(16)))
        XCTAssertEqual(values["h"], .some(nil))
        XCTAssertEqual(values["i"], .some(.table([.int(1): "x", .string("k"): [.int(1), .double(2.5)]])))
        XCTAssertEqual(values["j"], .some(.string("on")))
    }

    func testOutOfRangeIntegersAndNullsInListsAreProblems() {
        XCTAssertEqual(ScenarioFixtures.parseProblem("""
            scenario: big
            rules: template
            steps:
              - expect: { state: { a: 99999999999999999999 } }
            """), "inline.yaml:4:27: integer 99999999999999999999 is out of range (Lua integers are 64-bit); write it as a float or a string")
        XCTAssertEqual(ScenarioFixtures.parseProblem("""
            scenario: hole
            rules: template
            steps:
              - expect: { state: { a: [1, null, 3] } }
            """), "inline.yaml:4:31: a list in 'a' cannot hold null (Lua sequences have no holes)")
    }

    /// Values no state can hold, and two keys that name one slot, are bad
    /// input at their line, not a failure that could never pass or a key
    /// silently dropped.
    func testNonFiniteNumbersAndCollidingKeysAreProblems() {
        for (text, kind) in [("1e400", "an infinite number"), (".inf", "an infinite number"), ("-.inf", "an infinite number"), (".nan", "NaN")] {
            XCTAssertEqual(ScenarioFixtures.parseProblem("""
                scenario: big
                rules: template
                steps:
                  - expect: { state: { a: \(text) } }
                """), "inline.yaml:4:27: 'a' cannot hold \(kind) (a rule cannot store one in the state); write a finite number, or a string")
        }
        XCTAssertEqual(ScenarioFixtures.parseProblem("""
            scenario: keys
            rules: template
            steps:
              - expect: { state: { a: { "1": 1, "01": 2 } } }
            """), "inline.yaml:4:37: keys '1' and '01' in 'a' are the same key 1 of the state; keep one")
    }

    func testStepShapesAreChecked() {
        let cases: [(String, String)] = [
            ("  - just a string", "inline.yaml:4:5: step 1 must be a mapping such as `- do: move` or `- undo: 1`, not a string"),
            ("  - {}", "inline.yaml:4:5: an empty step: write 'do', 'undo', 'redo' or 'expect'"),
            ("  - undo: 0", "inline.yaml:4:11: 'undo' must be at least 1, not 0"),
            ("  - redo: turn", "inline.yaml:4:11: 'redo' (a count of actions) must be an integer, not a string"),
            ("  - expect: {}", "inline.yaml:4:13: this step expects nothing: give at least one expectation, e.g. `state:`"),
            ("  - expect: { sounds: [a] }", "inline.yaml:4:15: 'sounds' needs a 'do', 'undo' or 'redo' in the same step"),
            ("  - undo: 1\n    expect: { rejected: x }", "inline.yaml:5:15: 'rejected' can only be expected of a 'do' step"),
            ("  - do: 5", "inline.yaml:4:9: 'do' must be a string, not an integer; quote it if you mean the text"),
            ("  - do: a\n    expect: { rejected: x, error: y }",
             "inline.yaml:5:28: expect either 'rejected' (check refused) or 'error' (the action failed), not both"),
            ("  - do: a\n    expect: { animation: { length: 1 } }",
             "inline.yaml:5:28: unknown key 'length' in 'animation' ('animation' takes: duration, conflicts, starts, mirrored)"),
            ("  - do: a\n    expect: { subactions: [a, 5] }", "inline.yaml:5:31: 'subactions' lists action names and nested lists, not an integer"),
            ("  - do: a\n    expect: { hash: abc }", "inline.yaml:5:21: 'hash' must be 16 lower-case hex digits (as `rulebench` prints state hashes), not 'abc' "
                + "(`rulebench state FILE --step N` prints the hash after step N, placeholders and all)"),
            ("  - do: a\n    with: { p: null }", "inline.yaml:5:16: param 'p' is null: leave an optional param out instead"),
            ("  - do: a\n    expect: { animation: { duration: -1 } }", "inline.yaml:5:38: 'duration' cannot be negative"),
        ]
        for (step, expected) in cases {
            let yaml = "scenario: s\nrules: template\nsteps:\n" + step + "\n"
            XCTAssertEqual(ScenarioFixtures.parseProblem(yaml), expected, step)
        }
    }

    func testUnknownKeysSuggestTheClosestKey() {
        XCTAssertEqual(ScenarioFixtures.parseProblem("scenario: s\nrules: template\nsetup: { sed: 1 }\nsteps: [{ undo: 1 }]\n"),
                       "inline.yaml:3:10: unknown key 'sed' in 'setup'; did you mean 'seed'? ('setup' takes: seed, options, state, create)")
        XCTAssertEqual(ScenarioFixtures.parseProblem("scenario: s\nrules: template\nsteps: [{ undo: 1 }]\nfoo: 1\n"),
                       "inline.yaml:4:1: unknown key 'foo' in a scenario (a scenario takes: scenario, rules, setup, steps)")
        XCTAssertEqual(Suggestion.closest(to: "subaction", in: ParserKeys.expect), "subactions")
        XCTAssertEqual(Suggestion.closest(to: "invarients", in: ParserKeys.expect), "invariants")
        XCTAssertEqual(Suggestion.closest(to: "animaiton", in: ParserKeys.expect), "animation")
        XCTAssertNil(Suggestion.closest(to: "zzz", in: ParserKeys.expect))
        XCTAssertEqual(Suggestion.editDistance("kitten", "sitting"), 3)
        XCTAssertEqual(Suggestion.editDistance("ab", "ba"), 1)
    }

    func testTheJSONFormKeepsYAMLTypes() throws {
        let json = try ScenarioParser.json("a: 1\nb: 1.5\nc: [x, null]\nd: 'no'\n", file: "j.yaml")
        XCTAssertEqual(json, .object([("a", .int(1)), ("b", .double(1.5)), ("c", .array([.string("x"), .null])), ("d", .string("no"))]))
    }
}

/// The parser's key lists, for suggestion tests.
private typealias ParserKeys = ScenarioParser.Keys
