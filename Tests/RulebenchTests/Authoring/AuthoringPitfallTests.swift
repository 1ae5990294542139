import XCTest
@testable import Rulebench

/// What a new author of Connect Four and tic-tac-toe tripped on (issue 44),
/// each kept fixed: reports that count every step and mean what they say,
/// the calls that name a node, a view sized by the game's options, the
/// fuzzer's out-of-range and wrong-type attempts, `state` on a scenario
/// whose hashes are placeholders. The fixture is `Fixtures/packs/fourup`,
/// Connect Four on a board of `cols` by `rows`.
final class AuthoringPitfallTests: XCTestCase {
    static let fourup = EngineFixtures.repository.appendingPathComponent("Tests/RulebenchTests/Fixtures/packs/fourup").path
    static let lane = EngineFixtures.repository.appendingPathComponent("Tests/RulebenchTests/Fixtures/shrink/lane").path

    private func configuration() -> Game.Configuration {
        var configuration = Game.Configuration()
        configuration.strict = true
        configuration.printHandler = { _ in }
        return configuration
    }

    private func drop(_ column: Int) -> ActionCall { ActionCall("drop", ["column": .int(Int64(column))]) }

    // MARK: Reports that count every step

    /// poke's undo (the lane fixture) forgets its mark once three ticks
    /// were made, so a game that ends with two moves after the poke fails
    /// only at the end of the run, on the rewind's third undo. Its
    /// reproduction ends with `undo: 3` (not 6, "undo the whole game"), the
    /// step that fails, and the counts take that closing step in.
    func testARewindFindingEndsOnTheUndoThatFailsAndCountsIt() throws {
        let tick = FuzzStep.perform(ActionCall("tick", [:]))
        let move = { (to: Int64) in FuzzStep.perform(ActionCall("move", ["to": .int(to)])) }
        let program = FuzzProgram(pack: Self.lane, seed: 0, options: ["need": 3],
                                  steps: [tick, tick, tick, .perform(ActionCall("poke", [:])), move(1), move(0)])
        let executor = FuzzExecutor(configuration: configuration(), base: nil)
        XCTAssertNil(executor.execute(program, checkLegality: true, finalChecks: false).finding, "no step fails")
        let run = executor.execute(program, checkLegality: true, finalChecks: true)
        let finding = try XCTUnwrap(run.finding)
        XCTAssertTrue(finding.isRewindFailure, finding.description)
        XCTAssertEqual(finding.rewindUndos, 3, "the two moves' undos, then poke's, which fails")
        let report = Fuzzer.Report(finding: finding, original: program, shrunk: program, outcomes: run.outcomes,
                                   shrinkSeconds: 0, shrinkAttempts: 0, stepsToDetection: 6)
        let text = Reproduction.scenario(for: report, packReference: Self.lane, fuzzSeed: 1)
        XCTAssertTrue(text.hasSuffix("  # the end of the fuzz run: the rewind, up to the undo that fails\n  - undo: 3\n"), text)
        XCTAssertTrue(text.contains("# Shrunk from 7 steps to 7."), text)
        XCTAssertEqual(Reproduction.stepCounts(of: report).shrunk, 7)
        let written = try ScenarioParser.parse(text, file: "finding.yaml")
        XCTAssertEqual(written.steps.count, 7, "the header counts the steps the file holds")

        // The file fails where the rewind failed: at its last step, poke's undo.
        let folder = try scratchFolder("rewind-finding")
        let file = folder.appendingPathComponent("finding.yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let replayed = ScenarioRunner(configuration: configuration()).run(fileAt: file)
        XCTAssertEqual(replayed.status, .failed, TextReport.render(replayed))
        XCTAssertEqual(replayed.stepsRun, 7, TextReport.render(replayed))
    }

    /// `solve`'s header counts the states within one move fewer than its
    /// line, the figure its words name: the 8-puzzle's start 413/726/_58 is
    /// 6 moves from solved, and a breadth-first walk of the game itself
    /// finds the states within 5 moves. One worker or two, the same words.
    func testTheSolveHeaderCountsTheStatesWithinItsDepth() throws {
        let eight = EngineFixtures.repository.appendingPathComponent("Benchmarks/packs/eight").path
        let options: [String: StateValue] = ["tiles": "413/726/_58"]
        let game = try Game(pack: eight, options: options, configuration: configuration())
        var seen: Set<StateHash> = [game.stateHash]
        var frontier: [[ActionCall]] = [[]]
        for _ in 1...5 {
            var next: [[ActionCall]] = []
            for line in frontier {
                for call in line { _ = try game.perform(call) }
                for call in try game.legalActions() {
                    _ = try game.perform(call)
                    if seen.insert(game.stateHash).inserted { next.append(line + [call]) }
                    _ = try game.undo()
                }
                for _ in line { _ = try game.undo() }
            }
            frontier = next
        }
        let folder = try scratchFolder("solve-header")
        for jobs in ["1", "2"] {
            let out = folder.appendingPathComponent("line-\(jobs).yaml")
            let solved = try RulebenchCommand.run(["solve", eight, "--goal", "solved", "--option", "tiles=413/726/_58",
                                                   "--no-estimate", "--jobs", jobs, "--out", out.path], in: folder)
            XCTAssertEqual(solved.status, 0, solved.output)
            let header = try String(contentsOf: out, encoding: .utf8)
            XCTAssertTrue(header.contains("no line of 5 or fewer reaches it (\(seen.count) distinct states within 5 moves,"),
                          "--jobs \(jobs), \(seen.count) states within 5 moves: \(header)")
        }
    }

    // MARK: The calls that name a node

    /// The disc of column 3, row 1 (`disc:3:1`) says `names = { column = 3
    /// }`: `drop column=3` names it and `drop column=1` does not (by the
    /// part after the last `:`, it did).
    func testADiscIsNamedByItsColumnNotByTheLastPartOfItsId() throws {
        let game = try Game(pack: Self.fourup, configuration: configuration())
        _ = try game.perform(drop(3))
        _ = try game.perform(drop(1))
        let scene = try XCTUnwrap(try game.scene())
        let disc = try XCTUnwrap(scene.node("disc:3:1"))
        XCTAssertEqual(disc.names, [["column": "3"]])
        let legal = try game.legalActions()
        XCTAssertEqual(legal.filter(disc.isNamed(by:)), [drop(3)])
        XCTAssertEqual(scene.nodes.filter { $0.isNamed(by: drop(1)) }.map(\.id),
                       ["cell:1:1", "disc:1:1"] + (2...6).map { "cell:1:\($0)" }, "column 1's cells and disc, nothing of row 1")

        // Without names: the whole part after the first ':' names a node, never its last part alone.
        let bare = SceneNode(id: "disc:3:1", x: 0, y: 0)
        XCTAssertFalse(bare.isNamed(by: drop(1)))
        XCTAssertTrue(bare.isNamed(by: ActionCall("drop", ["at": "3:1"])))
        XCTAssertTrue(SceneNode(id: "pawn:p1", x: 0, y: 0).isNamed(by: ActionCall("move", ["player": "p1"])), "what worked stays")
        XCTAssertTrue(SceneNode(id: "tile:t2", x: 0, y: 0, aliases: ["b1"]).isNamed(by: ActionCall("dig", ["cell": "b1"])))
        XCTAssertEqual(bare.namedOnlyByLastPart(among: [drop(1), drop(3)]), [drop(1)])
        let listed = SceneNode(id: "sq:e2", x: 0, y: 0, names: [["from": "e2"], ["to": "e2"]])
        XCTAssertTrue(listed.isNamed(by: ActionCall("move", ["from": "e2", "to": "e4"])))
        XCTAssertTrue(listed.isNamed(by: ActionCall("move", ["from": "d1", "to": "e2"])))
        XCTAssertFalse(listed.isNamed(by: ActionCall("move", ["from": "d1", "to": "d2"])))
        XCTAssertFalse(listed.isNamed(by: ActionCall("take", ["piece": "e2"])), "with names, the id's part names it no more")
    }

    /// A pack whose ids have several parts and that says nothing of names
    /// gets a warning from `check` saying what to write; `fourup` none; a
    /// bad `names` is an error at the add's line.
    func testCheckSaysWhatToWriteWhenTheOldRuleNamedANode() throws {
        let manifest = """
            return {
              name = "bare", options = { cols = 3 },
              setup = function(game, options) game.cols = options.cols game.columns = { 0, 0, 0 } end,
              view = { grid = { columns = 3, rows = 3, cell = 40 }, scene = function(game, add)
                for c = 1, game.cols do
                  for r = 1, game.columns[c] do add{ id = "disc:" .. c .. ":" .. r, col = c, row = 4 - r } end
                end
              end },
            }

            """
        let action = """
            return {
              params = { column = "integer" },
              legal = function(game, emit) for c = 1, game.cols do if game.columns[c] < 3 then emit{ column = c } end end end,
              apply = function(game, a) game.columns[a.column] = game.columns[a.column] + 1 end,
            }

            """
        let pack = try temporaryPack(["drop": action], manifest: manifest, prefix: "bare")
        let problems = try PackChecker(pack: pack.path).check()
        let warning = try XCTUnwrap(problems.first { $0.message.contains("through the last part of its id") }, "\(problems)")
        XCTAssertTrue(warning.message.contains("names = { column = 3 }"), warning.message)
        XCTAssertEqual(warning.line, 6, "the line that builds the ids")
        XCTAssertTrue(try PackChecker(pack: Self.fourup).check().isEmpty)

        let named = manifest.replacingOccurrences(of: "row = 4 - r }", with: "row = 4 - r, names = { column = { c } } }")
        let bad = try temporaryPack(["drop": action], manifest: named, prefix: "badnames")
        let game = try Game(pack: bad.path, configuration: configuration())
        _ = try game.perform(drop(1))
        XCTAssertThrowsError(try game.scene()) { error in
            XCTAssertTrue("\(error)".contains("'names' says which calls name it, by their params: { column = 3 }"), "\(error)")
            XCTAssertTrue("\(error)".contains("pack.lua:6"), "\(error)")
        }
    }

    // MARK: A view sized by the game's options

    /// One declaration, `grid = function(game, options) ... end`, draws the
    /// board at 4 × 4 and at 7 × 6 (the defaults): the grid, the board's
    /// size and the cells' places follow the options.
    func testOneViewDrawsTheBoardAtEverySize() throws {
        for (cols, rows) in [(4, 4), (7, 6)] {
            let options: [String: StateValue] = cols == 7 ? [:] : ["cols": .int(Int64(cols)), "rows": .int(Int64(rows))]
            let game = try Game(pack: Self.fourup, options: options, configuration: configuration())
            _ = try game.perform(drop(cols))
            let scene = try XCTUnwrap(try game.scene())
            XCTAssertEqual(scene.grid, SceneGrid(columns: cols, rows: rows, cell: 40, gap: 4, x: 4, y: 4))
            XCTAssertEqual(scene.width, Double(4 + cols * 40 + (cols - 1) * 4), "\(cols) × \(rows)")
            XCTAssertEqual(scene.height, Double(4 + rows * 40 + (rows - 1) * 4), "\(cols) × \(rows)")
            XCTAssertEqual(scene.nodes.filter { $0.id.hasPrefix("cell:") }.count, cols * rows)
            let disc = try XCTUnwrap(scene.node("disc:\(cols):1"), "the disc dropped in the last column")
            XCTAssertEqual(disc.point, ScenePoint(x: Double(4 + (cols - 1) * 44 + 20), y: Double(4 + (rows - 1) * 44 + 20)))
        }
    }

    /// A grid function that returns no table is an error at the grid's line.
    func testAGridFunctionThatGivesNoGridIsAnErrorAtItsLine() throws {
        let manifest = """
            return {
              name = "nogrid",
              setup = function(game) game.n = 0 end,
              view = {
                grid = function(game, options) return nil end,
                scene = function(game, add) end,
              },
            }

            """
        let pack = try temporaryPack([:], manifest: manifest, prefix: "nogrid")
        let game = try Game(pack: pack.path, configuration: configuration())
        XCTAssertThrowsError(try game.scene()) { error in
            XCTAssertTrue("\(error)".contains("view.grid(game, options) must return a table { columns, rows, cell, gap, x, y }, not nil"), "\(error)")
            XCTAssertTrue("\(error)".contains("pack.lua:5"), "\(error)")
        }
    }

    // MARK: The fuzzer tries what authors guard against

    /// With a fixed seed, a session of fewer than 1,000 steps tries columns
    /// outside 1..7 (the guard `no column N` runs: its own line in
    /// drop.lua) and columns of the wrong type, and `--coverage` counts both.
    func testTheFuzzerReachesTheOutOfRangeGuardWithinAThousandSteps() throws {
        var options = Fuzzer.Options(pack: Self.fourup)
        options.seed = 1
        options.runs = 19
        options.depth = 50
        options.coverage = true
        options.configuration.printHandler = { _ in }
        let fuzzer = Fuzzer(options: options)
        let (reports, state) = fuzzer.run()
        XCTAssertTrue(reports.isEmpty, "\(reports.map(\.finding))")
        XCTAssertLessThanOrEqual(state.steps, 1_000)
        let coverage = try XCTUnwrap(try fuzzer.coverage())
        let drop = try XCTUnwrap(coverage.files.first { $0.key.hasSuffix("fourup/actions/drop.lua") }?.value)
        let source = try String(contentsOfFile: Self.fourup + "/actions/drop.lua", encoding: .utf8)
        let guardLine = try XCTUnwrap(source.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.contains("return \"no column \"") }) + 1
        XCTAssertGreaterThan(drop.hits[guardLine] ?? 0, 0, "the out-of-range guard at drop.lua:\(guardLine) never ran")
        let counts = try XCTUnwrap(coverage.actions["drop"])
        XCTAssertGreaterThan(counts.outOfRange, 0)
        XCTAssertGreaterThan(counts.wrongType, 0)
        XCTAssertGreaterThanOrEqual(counts.attempted, counts.outOfRange + counts.wrongType)
        XCTAssertTrue(coverage.summary.contains("drop: performed \(counts.performed), undone \(counts.undone), redone \(counts.redone), "
            + "attempted illegally \(counts.attempted) (\(counts.outOfRange) out of range, \(counts.wrongType) of a wrong type)"),
            coverage.summary)
    }

