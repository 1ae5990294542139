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

    func testSyntaxErrorNamesFileAndLine() {
        let problem = loadError("syntax")
        XCTAssertEqual(problem?.file?.hasSuffix("syntax/actions/broken.lua"), true, "\(String(describing: problem))")
        XCTAssertEqual(problem?.line, 3)
        XCTAssertTrue(problem?.message.contains("unexpected symbol") == true, "\(String(describing: problem))")
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
