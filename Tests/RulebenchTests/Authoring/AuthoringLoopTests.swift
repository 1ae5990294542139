import Foundation
import XCTest
@testable import Rulebench

/// The authoring loop: `play`'s hash and scenario save (round trip through
/// `rulebench run`), its undo count, and `rulebench state`.
final class AuthoringLoopTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-loop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    private var template: String { ScenarioFixtures.repository.appendingPathComponent("rules/template").path }

    private func session(_ lines: [String]) throws -> (PlaySession, String) {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        var output = ""
        let session = PlaySession(game: try Game(pack: template, seed: 1, configuration: configuration)) { output += $0 }
        var input = lines.makeIterator()
        session.run { input.next() }
        return (session, output)
    }

    func testPlaySavesAScenarioThatRunPasses() throws {
        let file = scratch.appendingPathComponent("played.yaml")
        let (session, output) = try session(["dash token=p1", "step token=p2", "step token=p1", "undo", "hash", "save \(file.path)"])
        XCTAssertEqual(session.errorCount, 0, output)
        let hash = try session.game.liveStateHash().hex
        XCTAssertTrue(output.contains("hash: \"\(hash)\""), output)
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains("hash: \"\(hash)\""), text)
        XCTAssertEqual(text.components(separatedBy: "- do:").count - 1, 2, "the undone step is left out:\n\(text)")
        let report = ScenarioFixtures.runner.run(fileAt: file)
        XCTAssertEqual(report.status, .passed, TextReport.render(report))
    }

    func testUndoOfMoreThanThereIsUndoesNothing() throws {
        let (session, output) = try session(["dash token=p1", "step token=p2", "undo 5", "step x"])
        XCTAssertEqual(session.game.history.cursor, 2, output)
        XCTAssertTrue(output.contains("error: only 2 actions can be undone: undo 2"), output)
        XCTAssertFalse(output.contains("nothing to undo"), output)
        XCTAssertTrue(output.contains("(e.g. step token="), output)
    }

    func testStatePrintsTheHashAfterAStep() throws {
        let scenario = ScenarioFixtures.passing.appendingPathComponent("sets-game-over.yaml")
        let result = try RulebenchCommand.run(["state", scenario.path, "--step", "3", "--path", "table"], in: ScenarioFixtures.repository)
        XCTAssertEqual(result.status, 0, result.output)
        let parsed = try ScenarioParser.parse(contentsOf: scenario)
        let state = try ScenarioState.after(parsed, directory: scenario.deletingLastPathComponent(), step: 3)
        XCTAssertTrue(result.stdout.hasPrefix("hash: \"\(state.hash.hex)\"  (after step 3"), result.stdout)
        XCTAssertTrue(result.stdout.contains("\"id\": \"3r\""), result.stdout)
        let json = try RulebenchCommand.run(["state", scenario.path, "--step", "0", "--json"], in: ScenarioFixtures.repository)
        XCTAssertEqual(json.status, 0, json.output)
        XCTAssertTrue(json.stdout.contains("\"step\": 0"), json.stdout)
        let bad = try RulebenchCommand.run(["state", scenario.path, "--step", "99"], in: ScenarioFixtures.repository)
        XCTAssertEqual(bad.status, 2, bad.output)
        XCTAssertTrue(bad.stderr.contains("has no step 99"), bad.stderr)
    }

    func testOptionTyposOnTheCommandLineGetASuggestion() throws {
        let result = try RulebenchCommand.run(["explore", "template", "--depth", "1", "--option", "player=3"], in: ScenarioFixtures.repository)
        XCTAssertEqual(result.status, 2, result.output)
        XCTAssertTrue(result.stderr.contains("option 'player' is not an option of pack 'template'; did you mean 'players'?"), result.stderr)
    }
}