    // MARK: state on a scenario under construction

    /// `hash: H4` is a placeholder to `state`: the state and its hash are
    /// printed, and each placeholder up to the step is listed with the hash
    /// to write there; `run` still refuses it, saying how to get the hash.
    func testStatePrintsTheHashesAScenarioHoldsPlaceholdersFor() throws {
        let folder = try scratchFolder("placeholders")
        let file = folder.appendingPathComponent("drops.yaml")
        try """
            scenario: being written
            rules: \(Self.fourup)
            steps:
              - do: drop
                with: { column: 3 }
                expect: { hash: H1 }
              - do: drop
                with: { column: 3 }
                expect: { hash: H2, state: { next: red } }
              - expect: { hash: TODO }

            """.write(to: file, atomically: true, encoding: .utf8)
        let game = try Game(pack: Self.fourup, configuration: configuration())
        let first = try game.perform(drop(3)).hash
        let second = try game.perform(drop(3)).hash

        let state = try RulebenchCommand.run(["state", file.path, "--step", "2", "--path", "next"], in: folder)
        XCTAssertEqual(state.status, 0, state.output)
        XCTAssertTrue(state.stdout.hasPrefix("hash: \"\(second.hex)\""), state.stdout)
        XCTAssertTrue(state.stdout.contains("next = \"red\""), state.stdout)
        XCTAssertTrue(state.stderr.contains("step 1 at \(file.path):6:21 holds the placeholder hash: H1; write hash: \"\(first.hex)\""), state.stderr)
        XCTAssertTrue(state.stderr.contains("step 2 at \(file.path):9:21 holds the placeholder hash: H2; write hash: \"\(second.hex)\""), state.stderr)
        XCTAssertFalse(state.stderr.contains("TODO"), "step 3 is past --step 2")

        let json = try RulebenchCommand.run(["state", file.path, "--json"], in: folder)
        XCTAssertEqual(json.status, 0, json.output)
        let placeholders = try XCTUnwrap(JSONValue.parse(utf8: Array(json.stdout.utf8))["placeholders"])
        XCTAssertEqual(placeholders, .array([
            .object([("step", .int(1)), ("placeholder", .string("H1")), ("hash", .string(first.hex))]),
            .object([("step", .int(2)), ("placeholder", .string("H2")), ("hash", .string(second.hex))]),
            .object([("step", .int(3)), ("placeholder", .string("TODO")), ("hash", .string(second.hex))]),
        ]))

        let run = try RulebenchCommand.run(["run", file.path], in: folder)
        XCTAssertEqual(run.status, 2, run.output)
        XCTAssertTrue(run.stdout.contains("'hash' must be 16 lower-case hex digits (as `rulebench` prints state hashes), not 'H1' "
            + "(`rulebench state FILE --step N` prints the hash after step N, placeholders and all)"), run.output)
    }
}
