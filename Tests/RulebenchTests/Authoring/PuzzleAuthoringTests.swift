import XCTest
@testable import Rulebench

/// What authors of draughts and puzzle packs tripped over (issue 33), each
/// kept fixed: setup options typed by declaration, taking back a turn when
/// every move is a checkpoint, goals expected not to hold, explore's divide.
/// The fixture is `Fixtures/packs/slide`, a one-row sliding puzzle.
final class PuzzleAuthoringTests: XCTestCase {
    static let slide = ScenarioFixtures.repository.appendingPathComponent("Tests/RulebenchTests/Fixtures/packs/slide").path

    // MARK: --option typed by the option's declared type

    func testAStringOptionTakesDigitsExactlyAsWritten() throws {
        let info = try Game.packInfo(Self.slide)
        let typed = info.options(fromText: ["start": "012345678"])
        XCTAssertEqual(typed["start"], .string("012345678"))
        XCTAssertEqual(info.options(fromText: ["start": "867254301"])["start"], .string("867254301"))
        XCTAssertEqual(info.options(fromText: ["start": "'102345678'"])["start"], .string("102345678"), "quotes as before")
        let template = try Game.packInfo("template", configuration: Self.repositoryRules())
        XCTAssertEqual(template.options(fromText: ["players": "3"])["players"], .int(3), "an integer option still takes numbers")
    }

    func testTheCommandLineSetsAStringOptionUpAsWritten() throws {
        // With its leading zero the row is solved at the start; read as the
        // number 12345678 it would be refused (not a string), and without its
        // zero it would have no blank.
        let solved = try RulebenchCommand.run(["solve", Self.slide, "--goal", "solved", "--option", "start=012345678"],
                                              in: ScenarioFixtures.repository)
        XCTAssertEqual(solved.status, 0, solved.output)
        XCTAssertTrue(solved.stdout.contains("reached in 0 moves"), solved.stdout)
        let digits = try RulebenchCommand.run(["solve", Self.slide, "--goal", "solved", "--option", "start=120345678"],
                                              in: ScenarioFixtures.repository)
        XCTAssertTrue(digits.stdout.contains("reached in 2 moves"), digits.output)
        let numbers = try RulebenchCommand.run(["explore", "template", "--depth", "1", "--option", "players=3"], in: ScenarioFixtures.repository)
        XCTAssertEqual(numbers.status, 0, numbers.output)
        let wrong = try RulebenchCommand.run(["explore", "template", "--depth", "1", "--option", "players=three"], in: ScenarioFixtures.repository)
        XCTAssertEqual(wrong.status, 2, wrong.output)
        XCTAssertTrue(wrong.stderr.contains("option 'players' must be an integer"), wrong.stderr)
    }

    // MARK: Taking back the last turn

    func testUndoLastTurnTakesBackAWholeTurnAndUndoTurnStaysAtItsCheckpoint() throws {
        let game = try EngineFixtures.labGame()
        try game.perform("inc")
        try game.perform("checkpoint")
        try game.perform("inc", ["by": 2])
        try game.perform("checkpoint")
        let afterFirstTurn = game.history.entries[1].hash
        XCTAssertEqual(try game.undoTurn().count, 0, "undo turn keeps its meaning: the checkpoint stays")
        XCTAssertEqual(try game.undoLastTurn().map(\.entry.call.name), ["checkpoint", "inc"])
        XCTAssertEqual(game.stateHash, afterFirstTurn)
        try game.perform("inc")
        XCTAssertEqual(try game.undoLastTurn().map(\.entry.call.name), ["inc"], "within a turn: the turn under way")
        XCTAssertEqual(try game.undoLastTurn().map(\.entry.call.name), ["checkpoint", "inc"])
        XCTAssertThrowsError(try game.undoLastTurn(), "nothing to undo at the start") { XCTAssertTrue("\($0)".contains("nothing to undo")) }
        XCTAssertThrowsError(try game.undoTurn(), "nothing to undo at the start") { XCTAssertTrue("\($0)".contains("nothing to undo")) }
    }

    func testAScenarioTakesBackOneMoveWhenEveryMoveIsACheckpoint() throws {
        let url = ScenarioFixtures.folder.appendingPathComponent("slide/take-back-a-move.yaml")
        let report = ScenarioFixtures.runner.run(fileAt: url)
        XCTAssertEqual(report.status, .passed, TextReport.render(report))
        let parsed = try ScenarioParser.parse(contentsOf: url)
        XCTAssertEqual(parsed.steps.map(\.operation).filter { $0 == .undoLastTurn }.count, 3)
        let json = try ScenarioParser.json(try String(contentsOf: url, encoding: .utf8), file: url.path)
        XCTAssertEqual(try ScenarioSchemaTests.loadSchema().problems(json), [], "undo: last turn and not_goal are in the schema")
    }

