import Foundation
import XCTest
@testable import Rulebench

/// A scenario worker keeps its game for the next scenario of the same pack
/// (`ScenarioGames`): the reports are those of a new game per scenario,
/// nothing a pack keeps outside the game state leaks from one scenario to
/// the next, and a game is made again only for another pack or after a
/// scenario that did not pass.
final class ScenarioGamesTests: XCTestCase {
    private var scratch: URL!
    private static let counter = EngineFixtures.repository.appendingPathComponent("Tests/RulebenchTests/Fixtures/packs/counter").path

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-games-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch.appendingPathComponent("tally/actions"), withIntermediateDirectories: true)
        // A pack that counts its setups in a module-level variable: a game
        // restarted without its modules run afresh would say 2 the second
        // time; one not set up again would have 2 bumps.
        try Data("""
            local setups = 0
            return {
              name = "tally", version = "1",
              setup = function(game) setups = setups + 1; game.setups = setups; game.bumps = 0 end,
            }
            """.utf8).write(to: scratch.appendingPathComponent("tally/pack.lua"))
        try Data("return { apply = function(game) game.bumps = game.bumps + 1 end }\n".utf8)
            .write(to: scratch.appendingPathComponent("tally/actions/bump.lua"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Writes a scenario file; returns it as an item of a run.
    private func scenario(_ name: String, _ text: String) throws -> ScenarioFiles.Item {
        let url = scratch.appendingPathComponent(name + ".yaml")
        try Data(text.utf8).write(to: url)
        return ScenarioFiles.Item(url: url, display: name + ".yaml")
    }

    private func tally(_ name: String) throws -> ScenarioFiles.Item {
        try scenario(name, "scenario: \(name)\nrules: \(scratch.appendingPathComponent("tally").path)\nsteps:\n"
                     + "  - do: bump\n    expect: { state: { setups: 1, bumps: 1 } }\n")
    }

    private func counter(_ name: String, count: Int) throws -> ScenarioFiles.Item {
        try scenario(name, "scenario: \(name)\nrules: \(Self.counter)\nsetup:\n  options: { start: 4 }\nsteps:\n"
                     + "  - do: add\n    with: { n: 1 }\n    expect: { state: { count: \(count) } }\n")
    }

    /// Runs `items` in order on one worker's `ScenarioGames`; the statuses and how many games were made.
    private func play(_ items: [ScenarioFiles.Item]) -> (statuses: [ScenarioReport.Status], made: Int) {
        let games = ScenarioGames(configuration: Game.Configuration())
        let statuses = items.map { ScenarioRunner().run(fileAt: $0.url, displayPath: $0.display, games: games).status }
        return (statuses, games.made)
    }

    func testAPacksScenariosShareOneGameAndStartAfresh() throws {
        let run = play([try tally("a"), try tally("b"), try tally("c")])
        XCTAssertEqual(run.statuses, [.passed, .passed, .passed], "a pack's module state leaked into the next scenario")
        XCTAssertEqual(run.made, 1, "each scenario made its own game")
    }

    func testAnotherPackOrAFailureMakesTheGameAgain() throws {
        let passes = try counter("passes", count: 5), fails = try counter("fails", count: 99)
        let run = play([passes, passes, try tally("other"), passes, fails, passes])
        XCTAssertEqual(run.statuses, [.passed, .passed, .passed, .passed, .failed, .passed])
        XCTAssertEqual(run.made, 4, "counter, tally, counter, then counter again after the failure")
    }

    func testKeptGamesGiveTheReportsOfNewOnes() throws {
        let paths = ["scenarios", "Tests/RulebenchTests/Fixtures/scenarios"].map { EngineFixtures.repository.appendingPathComponent($0).path }
        let items = [try counter("fails", count: 99), try counter("passes", count: 5)] + ScenarioFiles.collect(paths).items
        func rendered(_ runner: ScenarioRunner) -> [String] {
            let reports = runner.run(items, on: WorkerPool(workers: 1)).map { report -> ScenarioReport in
                var report = report
                report.duration = 0
                return report
            }
            let run = RunReport(scenarios: reports, duration: 0)
            return [TextReport.render(run), JSONReport.render(run)]
        }
        var fresh = ScenarioRunner()
        fresh.reusesGames = false
        let kept = rendered(ScenarioRunner())
        XCTAssertTrue(kept[0].contains("PASS") && kept[0].contains("FAIL"), kept[0])
        XCTAssertEqual(kept, rendered(fresh))
    }
}
