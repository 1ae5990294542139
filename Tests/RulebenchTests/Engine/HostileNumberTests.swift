import Foundation
import XCTest
@testable import Rulebench

/// Integers and numbers from a message, a file or a rule, at the edges
/// (RELIABILITY.md, "No trap from input, right answers"): each
/// is checked for range before any arithmetic runs on it, so none traps
/// (a trap loses the studio's unsaved history), and each wrong one is
/// refused with its place. Cases that trapped run through the library's
/// throwing API or the built `rulebench`, never in this process unchecked.
final class HostileNumberTests: XCTestCase {
    // MARK: History positions (the studio's seek)

    /// The studio's `{"type": "seek", "step": -9223372036854775808}` computed
    /// `abs(step - cursor)` and trapped; the step is now checked first.
    func testAnyIntegerAsAHistoryPositionIsCheckedBeforeArithmetic() throws {
        let game = try EngineFixtures.labGame()
        _ = try game.playFirstLegal(steps: 2)
        let count = game.history.entries.count
        XCTAssertEqual(try game.history.position(0), 0)
        XCTAssertEqual(try game.history.position(count), count)
        for step in [Int.min, Int.min + 1, -1, count + 1, Int.max] {
            XCTAssertThrowsError(try game.history.position(step), "\(step)") { error in
                XCTAssertEqual("\(error)", "no history position \(step): the history has positions 0 to \(count)")
            }
            XCTAssertThrowsError(try game.seek(to: step), "\(step)")
            XCTAssertEqual(game.history.cursor, count, "a refused seek moves nothing")
        }
    }

    // MARK: Lines named by findings

    /// A finding naming `x.lua:9223372036854775807`, or a line past the
    /// file's end, built an invalid range in the studio (a trap): the lines
    /// around a location are empty unless its line is one of the text's.
    func testTheLinesAroundALineOutsideTheTextAreNone() {
        let text = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight"
        for line in [Int.min, -1, 0, 9, 10, Int.max - 3, Int.max] {
            XCTAssertTrue(SourceLocation(file: "x.lua", line: line).lines(in: text).isEmpty, "line \(line)")
        }
        let middle = SourceLocation(file: "x.lua", line: 5).lines(in: text)
        XCTAssertEqual(middle.map(\.number), [2, 3, 4, 5, 6, 7, 8])
        XCTAssertEqual(middle.map(\.text), ["two", "three", "four", "five", "six", "seven", "eight"])
        XCTAssertEqual(SourceLocation(file: "x.lua", line: 1).lines(in: text).map(\.number), [1, 2, 3, 4])
        XCTAssertEqual(SourceLocation(file: "x.lua", line: 8).lines(in: text).map(\.number), [5, 6, 7, 8])
        XCTAssertEqual(SourceLocation(file: "x.lua", line: 1).lines(in: "", spread: 3).map(\.text), [""])
    }

    /// The studio opening a finding whose blame names a line past the
    /// file's end, or line 2^63 - 1, trapped before it served anything (the
    /// reproduction's history lost): now it serves, and Ctrl-C ends it cleanly.
    func testTheStudioOpensAFindingThatNamesALineOutsideItsFile() throws {
        let folder = try scratchFolder("finding-lines")
        let scenario = try String(contentsOf: EngineFixtures.repository.appendingPathComponent("scenarios/template/dash.yaml"), encoding: .utf8)
        for line in ["5000", "9223372036854775807"] {
            let at = "rules/template/actions/step.lua:\(line)"
            let finding = folder.appendingPathComponent("finding-\(line).yaml")
            try ("# Finding: undo restores the state failed\n#   the state differs at \(at)\n# Blame: step at \(at)\n" + scenario)
                .write(to: finding, atomically: true, encoding: .utf8)
            let (process, out, err) = try RulebenchCommand.start(["studio", finding.path, "--port", "0", "--host", "127.0.0.1"],
                                                                 in: EngineFixtures.repository)
            var printed = Data()
            while !printed.contains(UInt8(ascii: "\n")) {
                let more = out.fileHandleForReading.availableData
                if more.isEmpty { break }
                printed.append(more)
            }
            process.interrupt()
            let result = RulebenchCommand.finish(process, out, err)
            XCTAssertTrue(String(decoding: printed, as: UTF8.self).hasPrefix("Rulebench Studio: http://127.0.0.1:"),
                          "line \(line): \(String(decoding: printed, as: UTF8.self)) \(result.output)")
            XCTAssertEqual(result.status, 0, "line \(line): \(result.output)")
            XCTAssertEqual(process.terminationReason, .exit, "line \(line): ended by a signal")
        }
    }

    // MARK: Command-line numbers

    /// `--shard 1/9223372036854775807` trapped: the workers' shard numbers
    /// are N times the workers. N is at most 1000000, refused above it.
    func testAShardCountThatWouldWrapIsRefused() throws {
        let folder = try scratchFolder("shards")
        for shard in ["1/9223372036854775807", "9223372036854775807/9223372036854775807", "1/1000001"] {
            let result = try RulebenchCommand.run(["fuzz", EngineFixtures.lab, "--shard", shard, "--runs", "1", "--depth", "1",
                                                   "--corpus", folder.appendingPathComponent("corpus").path], in: folder)
            XCTAssertEqual(result.status, 2, "\(shard): \(result.output)")
            XCTAssertTrue(result.stderr.contains("--shard expects K/N with 1 <= K <= N <= 1000000, got '\(shard)'"), result.stderr)
        }
        let most = try RulebenchCommand.run(["fuzz", EngineFixtures.lab, "--shard", "1/1000000", "--runs", "1", "--depth", "1",
                                             "--corpus", folder.appendingPathComponent("corpus").path], in: folder)
        XCTAssertLessThan(most.status, 2, most.output)
    }