    func testUndoTurnAtTheStartFailsLikeUndoOne() throws {
        let report = try ScenarioFixtures.run("""
            scenario: nothing to undo
            rules: ../packs/slide
            steps:
              - undo: turn
            """)
        XCTAssertEqual(report.status, .failed, TextReport.render(report))
        XCTAssertTrue(TextReport.render(report).contains("nothing to undo"), TextReport.render(report))
        XCTAssertNotNil(ScenarioFixtures.parseProblem("scenario: x\nrules: ../packs/slide\nsteps:\n  - undo: last trun\n"))
    }

    func testAFuzzTurnThatUndidNothingIsLeftOutOfItsReproduction() {
        XCTAssertEqual(Reproduction.stepLines(.undoTurn, outcome: .undone(0), isFailing: false, property: .undoMirrorsDo),
                       ["  # (undo turn with nothing to undo)"], "a scenario's undo: turn at the start is an error")
        XCTAssertEqual(Reproduction.stepLines(.undoTurn, outcome: .undone(2), isFailing: false, property: .undoMirrorsDo),
                       ["  - undo: turn"])
    }

    // MARK: Expecting that a goal does not hold

    func testNotGoalPassesWhenTheGoalDoesNotHoldAndFailsWhenItDoes() throws {
        func run(_ expect: String, start: String) throws -> String {
            TextReport.render(try ScenarioFixtures.run("""
                scenario: not_goal
                rules: ../packs/slide
                setup:
                  options: { start: "\(start)" }
                steps:
                  - expect: \(expect)
                """))
        }
        XCTAssertTrue(try run("{ not_goal: solved }", start: "102345678").contains("PASS"))
        let solved = try run("{ not_goal: solved }", start: "012345678")
        XCTAssertTrue(solved.contains("FAIL") && solved.contains("the goal 'solved' not to hold") && solved.contains("it holds"), solved)
        XCTAssertTrue(try run("{ goal: solved }", start: "102345678").contains("it does not hold"))
        let unknown = ScenarioFixtures.parseProblem("scenario: x\nrules: ../packs/slide\nsteps:\n  - expect: { not_goal: solved, goal: solved }\n")
        XCTAssertTrue(unknown?.contains("a goal either holds or does not") == true, unknown ?? "parsed")
        let misspelt = TextReport.render(try ScenarioFixtures.run("scenario: x\nrules: ../packs/slide\nsteps:\n  - expect: { not_goal: solvd }\n"))
        XCTAssertTrue(misspelt.contains("unknown goal 'solvd'"), misspelt)
    }

    // MARK: explore --divide

    func testADividedWalkCountsWhatTheWholeWalkCountsAndItsFirstActionsSumToTheLastLevel() throws {
        let chess = ScenarioFixtures.repository.appendingPathComponent("Benchmarks/packs/chess").path
        for (pack, depth) in [(chess, 3), (Self.slide, 4)] {
            let game = try Game(pack: pack, seed: 1)
            let whole = try Explorer(game: game, depth: depth).run()
            var heard: [Int] = []
            let divided = try Explorer(game: game, depth: depth).runDivided(progress: { done, _, _ in heard.append(done) })
            XCTAssertEqual(divided.counts.nodes, whole.nodes, pack)
            XCTAssertEqual(divided.byFirstAction.map(\.count).reduce(0, +), whole.nodes[depth - 1], pack)
            XCTAssertEqual(divided.byFirstAction.map(\.call), try game.legalActions(), pack)
            XCTAssertEqual(heard, Array(1...divided.byFirstAction.count), "progress after each first action")
            XCTAssertTrue(game.history.isAtStart, "the game is back where it began")
        }
    }

    func testExploreDividePrintsPerMoveCountsThatSumToTheTotal() throws {
        let result = try RulebenchCommand.run(["explore", "Benchmarks/packs/chess", "--depth", "2", "--divide"], in: ScenarioFixtures.repository)
        XCTAssertEqual(result.status, 0, result.output)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let perMove = lines.filter { $0.hasPrefix("move ") }.compactMap { Int($0.split(separator: " ").last ?? "") }
        XCTAssertEqual(perMove.count, 20, result.stdout)
        XCTAssertEqual(perMove.reduce(0, +), 400)
        XCTAssertTrue(lines.contains("depth 2: 400") && lines.contains("total: 400 sequences of length 2"), result.stdout)
    }

    // MARK: explore --no-invariants

    /// A pack whose invariant fails from depth 3 on; with `leak`, an action
    /// whose undo forgets its write.
    private func steppingPack(leak: Bool) throws -> String {
        let step = """
            return {
              legal = function(game, emit) emit{} end,
              apply = function(game) game.n = game.n + 1\(leak ? "; game.trail = (game.trail or 0) + 1" : "") end,
              undo = function(game) game.n = game.n - 1 end,
              animate = function(anim) error("plans are built") end,
            }
            """
        let manifest = """
            return {
              name = "stepping", version = "1",
              setup = function(game) game.n = 0 end,
              invariants = { small = function(game) return game.n < 3, "n reached " .. game.n end },
            }
            """
        return try temporaryPack(["step": step], manifest: manifest).path
    }

