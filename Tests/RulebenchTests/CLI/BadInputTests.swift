import Foundation
import XCTest
@testable import Rulebench

/// Bad files given to the command line: broken saved histories, broken
/// packs, truncated scenarios, reports into missing folders. Each ends with
/// exit 2 and a one-line message naming the file (and line where there is
/// one), no stack trace, and no partial output files left behind.
final class BadInputTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-badinput-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    // MARK: Helpers

    private func write(_ text: String, to relative: String) throws {
        let url = scratch.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// Everything under the scratch folder, as relative paths.
    private func listing() -> Set<String> {
        var out: Set<String> = []
        let base = scratch.standardizedFileURL.path
        if let walker = FileManager.default.enumerator(atPath: base) {
            for case let path as String in walker { out.insert(path) }
        }
        return out
    }

    /// Runs the command in the scratch folder and checks the bad-input
    /// contract; returns the message.
    @discardableResult
    private func expectBadInput(_ arguments: [String], naming names: [String], line: Int? = nil, status: Int32 = 2,
                                file: StaticString = #filePath, testLine: UInt = #line) throws -> String {
        let before = listing()
        let result = try RulebenchCommand.run(arguments, in: scratch)
        let what = arguments.joined(separator: " ")
        XCTAssertEqual(result.status, status, "\(what): \(result.output)", file: file, line: testLine)
        let message = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(message.isEmpty, "\(what): no message", file: file, line: testLine)
        XCTAssertFalse(message.contains("\n"), "\(what): not one line:\n\(message)", file: file, line: testLine)
        for name in names {
            XCTAssertTrue(message.contains(name), "\(what): '\(name)' not named in: \(message)", file: file, line: testLine)
        }
        if let line {
            XCTAssertTrue(message.contains(":\(line):"), "\(what): line \(line) not named in: \(message)", file: file, line: testLine)
        }
        for noise in ["stack traceback", "Fatal error", "Stack dump", "rulebench/engine:", "rulebench/state:", "rulebench/sandbox:"] {
            XCTAssertFalse(result.output.contains(noise), "\(what): '\(noise)' in: \(result.output)", file: file, line: testLine)
        }
        XCTAssertEqual(listing(), before, "\(what): files were left behind", file: file, line: testLine)
        return message
    }

    /// A sound two-action pack to derive broken variants from.
    private func writeGoodPack(_ folder: String, name: String = "tiny", version: String = "1.0") throws {
        try write("""
            return {
              name = "\(name)", version = "\(version)",
              setup = function(game) game.n = 0 end,
            }
            """, to: "\(folder)/pack.lua")
        try write("""
            return {
              legal = function(game, emit) emit({}) end,
              apply = function(game) game.n = game.n + 1 end,
            }
            """, to: "\(folder)/actions/inc.lua")
    }

    /// Saves a three-step history of a good pack and returns its JSON text.
    private func savedHistory() throws -> String {
        try writeGoodPack("tiny")
        let game = try Game(pack: scratch.appendingPathComponent("tiny").path, seed: 5)
        for _ in 0..<3 { try game.perform("inc") }
        let url = scratch.appendingPathComponent("good.json")
        try game.save(to: url)
        // The saved pack path is absolute: the variants below replay from anywhere.
        let text = try String(contentsOf: url, encoding: .utf8)
        let replayed = try RulebenchCommand.run(["replay", "good.json"], in: scratch)
        XCTAssertEqual(replayed.status, 0, replayed.output)
        return text
    }

    // MARK: Saved histories

    func testTruncatedHistory() throws {
        let text = try savedHistory()
        try write(String(text.prefix(text.count / 2)), to: "truncated.json")
        try expectBadInput(["replay", "truncated.json"], naming: ["truncated.json", "not a history file"], line: 1)
    }

    func testEmptyHistory() throws {
        try write("", to: "empty.json")
        try expectBadInput(["replay", "empty.json"], naming: ["empty.json", "not a history file"])
    }

    func testHistoryThatIsNotJSON() throws {
        try write("steps:\n  - do: inc\n", to: "notjson.json")
        try expectBadInput(["replay", "notjson.json"], naming: ["notjson.json", "not a history file"], line: 1)
    }

    func testJSONThatIsNotAHistory() throws {
        try write("{\"hello\": [1, 2, 3]}\n", to: "other.json")
        try expectBadInput(["replay", "other.json"], naming: ["other.json", "not a rulebench history"])
    }

    func testBinaryGarbageHistory() throws {
        try Data([0xff, 0xfe, 0x00, 0x7b, 0x22, 0xc3, 0x28, 0x00]).write(to: scratch.appendingPathComponent("garbage.json"))
        try expectBadInput(["replay", "garbage.json"], naming: ["garbage.json"])
    }

    func testTamperedStepHash() throws {
        let text = try savedHistory()
        let hashes = try JSONValue.parse(text)["steps"]
        guard case .array(let steps)? = hashes, case .string(let second)? = steps[1]["hash"] else { return XCTFail("no steps") }
        try write(text.replacingOccurrences(of: second, with: "0123456789abcdef"), to: "tampered.json")
        // A hash that differs is a failed check (1), with the same one-line message.
        try expectBadInput(["replay", "tampered.json"], naming: ["tampered.json", "step 2", "the history says 0123456789abcdef"], status: 1)
    }

    func testTamperedActionName() throws {
        let text = try savedHistory()
        try write(text.replacingOccurrences(of: "\"action\":\"inc\"", with: "\"action\":\"inc; os.exit(1)\""), to: "renamed.json")
        try expectBadInput(["replay", "renamed.json"], naming: ["renamed.json", "step 1", "unknown action"])
    }

    func testTamperedInitialHashAndCursor() throws {
        let text = try savedHistory()
        guard case .string(let initial)? = try JSONValue.parse(text)["initialHash"] else { return XCTFail("no initial hash") }
        try write(text.replacingOccurrences(of: initial, with: "ffffffffffffffff"), to: "initial.json")
        try expectBadInput(["replay", "initial.json"], naming: ["initial.json", "the pack or the setup changed"], status: 1)
        try write(text.replacingOccurrences(of: "\"cursor\":3", with: "\"cursor\":99"), to: "cursor.json")
        try expectBadInput(["replay", "cursor.json"], naming: ["cursor.json", "impossible cursor"])
    }

    func testHistoryFromAnotherPackVersion() throws {
        let text = try savedHistory()
        try write(text.replacingOccurrences(of: "\"version\":\"1.0\"", with: "\"version\":\"0.9\""), to: "old.json")
        try expectBadInput(["replay", "old.json"], naming: ["old.json", "saved with pack tiny 0.9", "is tiny 1.0", "replay it with the pack it was saved with"])
    }

    func testHistoryOfAPackThatIsGone() throws {
        let text = try savedHistory()
        try FileManager.default.removeItem(at: scratch.appendingPathComponent("tiny"))
        try write(text, to: "orphan.json")
        try FileManager.default.removeItem(at: scratch.appendingPathComponent("good.json"))
        try expectBadInput(["replay", "orphan.json"], naming: ["unknown rule pack", "pack.lua"])
    }

    func testMissingHistoryFile() throws {
        try expectBadInput(["replay", "nowhere.json"], naming: ["nowhere.json", "cannot read"])
    }

    // MARK: Broken packs, through fuzz and explore

    /// Both pack commands refuse the pack with exit 2, naming `names`, and
    /// fuzz creates neither its --out nor its --corpus folder.
    private func expectBrokenPack(_ folder: String, naming names: [String], line: Int? = nil,
                                  file: StaticString = #filePath, testLine: UInt = #line) throws {
        try expectBadInput(["fuzz", folder, "--runs", "1", "--depth", "1", "--out", "findings", "--corpus", "corpus"],
                           naming: names, line: line, file: file, testLine: testLine)
        try expectBadInput(["explore", folder, "--depth", "1"], naming: names, line: line, file: file, testLine: testLine)
    }

    func testPackWithoutManifest() throws {
        try write("return { apply = function() end }\n", to: "headless/actions/inc.lua")
        try expectBrokenPack("headless", naming: ["unknown rule pack 'headless'", "headless/pack.lua"])
    }

    func testManifestReturningTheWrongType() throws {
        try write("-- a manifest must return a table\nreturn 42\n", to: "number/pack.lua")
        try expectBrokenPack("number", naming: ["number/pack.lua", "pack.lua must return a table, not a number"])
        try write("return { name = 7 }\n", to: "badname/pack.lua")
        try expectBrokenPack("badname", naming: ["badname/pack.lua", "field 'name' of the pack must be a string"])
        try write("return { name = 'x', setup = 'not a function' }\n", to: "badsetup/pack.lua")
        try expectBrokenPack("badsetup", naming: ["badsetup/pack.lua", "field 'setup' of the pack must be a function"])
    }

    func testActionReturningTheWrongType() throws {
        try writeGoodPack("wrongaction")
        try write("return \"apply\"\n", to: "wrongaction/actions/move.lua")
        try expectBrokenPack("wrongaction", naming: ["wrongaction/actions/move.lua", "must return a table, not a string"])
        try writeGoodPack("noapply")
        try write("return { apply = 3 }\n", to: "noapply/actions/move.lua")
        try expectBrokenPack("noapply", naming: ["noapply/actions/move.lua", "field 'apply' of the action must be a function"])
    }

    func testSyntaxErrorNamesFileAndLine() throws {
        try writeGoodPack("syntax")
        try write("return {\n  apply = function(game)\n    game.n = = 1\n  end,\n}\n", to: "syntax/actions/move.lua")
        try expectBrokenPack("syntax", naming: ["syntax/actions/move.lua"], line: 3)
    }

    func testActionNamesThatDifferOnlyInCase() throws {
        try writeGoodPack("twins")
        try write("return { apply = function(game) game.n = 1 end }\n", to: "twins/actions/Move.lua")
        try write("return { apply = function(game) game.n = 2 end }\n", to: "twins/actions/move.lua")
        try expectBrokenPack("twins", naming: ["twins/actions/move.lua", "duplicate action: 'move' and 'Move' differ only in case"])
    }

    func testActionNameThatIsNotAPlainName() throws {
        try writeGoodPack("dashed")
        try write("return { apply = function() end }\n", to: "dashed/actions/jet-pack.lua")
        try expectBrokenPack("dashed", naming: ["dashed/actions/jet-pack.lua", "must be a plain name"])
    }

    func testExtendsCycle() throws {
        try write("return { name = 'a', extends = 'b' }\n", to: "rules/a/pack.lua")
        try write("return { name = 'b', extends = 'c' }\n", to: "rules/b/pack.lua")
        try write("return { name = 'c', extends = 'a' }\n", to: "rules/c/pack.lua")
        try expectBrokenPack("rules/a", naming: ["'extends' makes a cycle", "rules/a -> rules/b -> rules/c -> rules/a"])
        try write("return { name = 'self', extends = 'self' }\n", to: "rules/self/pack.lua")
        try expectBrokenPack("rules/self", naming: ["'extends' makes a cycle", "rules/self -> rules/self"])
    }

    func testExtendsAMissingPack() throws {
        try write("return { name = 'orphan', extends = 'ghost' }\n", to: "rules/orphan/pack.lua")
        try expectBrokenPack("rules/orphan", naming: ["rules/orphan/pack.lua", "extends unknown pack 'ghost'"])
    }

    func testManifestThatLoopsOrBlowsUpMemory() throws {
        try write("while true do end\nreturn { name = 'spin' }\n", to: "spin/pack.lua")
        try expectBrokenPack("spin", naming: ["spin/pack.lua", "instruction budget exceeded"], line: 1)
        try write("error(setmetatable({}, { __tostring = function() while true do end end }))\n", to: "thrower/pack.lua")
        try expectBrokenPack("thrower", naming: ["thrower/pack.lua", "error object is a table value"], line: 1)
    }

    func testEmptyAndBinaryManifests() throws {
        try write("", to: "blank/pack.lua")
        try expectBrokenPack("blank", naming: ["blank/pack.lua", "must return a table, not nothing"])
        try Data([0x1b, 0x4c, 0x75, 0x61, 0x54, 0x00, 0x19, 0x93]).write(to: scratch.appendingPathComponent("bytecode/pack.lua")
            .creatingFolder())
        try expectBrokenPack("bytecode", naming: ["bytecode/pack.lua"])
    }

    // MARK: Scenario files and reports

    func testTruncatedScenarioFile() throws {
        try writeGoodPack("rules/tiny")
        try write("""
            scenario: counting
            rules: tiny
            steps:
              - do: inc
                expect: { state: { "n": 1
            """, to: "scenarios/tiny/cut.yaml")
        let result = try RulebenchCommand.run(["run", "scenarios/tiny/cut.yaml"], in: scratch)
        XCTAssertEqual(result.status, 2, result.output)
        XCTAssertTrue(result.output.contains("scenarios/tiny/cut.yaml:6:"), result.output)
        XCTAssertFalse(result.output.contains("stack traceback"), result.output)
        XCTAssertFalse(result.output.contains("Fatal error"), result.output)
    }

    func testJUnitReportIntoAMissingFolderLeavesNothingBehind() throws {
        try writeGoodPack("rules/tiny")
        try write("""
            scenario: counting
            rules: tiny
            steps:
              - do: inc
                expect: { state: { "n": 1 } }
            """, to: "scenarios/tiny/ok.yaml")
        try expectBadInput(["run", "scenarios/tiny/ok.yaml", "--junit", "reports/missing/junit.xml"],
                           naming: ["reports/missing/junit.xml", "cannot write the JUnit report"])
    }
}

private extension URL {
    /// Creates the folder this file goes in, and returns the URL.
    func creatingFolder() throws -> URL {
        try FileManager.default.createDirectory(at: deletingLastPathComponent(), withIntermediateDirectories: true)
        return self
    }
}
