import XCTest
@testable import Rulebench

/// The examples of docs/lua-api.md and docs/scenarios.md that describe
/// behaviour, run: moving tables (the pile), a plain table assigned into
/// `game` (the pile's `lay_row`), undo's sound order,
/// `error(msg, 0)`'s prefix, `state --json`'s table encoding and absolute
/// `rules:` paths. The scenarios live in `Fixtures/scenarios/docs`.
final class DocExampleTests: XCTestCase {
    static let docs = ScenarioFixtures.folder.appendingPathComponent("docs")

    private func text(of path: String) throws -> String {
        try String(contentsOf: ScenarioFixtures.repository.appendingPathComponent(path), encoding: .utf8)
    }

    func testEveryDocScenarioPasses() throws {
        let files = ScenarioFixtures.yamlFiles(in: Self.docs)
        XCTAssertEqual(Set(files.map(\.lastPathComponent)), ["moving-tables.yaml", "undo-sound-order.yaml", "error-level-zero.yaml",
                                                        "plain-table-becomes-state.yaml"])
        for url in files {
            let report = ScenarioFixtures.runner.run(fileAt: url)
            XCTAssertEqual(report.status, .passed, TextReport.render(report))
        }
    }

    func testThePileExampleInTheDocsIsTheOneTheScenarioRuns() throws {
        let docs = try text(of: "docs/lua-api.md")
        let trap = try text(of: "Tests/RulebenchTests/Fixtures/packs/pile/actions/trap.lua")
        for line in ["game.board[sq] = pile[#pile]", "pile[#pile] = nil"] {
            XCTAssertTrue(docs.contains(line), line)
            XCTAssertTrue(trap.contains(line.replacingOccurrences(of: "[sq]", with: "[a.sq]")), line)
        }
    }

    /// docs/lua-api.md's table of pack.lua's fields names every field the
    /// kernel accepts (`MANIFEST` in packload.lua), and no other.
    func testThePackFieldsTableListsWhatAPackMayHold() throws {
        let loader = try text(of: "Sources/Rulebench/Kernel/packload.lua")
        let start = try XCTUnwrap(loader.range(of: "local MANIFEST = {"))
        let end = try XCTUnwrap(loader.range(of: "}", range: start.upperBound..<loader.endIndex))
        let accepted = Set(loader[start.upperBound..<end.lowerBound].split(separator: ",").compactMap {
            $0.split(separator: "=").first?.trimmingCharacters(in: .whitespacesAndNewlines)
        })
        let docs = try text(of: "docs/lua-api.md")
        let table = try XCTUnwrap(docs.components(separatedBy: "## pack.lua").dropFirst().first?
            .components(separatedBy: "\n\n").first { $0.hasPrefix("| Field |") })
        let documented = Set(table.split(separator: "\n").dropFirst(2).compactMap { row in
            row.split(separator: "`").dropFirst().first.map(String.init)
        })
        XCTAssertEqual(documented, accepted)
        XCTAssertGreaterThan(accepted.count, 10)
    }

    func testStateJSONWritesOtherTablesAsDollarTable() throws {
        let value = StateValue.table([.int(1): .string("a"), .int(5): .string("b"), .string("x"): .bool(true)])
        let json = JSONValue(value).serialized(pretty: false)
        XCTAssertEqual(json, #"{"$table":[[1,"a"],[5,"b"],["x",true]]}"#)
        XCTAssertEqual(JSONValue(value).stateValue, value, "read back")
        let docs = try text(of: "docs/scenarios.md").replacingOccurrences(of: " ", with: "")
        XCTAssertTrue(docs.contains(json), "docs/scenarios.md shows the same encoding")
        XCTAssertEqual(JSONValue(.list([.int(1), .double(1)])).serialized(pretty: false), "[1,1.0]")
    }

    func testRulesMayBeAnAbsolutePath() throws {
        let folder = try scratchFolder("absolute-rules")
        let pile = ScenarioFixtures.repository.appendingPathComponent("Tests/RulebenchTests/Fixtures/packs/pile").path
        let scenario = folder.appendingPathComponent("absolute.yaml")
        try """
            scenario: rules given as an absolute path
            rules: \(pile)
            steps:
              - do: deal
                with: { sq: e4 }
                expect: { state: { board.e4.name: c } }
            """.write(to: scenario, atomically: true, encoding: .utf8)
        let report = ScenarioFixtures.runner.run(fileAt: scenario)
        XCTAssertEqual(report.status, .passed, TextReport.render(report))
    }
}
