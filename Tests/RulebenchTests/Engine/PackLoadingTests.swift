import XCTest
@testable import Rulebench

/// Loading packs: extends, modules per pack, and load errors that name the file and line.
final class PackLoadingTests: XCTestCase {
    private func load(_ name: String) throws -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        return try Game(pack: EngineFixtures.folder.appendingPathComponent(name).path, configuration: configuration)
    }

    private func loadError(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> InputProblem? {
        do {
            _ = try load(name)
            XCTFail("\(name) loaded", file: file, line: line)
        } catch RulebenchError.packLoad(let problem) {
            return problem
        } catch RulebenchError.badInput(let problem) {
            return problem
        } catch {
            XCTFail("\(name): \(error)", file: file, line: line)
        }
        return nil
    }

    func testExtendsInheritsAndOverrides() throws {
        let game = try load("derived")
        XCTAssertEqual(game.pack.name, "derived")
        XCTAssertEqual(game.pack.version, "2.0")
        XCTAssertEqual(game.pack.extends, "lab")
        XCTAssertTrue(game.pack.actions.keys.contains("draw"), "inherited")
        XCTAssertEqual(game.pack.invariants, ["counter_below_100", "counter_is_even_or_small"])
        try game.perform("inc")
        XCTAssertEqual(try game.state(at: "counter"), .int(10), "overridden")
        try game.perform("double")
        XCTAssertEqual(try game.state(at: "counter"), .int(20), "base modules are reachable from the derived pack")
        try game.undo()
        try game.undo()
        XCTAssertEqual(try game.state(at: "counter"), .int(0))
    }

    /// The folders a pack was loaded from are its own and its base's, so a
    /// tool that follows the pack's files (the studio's live reload) sees a
    /// base pack's files too.
    func testAPacksFoldersAndFilesIncludeItsBase() throws {
        let game = try load("derived")
        let derived = EngineFixtures.folder.appendingPathComponent("derived").standardizedFileURL
        let base = EngineFixtures.folder.appendingPathComponent("lab").standardizedFileURL
        XCTAssertEqual(game.packFolders.map(\.path), [derived.path, base.path])
        let files = game.packFileTimes().keys
        XCTAssertTrue(files.contains(base.appendingPathComponent("pack.lua").path), "\(files.sorted())")
        XCTAssertTrue(files.contains(derived.appendingPathComponent("actions/inc.lua").path), "\(files.sorted())")
    }

    /// A pack in a temporary folder: pack.lua, `actions` (name -> source)
    /// and `modules` (file -> source) written there; `outside` a file beside
    /// the pack, for links to point at.
    private func temporaryPack(actions: [String: String], modules: [String: String] = [:]) throws -> (pack: URL, outside: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-links-\(UUID().uuidString)")
        let pack = root.appendingPathComponent("pack")
        try FileManager.default.createDirectory(at: pack.appendingPathComponent("actions"), withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        try "return { name = 'links', setup = function(game) game.n = 0 end }".write(to: pack.appendingPathComponent("pack.lua"), atomically: true, encoding: .utf8)
        for (name, source) in actions {
            try source.write(to: pack.appendingPathComponent("actions/\(name).lua"), atomically: true, encoding: .utf8)
        }
        for (file, source) in modules { try source.write(to: pack.appendingPathComponent(file), atomically: true, encoding: .utf8) }
        let outside = root.appendingPathComponent("secret.lua")
        try "return { apply = function(game) game.n = 42 end }".write(to: outside, atomically: true, encoding: .utf8)
        return (pack, outside)
    }

    /// Files are not read through a symbolic link that leaves the pack (a
    /// host file's contents must not reach the game); links inside it are.
    func testSymbolicLinksOutOfThePackAreRefused() throws {
        let fm = FileManager.default
        // An action file that is a link to a file outside.
        let (pack, outside) = try temporaryPack(actions: [:])
        try fm.createSymbolicLink(at: pack.appendingPathComponent("actions/leak.lua"), withDestinationURL: outside)
        XCTAssertThrowsError(try Game(pack: pack.path)) { error in
            guard case RulebenchError.packLoad(let problem) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(problem.message.contains("outside the pack's folder"), problem.message)
            XCTAssertEqual(problem.file?.hasSuffix("actions/leak.lua"), true, "\(problem)")
        }
        // A module that is a link to a file outside: refused when required.
        let modular = try temporaryPack(actions: ["use": "local m = require('helper')\nreturn { apply = function(game) game.n = 1 end }"])
        try fm.createSymbolicLink(at: modular.pack.appendingPathComponent("helper.lua"), withDestinationURL: modular.outside)
        XCTAssertThrowsError(try Game(pack: modular.pack.path)) { error in
            XCTAssertTrue("\(error)".contains("outside the pack's folder"), "\(error)")
        }
        // A link that stays inside the pack is an ordinary file of it.
        let inside = try temporaryPack(actions: [:], modules: ["real.lua": "return { apply = function(game) game.n = 7 end }"])
        try fm.createSymbolicLink(at: inside.pack.appendingPathComponent("actions/alias.lua"),
                                  withDestinationURL: inside.pack.appendingPathComponent("real.lua"))
        let game = try Game(pack: inside.pack.path)
        try game.perform("alias")
        XCTAssertEqual(try game.state(at: "n"), .int(7))
    }

    func testSyntaxErrorNamesFileAndLine() {
        let problem = loadError("syntax")
        XCTAssertEqual(problem?.file?.hasSuffix("syntax/actions/broken.lua"), true, "\(String(describing: problem))")
        XCTAssertEqual(problem?.line, 3)
        XCTAssertTrue(problem?.message.contains("unexpected symbol") == true, "\(String(describing: problem))")
    }

    /// The search for the line of a misspelled field is the kernel's work,
    /// not the pack's: it must not spend the load's instruction budget (on
    /// the desert pack's pack.lua it did, through the guarded pattern
    /// functions, and the error read "instruction budget exceeded").
    func testAnUnknownFieldAtTheEndOfALongPackFileNamesItsLine() throws {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("rulebench-field-\(UUID().uuidString)")
        addTeardownBlock { try? fm.removeItem(at: root) }
        try fm.createDirectory(at: root, withIntermediateDirectories: true)
        let pack = root.appendingPathComponent("desert")
        try fm.copyItem(at: EngineFixtures.repository.appendingPathComponent("rules/desert"), to: pack)
        let manifest = pack.appendingPathComponent("pack.lua")
        var source = try String(contentsOf: manifest, encoding: .utf8)
        while source.hasSuffix("\n") { source.removeLast() }
        // The manifest is a typed local (`---@type rulebench.Pack`) returned at the end.
        let tail = "\nreturn pack"
        XCTAssertTrue(source.hasSuffix(tail), "pack.lua ends by returning its table")
        source.removeLast(tail.count)
        XCTAssertEqual(source.popLast(), "}", "pack.lua's table ends with its closing brace")
        source += "  colour = \"ochre\",\n}\nreturn pack\n"
        try source.write(to: manifest, atomically: true, encoding: .utf8)
        let line = source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex(of: "  colour = \"ochre\",")! + 1
        XCTAssertThrowsError(try Game(pack: pack.path)) { error in
            guard case RulebenchError.packLoad(let problem) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(problem.message.contains("unknown field 'colour' in the pack"), problem.message)
            XCTAssertEqual(problem.line, line, "\(problem)")
        }
    }

    /// A misspelled pack name says what it looked for and which packs there
    /// are, and carries them as a typed subject (a scenario words it again at
    /// its `rules:` line without reading the message).
    func testAnUnknownPackIsTypedAndSuggestsTheClosestPack() {
        XCTAssertThrowsError(try Game(pack: "dessert", relativeTo: EngineFixtures.repository)) { error in
            guard case .unknownPack(let name, let available)? = (error as? RulebenchError)?.inputProblem?.subject else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(name, "dessert")
            XCTAssertTrue(available.contains("desert") && available.contains("template"), "\(available)")
            XCTAssertTrue("\(error)".contains("did you mean 'desert'?"), "\(error)")
        }
    }

    func testExtendsCycleIsRefused() {
        let problem = loadError("cycle_a")
        XCTAssertTrue(problem?.message.contains("cycle") == true, "\(String(describing: problem))")
    }

    func testWrongReturnTypesAndUnknownFields() {
        let nothing = loadError("badreturn")
        XCTAssertEqual(nothing?.file?.hasSuffix("badreturn/actions/nothing.lua"), true, "\(String(describing: nothing))")
        XCTAssertTrue(nothing?.message.contains("must return a table") == true)
        let typo = loadError("typo")
        XCTAssertTrue(typo?.message.contains("unknown field 'chek'") == true, "\(String(describing: typo))")
        XCTAssertTrue(typo?.message.contains("did you mean 'check'") == true)
    }

    func testMissingPackIsBadInput() {
        let missing = loadError("nomanifest")
        XCTAssertTrue(missing?.message.contains("pack.lua") == true, "\(String(describing: missing))")
        XCTAssertThrowsError(try Game(pack: "no-such-pack-anywhere"))
    }
}