    func testNoInvariantsCountsWithoutInvariantsOrPlansButStillVerifiesUndo() throws {
        let pack = try steppingPack(leak: false)
        var configuration = Game.Configuration()
        configuration.animationSources = false
        XCTAssertThrowsError(try Explorer(game: try Game(pack: pack, configuration: configuration), depth: 4).run(),
                             "invariants and plans run by default")
        configuration.checksInvariants = false
        let counts = try Explorer(game: try Game(pack: pack, configuration: configuration), depth: 4).run()
        XCTAssertEqual(counts.nodes, [1, 1, 1, 1])
        let leaky = try Game(pack: try steppingPack(leak: true), configuration: configuration)
        XCTAssertThrowsError(try Explorer(game: leaky, depth: 4).run(), "undo is still verified") {
            XCTAssertTrue("\($0)".contains("trail"), "\($0)")
        }
        let cli = try RulebenchCommand.run(["explore", pack, "--depth", "4", "--no-invariants"], in: ScenarioFixtures.repository)
        XCTAssertEqual(cli.status, 0, cli.output)
        XCTAssertTrue(cli.stdout.contains("depth 4: 1") && cli.stdout.contains("invariants and plans not run"), cli.stdout)
        let checked = try RulebenchCommand.run(["explore", pack, "--depth", "4"], in: ScenarioFixtures.repository)
        XCTAssertEqual(checked.status, 1, checked.output)
    }

    // MARK: Default seeds, stated

    func testEachCommandsDefaultSeedIsInItsHelpAndInTheHashDocs() throws {
        let docs = try String(contentsOf: ScenarioFixtures.repository.appendingPathComponent("docs/scenarios.md"), encoding: .utf8)
        for (command, seed) in [("play", 1), ("explore", 1), ("solve", 0), ("fuzz", 1)] {
            let help = try RulebenchCommand.run([command, "--help"], in: ScenarioFixtures.repository)
            let flat = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            let seedHelp = flat.components(separatedBy: "--seed <seed> Seed").dropFirst().first?.components(separatedBy: " --").first ?? ""
            XCTAssertTrue(seedHelp.contains("(default: \(seed))"), "\(command): \(seedHelp)")
            XCTAssertTrue(docs.contains("| `rulebench \(command)`") && docs.contains("`rulebench \(command)`"), command)
            let row = docs.split(separator: "\n").first { $0.hasPrefix("| `rulebench \(command)`") }
            XCTAssertEqual(row.map { $0.hasSuffix("| \(seed) |") }, true, "\(command): \(row ?? "no row")")
        }
        let game = try Game(pack: Self.slide, seed: 0), other = try Game(pack: Self.slide, seed: 1)
        XCTAssertNotEqual(game.stateHash, other.stateHash, "the generator is part of the hash, as the docs say")
    }

    // MARK: check searches goal positions

    func testCheckCatchesAGoalThatWritesTheStateOnlyInASolvedPosition() throws {
        let slide = try String(contentsOfFile: Self.slide + "/actions/slide.lua", encoding: .utf8)
        let manifest = """
            return {
              name = "tidy", version = "1", options = { start = "123045678" },
              setup = function(game, options)
                game.row = {}
                for i = 1, #options.start do game.row[i] = options.start:sub(i, i) end
                game.moves = 0
              end,
              goals = {
                solved = function(game)
                  local solved = table.concat(game.row) == "012345678"
                  if solved then game.celebrated = true end   -- a goal must not write
                  return solved
                end,
              },
            }
            """
        let pack = try temporaryPack(["slide": slide], manifest: manifest).path
        var options = PackChecker.Options()
        options.seeds = [1]
        options.depth = 0   // random play never leaves the start: only the search reaches the solved row
        let found = try PackChecker(pack: pack, options: options).check().filter { $0.message.contains("goal 'solved'") }
        XCTAssertEqual(found.count, 1, "\(found)")
        XCTAssertTrue(found.first?.message.contains("search, after slide from=3 ; slide from=2 ; slide from=1") == true, "\(found)")
        XCTAssertTrue(found.first?.file.hasSuffix("pack.lua") == true && found.first?.line == 11, "\(found)")
        options.searchStates = 0
        XCTAssertEqual(try PackChecker(pack: pack, options: options).check().filter { $0.message.contains("goal 'solved'") }, [],
                       "without the search the sampling misses it")
    }

    static func repositoryRules() -> Game.Configuration {
        var configuration = Game.Configuration()
        configuration.rulesDirectory = ScenarioFixtures.repository.appendingPathComponent("rules")
        return configuration
    }
}