    /// `--option players=2 --option players=3` took the last silently, as a
    /// typed call's params did: a key given twice is refused by name.
    func testASetupOptionGivenTwiceIsRefusedByName() throws {
        let result = try RulebenchCommand.run(["explore", "desert", "--depth", "1", "--option", "players=2", "--option", "players=3"],
                                              in: EngineFixtures.repository)
        XCTAssertEqual(result.status, 2, result.output)
        XCTAssertTrue(result.stderr.contains("--option players is given twice (give each once)"), result.stderr)
    }

    // MARK: Plans built by hand

    /// A pack whose one action `put` returns `plan` (Lua) from animate, at line 7 of put.lua.
    private func handBuiltPlanPack(_ plan: String) throws -> URL {
        let pack = try temporaryPack(["put": """
            return {
              params = { x = "any?" },
              legal = function(game, emit)
                emit({ x = 1 })
              end,
              apply = function(game, a) game.n = game.n + 1 end,
              animate = function(anim, game, a)
                  return \(plan)
                end,
            }
            """], manifest: """
            return { name = "edges", version = "1.0", setup = function(game) game.n = 0 end }
            """, prefix: "handplan")
        try "scenario: put\nrules: .\nsteps:\n  - do: put\n    with: { x: 1 }\n  - undo: 1\n  - redo: 1\n"
            .write(to: pack.appendingPathComponent("put.yaml"), atomically: true, encoding: .utf8)
        return pack
    }

    /// A plan built by hand with NaN passed `run`, and fuzz called it "redo
    /// gave a different animation plan" showing two identical plans (NaN is
    /// not NaN); an infinity, or times summing to one, was "not finite" in
    /// fuzz only. Now every number of a plan animate returns must be finite
    /// and its times in range: the step fails at animate's line, naming the
    /// value and where in the plan it is.
    func testANonFiniteNumberInAHandBuiltPlanIsRefusedAtAnimatesLine() throws {
        let cases: [(plan: String, says: String)] = [
            ("{ kind = \"tween\", target = \"t\", property = \"p\", from = 0, to = 1, duration = 0/0 }",
             "put.lua:7: animate returned a plan holding NaN at duration: every number of a plan must be finite"),
            ("{ kind = \"sequence\", items = { { kind = \"wait\", duration = 1 }, { kind = \"wait\", duration = math.huge } } }",
             "put.lua:7: animate returned a plan holding inf at items[2].duration"),
            ("{ kind = \"cue\", name = \"shake\", args = { strength = -math.huge } }",
             "put.lua:7: animate returned a plan holding -inf at args.strength"),
            // Finite times whose sum overflows to infinity ("not finite" in fuzz only), and a negative delay.
            ("{ kind = \"sequence\", items = { { kind = \"wait\", duration = 1e308 }, { kind = \"wait\", duration = 1e308 } } }",
             "put.lua:7: animate returned a plan holding 1e+308 at items[1].duration: a plan's duration is 0 to 1000000 seconds"),
            ("{ kind = \"tween\", target = \"t\", property = \"p\", from = 0, to = 1, duration = 1, delay = -1 }",
             "put.lua:7: animate returned a plan holding -1 at delay: a plan's delay is 0 to 1000000 seconds"),
            // Deeper than the builders copy, and a table reached 2^40 ways: each looked into once.
            ("(function() local d = { v = 0/0 } for i = 1, 150 do d = { d } end return { kind = \"cue\", name = \"x\", args = d } end)()",
             "put.lua:7: animate returned a plan holding NaN at args[1]"),
            ("(function() local d = { v = 0/0 } for i = 1, 40 do d = { d, d } end return { kind = \"cue\", name = \"x\", args = d } end)()",
             "put.lua:7: animate returned a plan holding NaN at args[1]"),
        ]
        for (plan, says) in cases {
            let pack = try handBuiltPlanPack(plan)
            let run = try RulebenchCommand.run(["run", "put.yaml"], in: pack)
            XCTAssertEqual(run.status, 1, "\(plan): \(run.output)")
            XCTAssertTrue(run.output.contains(says), "\(plan): \(run.output)")
            let fuzz = try RulebenchCommand.run(["fuzz", ".", "--runs", "2", "--depth", "3", "--corpus", "corpus"], in: pack)
            XCTAssertEqual(fuzz.status, 1, "\(plan): \(fuzz.output)")
            XCTAssertTrue(fuzz.stdout.contains(says), "\(plan): \(fuzz.output)")
            XCTAssertFalse(fuzz.stdout.contains("different animation plan"), fuzz.stdout)
            XCTAssertFalse(fuzz.stdout.contains("not finite"), fuzz.stdout)
        }
        // Finite numbers and times in range built by hand still pass, as before (a `duration` inside data is data).
        let fine = try handBuiltPlanPack("{ kind = \"parallel\", items = { { kind = \"tween\", target = \"t\", property = \"p\", "
                                         + "from = -1e300, to = { duration = -5 }, duration = 0.5 }, { kind = \"wait\", duration = 1000000 } } }")
        let run = try RulebenchCommand.run(["run", "put.yaml"], in: fine)
        XCTAssertEqual(run.status, 0, run.output)
    }
}
