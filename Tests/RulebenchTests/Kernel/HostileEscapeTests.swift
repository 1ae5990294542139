import Foundation
import XCTest
@testable import Rulebench

/// Escapes from the sandbox's names: a chunk name given to `load` never reaches a
/// coverage report (whose `SF:` lines `genhtml` would read), and `extends`
/// finds base packs only beside the pack asked for, saying nothing about
/// what exists elsewhere.
final class HostileEscapeTests: XCTestCase {
    func testCoverageNamesOnlyThePacksOwnFiles() throws {
        let pack = try temporaryPack(["named": """
            return {
              legal = function(game, emit) emit({}) end,
              apply = function(game)
                load("local x = 1\\nreturn x", "@/etc/passwd")()
                load("return 2", "=/etc/hostname")()
                load("return 3", "@" .. "../../secret.lua")()
                local ok, message = pcall(load("error('from a chunk')", "@/etc/shadow"))
                game.message = message
              end,
            }
            """], manifest: "return { name = 'named', version = '1' }")
        var options = Fuzzer.Options(pack: pack.path)
        options.runs = 3
        options.depth = 2
        options.coverage = true
        options.configuration.printHandler = { _ in }
        let fuzzer = Fuzzer(options: options)
        _ = fuzzer.run()
        let report = try XCTUnwrap(try fuzzer.coverage())
        let lcov = report.lcov()
        let files = lcov.split(separator: "\n").filter { $0.hasPrefix("SF:") }.map { String($0.dropFirst(3)) }
        XCTAssertFalse(files.isEmpty, lcov)
        for file in files {
            XCTAssertTrue(URL(fileURLWithPath: file).standardizedFileURL.path.hasPrefix(pack.standardizedFileURL.path + "/")
                          || file.hasPrefix(pack.path), "a file outside the pack in the tracefile: \(file)")
        }
        XCTAssertFalse(lcov.contains("/etc/"), lcov)
        XCTAssertFalse(lcov.contains("secret"), lcov)

        // The name still shows in messages, as the rule gave it.
        let game = try Game(pack: pack.path)
        try game.perform("named")
        XCTAssertEqual(try game.state(at: "message"), .string("/etc/shadow:1: from a chunk"))
    }

    /// A root folder with a pack `a`, a folder `outside` beside the root
    /// holding a real pack `b`.
    private func packsWithAnOutside() throws -> (root: URL, outside: URL) {
        let top = try scratchFolder("extends")
        let root = top.appendingPathComponent("rules"), outside = top.appendingPathComponent("outside")
        for folder in [root.appendingPathComponent("base/actions"), outside.appendingPathComponent("b/actions")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try "return { name = 'base', version = '1' }".write(to: root.appendingPathComponent("base/pack.lua"), atomically: true, encoding: .utf8)
        try "return { name = 'b', version = '1' }".write(to: outside.appendingPathComponent("b/pack.lua"), atomically: true, encoding: .utf8)
        return (root, outside)
    }

    private func loadError(extending extends: String, in root: URL) throws -> String {
        let folder = root.appendingPathComponent("a")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("actions"), withIntermediateDirectories: true)
        try "return { name = 'a', version = '1', extends = '\(extends)' }"
            .write(to: folder.appendingPathComponent("pack.lua"), atomically: true, encoding: .utf8)
        do {
            _ = try Game(pack: folder.path)
            return ""
        } catch {
            return error.description
        }
    }

    func testExtendsResolvesOnlyInsideThePacksFolder() throws {
        let (root, outside) = try packsWithAnOutside()
        XCTAssertEqual(try loadError(extending: "base", in: root), "", "a base pack beside it loads")

        let existing = try loadError(extending: "../outside/b", in: root)
        XCTAssertTrue(existing.contains("extends unknown pack '../outside/b'"), existing)
        XCTAssertTrue(existing.contains("a/pack.lua"), existing)
        // The same message whether the path exists outside or not: no probing.
        let missing = try loadError(extending: "../outside/nothing", in: root)
        XCTAssertEqual(missing.replacingOccurrences(of: "nothing", with: "b"), existing)
        let deep = try loadError(extending: "../../../../../../etc", in: root)
        XCTAssertEqual(deep.replacingOccurrences(of: "../../../../../../etc", with: "../outside/b"), existing)

        // A symbolic link inside the root that leads out is outside too.
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("linked"), withDestinationURL: outside.appendingPathComponent("b"))
        let linked = try loadError(extending: "linked", in: root)
        XCTAssertTrue(linked.contains("extends unknown pack 'linked'"), linked)
    }
}
