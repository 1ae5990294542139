import Foundation
import XCTest
@testable import Rulebench

/// Hostile values on the command line: nothing lost, nothing false, and
/// messages that say what is wrong with a value (RELIABILITY.md, "Nothing
/// lost, nothing false, messages"): params and files JSON cannot carry,
/// duplicate keys, a standard output that fails, numbers out of range.
/// Each case runs the built `rulebench` as a user would.
final class HostileValueCLITests: XCTestCase {
    // MARK: Helpers

    /// A pack with one action `put` whose `legal` emits `{ x = <emitted> }`
    /// and whose apply counts; `extra` is more of the action's fields.
    private func emittingPack(_ emitted: String, extra: String = "") throws -> URL {
        try temporaryPack(["put": """
            return {
              params = { x = "any?" },
              legal = function(game, emit)
                emit({ x = \(emitted) })
              end,
              apply = function(game, a) game.n = game.n + 1 end,
              \(extra)
            }
            """], manifest: """
            return { name = "edges", version = "1.0", setup = function(game) game.n = 0 end }
            """, prefix: "edges")
    }

    private func assertOneLine(_ result: RulebenchCommand.Result, status: Int32, naming names: [String],
                                   file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, status, result.output, file: file, line: line)
        let message = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(message.contains("\n"), "not one line: \(message)", file: file, line: line)
        for name in names { XCTAssertTrue(message.contains(name), "'\(name)' not in: \(message)", file: file, line: line) }
    }

    /// Runs the binary (or `executable`) with its standard output sent to `output`.
    private func run(_ arguments: [String], stdout output: Any, in folder: URL,
                         executable: String? = nil) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = try executable.map(URL.init(fileURLWithPath:)) ?? RulebenchCommand.binary()
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.standardOutput = output
        let err = Pipe()
        process.standardError = err
        try process.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    private var dashScenario: String {
        EngineFixtures.repository.appendingPathComponent("scenarios/template/dash.yaml").path
    }

    // MARK: Params JSON cannot carry

    /// fuzz said "saving and loading keep every hash" of a history that
    /// `play` saved as `nan`: now emit refuses the param at its line.
    func testFuzzReportsAnEmittedNaNAtTheRuleLineNotAFalsePass() throws {
        let pack = try emittingPack("0/0")
        let result = try RulebenchCommand.run(["fuzz", pack.path, "--runs", "3", "--depth", "3", "--corpus", pack.appendingPathComponent("corpus").path],
                                              in: pack)
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.stdout.contains("put.lua:4: emit: param 'x' holds NaN"), result.stdout)
        XCTAssertTrue(result.stdout.contains("which a saved history (JSON text) cannot carry"), result.stdout)
        XCTAssertFalse(result.stdout.contains("saving and loading"), result.stdout)
    }

    func testEmitRefusesInfinitiesFunctionsAndKeysJSONCannotCarry() throws {
        let cases: [(String, String)] = [
            ("math.huge", "holds an infinite number (inf)"), ("-math.huge", "holds an infinite number (-inf)"),
            ("print", "holds a function"), ("{ [true] = 1 }", "holds a boolean key (true)"),
            ("{ [1.5] = 1 }", "holds a float key (1.5)"), ("{ { 0/0 } }", "holds NaN"),
        ]
        for (emitted, expected) in cases {
            let pack = try emittingPack(emitted)
            let result = try RulebenchCommand.run(["check", pack.path, "--depth", "1"], in: pack)
            XCTAssertEqual(result.status, 1, "\(emitted): \(result.output)")
            XCTAssertTrue(result.output.contains("put.lua:4: error: legal fails: emit: param 'x' \(expected)"), "\(emitted): \(result.output)")
        }
    }

    func testEmitRefusesParamsWithoutNames() throws {
        let pack = try temporaryPack(["put": """
            return {
              legal = function(game, emit) emit({ "a", "b" }) end,
              apply = function() end,
            }
            """], manifest: #"return { name = "unnamed", version = "1.0", setup = function() end }"#, prefix: "unnamed")
        let result = try RulebenchCommand.run(["check", pack.path, "--depth", "1"], in: pack)
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.output.contains("put.lua:2: error: legal fails: emit: params are named by strings, not by the position 1"),
                      result.output)
    }

    func testAScenarioGivingNaNOrInfinityAsAParamOrOptionIsBadInputAtItsLine() throws {
        let folder = try scratchFolder("nan-scenario")
        let rules = EngineFixtures.repository.appendingPathComponent("rules/template").path
        let cases: [(String, String, Int)] = [
            ("steps:\n  - do: step\n    with: { token: p1, x: .nan }\n", "param 'x' cannot hold NaN", 5),
            ("setup:\n  options: { length: -.inf }\nsteps:\n  - do: step\n    with: { token: p1 }\n",
             "option 'length' cannot hold an infinite number", 4),
        ]
        for (index, (body, expected, line)) in cases.enumerated() {
            let file = folder.appendingPathComponent("s\(index).yaml")
            try "scenario: s\nrules: \(rules)\n\(body)".write(to: file, atomically: true, encoding: .utf8)
            let result = try RulebenchCommand.run(["state", file.path], in: folder)
            assertOneLine(result, status: 2, naming: ["s\(index).yaml:\(line):", expected, "JSON text"])
        }
    }

    // MARK: Duplicate keys

    func testAHistoryWithADuplicateKeyIsBadInputNamingTheKeyAndLine() throws {
        let folder = try scratchFolder("dup-history")
        let game = try EngineFixtures.labGame(seed: 3)
        try game.perform(ActionCall("inc", ["by": 2]))
        let url = folder.appendingPathComponent("h.json")
        try game.save(to: url)
        let text = try String(contentsOf: url, encoding: .utf8)
        try text.replacingOccurrences(of: "\"seed\":3,", with: "\"seed\":3,\n\"seed\":4,").write(to: url, atomically: true, encoding: .utf8)
        let result = try RulebenchCommand.run(["replay", url.path], in: folder)
        assertOneLine(result, status: 2, naming: ["h.json:2:", #"member "seed" appears twice"#, "first on line 1"])
    }

    func testACorpusEntryWithADuplicateKeyIsSkippedNamingTheKey() throws {
        let folder = try scratchFolder("dup-corpus")
        let entry = #"{"property":"undoRestoresState","pack":"template","seed":1,"options":{},"steps":[{"do":{"action":"step","params":{"token":"p1","token":"p2"}}}]}"#
        try entry.write(to: folder.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        let corpus = Reproduction.load(from: folder)
        XCTAssertTrue(corpus.entries.isEmpty)
        XCTAssertEqual(corpus.skipped.count, 1)
        let problem = "\(corpus.skipped.first.map { "\($0)" } ?? "")"
        XCTAssertTrue(problem.contains(#"member "token" appears twice"#) && problem.contains("a.json:1:"), problem)
    }

    // MARK: Standard output

    func testAFullDiskUnderStandardOutputExitsTwoInEveryResultCommand() throws {
        guard let full = FileHandle(forWritingAtPath: "/dev/full") else { throw XCTSkip("no /dev/full on this system") }
        for arguments in [["state", dashScenario], ["run", "--json", dashScenario], ["run", dashScenario],
                          ["fuzz", "template", "--runs", "2", "--json"]] {
            let result = try run(arguments, stdout: full, in: EngineFixtures.repository)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            // Text `run` flushes each line: the reason is the first failed flush's, kept (`StandardOutput.flush`).
            XCTAssertTrue(result.stderr.contains("rulebench: cannot write the results to standard output (No space left on device)"),
                          "\(arguments): \(result.stderr)")
        }
    }

    func testAPipeWithoutAReaderExitsTwoInsteadOfDyingSilently() throws {
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()   // no reader at all: the first write fails, every time
        let result = try run(["state", dashScenario], stdout: pipe, in: EngineFixtures.repository)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("(Broken pipe)"), result.stderr)
    }

    func testAClosedStandardOutputExitsTwo() throws {
        let binary = try RulebenchCommand.binary()
        let result = try run(["-c", "exec \"$0\" state \"$1\" >&-", binary.path, dashScenario],
                             stdout: FileHandle.nullDevice, in: EngineFixtures.repository, executable: "/bin/sh")
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("cannot write the results to standard output (Bad file descriptor)"), result.stderr)
    }

    // MARK: Messages about numbers

    func testNegativeAndFractionalNumberOptionsSayWhatIsWrong() throws {
        let cases: [([String], String)] = [
            (["fuzz", "template", "--seed", "-5"], "The value '-5' is invalid for '--seed <seed>': it is out of range; --seed takes a whole number from 0 to 18446744073709551615"),
            (["fuzz", "template", "--depth", "1.5"], "The value '1.5' is invalid for '--depth <n>': it is not a whole number"),
            (["fuzz", "template", "--runs", "-1"], "--runs must be at least 1, got -1"),
            (["state", dashScenario, "--step", "-1"], "the scenario has no step -1"),
            (["explore", "template", "--depth", "-2"], "--depth must be from 1 to 64, got -2"),
        ]
        for (arguments, expected) in cases {
            let result = try RulebenchCommand.run(arguments, in: EngineFixtures.repository)
            assertOneLine(result, status: 2, naming: [expected])
            XCTAssertFalse(result.stderr.contains("Missing value"), result.stderr)
        }
        let negativeSeed = try RulebenchCommand.run(["explore", "template", "--depth", "1", "--seed", "-5"], in: EngineFixtures.repository)
        XCTAssertEqual(negativeSeed.status, 0, "a negative game seed is a seed: \(negativeSeed.output)")
    }

    func testAHistorySeedThatIsNotAWholeNumberSaysWhatIsWrongWithIt() throws {
        let folder = try scratchFolder("seed-history")
        let game = try EngineFixtures.labGame(seed: 3)
        let url = folder.appendingPathComponent("h.json")
        try game.save(to: url)
        let text = try String(contentsOf: url, encoding: .utf8)
        let cases = [("1E+2", "not the float 100.0 (write it without a point or an exponent)"), ("-0.0", "not the float -0.0"),
                     ("1.5", "not the float 1.5"), (#""7""#, #"not the string "7" (write it without quotes)"#)]
        for (written, expected) in cases {
            try text.replacingOccurrences(of: "\"seed\":3,", with: "\"seed\":\(written),").write(to: url, atomically: true, encoding: .utf8)
            let result = try RulebenchCommand.run(["replay", url.path], in: folder)
            assertOneLine(result, status: 2, naming: ["h.json", "\"seed\" must be a whole number, \(expected)"])
        }
    }

    // MARK: Plans

    /// A plan whose times overflow to infinity showed "duration 0 s" or
    /// (NaN) made fuzz blame redo; now animate fails at the rule's line.
    func testAPlanWithTimesThatOverflowIsRefusedAtTheRuleLine() throws {
        let pack = try emittingPack("1", extra: """
            animate = function(anim, game, a)
                local plan = anim.sequence{ anim.wait(1e308), anim.wait(1e308) }
                return plan
              end,
            """)
        let result = try RulebenchCommand.run(["fuzz", pack.path, "--runs", "2", "--depth", "2", "--corpus", pack.appendingPathComponent("corpus").path],
                                              in: pack)
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.stdout.contains("put.lua:8: anim.wait: 'seconds' must be at most 1000000 seconds"), result.stdout)
        XCTAssertFalse(result.stdout.contains("blame: redo"), result.stdout)
        XCTAssertFalse(result.stdout.contains("not finite"), result.stdout)
    }

    // MARK: Reproductions

    /// A finding whose params hold every character YAML treats specially:
    /// the reproduction written by fuzz must make `run` fail the same way.
    func testAReproductionOfHostileStringsReadsBackAndStillFails() throws {
        let hostile = #""a\u{FEFF}b\u{85}c\u{2028}d\u{2029}e\u{0}f\u{7F}g\u{9F}h\u{1B}[31mi\r\nj\"k\\l" .. string.rep("long ", 300)"#
        let pack = try emittingPack("S", extra: "")
        let source = try String(contentsOf: pack.appendingPathComponent("actions/put.lua"), encoding: .utf8)
        try ("local S = " + hostile + "\n" + source.replacingOccurrences(of: "apply = function(game, a) game.n = game.n + 1 end",
                                                                          with: #"apply = function(game, a) if a.x == S then error("reproduced exactly") end end"#))
            .write(to: pack.appendingPathComponent("actions/put.lua"), atomically: true, encoding: .utf8)
        let out = pack.appendingPathComponent("out")
        let fuzz = try RulebenchCommand.run(["fuzz", pack.path, "--runs", "1", "--depth", "2", "--out", out.path,
                                             "--corpus", pack.appendingPathComponent("corpus").path], in: pack)
        XCTAssertEqual(fuzz.status, 1, fuzz.output)
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".yaml") }
        XCTAssertEqual(files.count, 1, fuzz.output)
        let reproduction = out.appendingPathComponent(files.first ?? "none").path
        let run = try RulebenchCommand.run(["run", reproduction], in: pack)
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertTrue(run.stdout.contains("reproduced exactly"), run.stdout)
    }
}
