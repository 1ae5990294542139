import Foundation
import XCTest
@testable import Rulebench

/// `solve --value` (GameValue, Kernel/value.lua) on the tic-tac-toe pack:
/// the draw proven, wins and losses from known positions with their
/// distance, every root move's value, the lines replayed as scenarios, and
/// the games it refuses (no result, chance); and `explore --unique`'s
/// counts of the whole game against the published ones.
final class GameValueTests: XCTestCase {
    static let tictactoe = EngineFixtures.repository.appendingPathComponent("rules/tictactoe").path
    static let dice = EngineFixtures.repository.appendingPathComponent("Tests/RulebenchTests/Fixtures/value/dice").path

    private func game(_ pack: String, _ options: [String: StateValue] = [:]) throws -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        return try Game(pack: pack, options: options, seed: 0, configuration: configuration)
    }

    private func valued(_ result: GameValue.Result, file: StaticString = #filePath, line: UInt = #line)
        -> (seat: String, moves: [GameValue.MoveValue], best: Int, proven: Bool)? {
        guard case .valued(let seat, let moves, let best, _, let proven) = result.outcome else {
            XCTFail("\(result.outcome)", file: file, line: line)
            return nil
        }
        return (seat, moves, best, proven)
    }

    func testTicTacToeIsADrawAndEveryFirstMoveDraws() throws {
        let ttt = try game(Self.tictactoe)
        let before = ttt.stateHash
        let result = try GameValue(game: ttt, maxDepth: 9).run()
        guard let value = valued(result) else { return }
        XCTAssertEqual(value.seat, "x")
        XCTAssertTrue(value.proven)
        XCTAssertEqual(result.verdict, .draw)
        XCTAssertEqual(value.moves.count, 9)
        XCTAssertEqual(value.moves.map(\.verdict), Array(repeating: .draw, count: 9))
        // The principal line fills the board with no line made.
        let line = result.principalLine
        XCTAssertEqual(line.count, 9)
        for call in line { try ttt.perform(call) }
        XCTAssertTrue(try ttt.goalHolds("draw"))
        XCTAssertEqual(ttt.history.cursor, 9)
        for _ in line { try ttt.undo() }
        XCTAssertEqual(ttt.stateHash, before)
        XCTAssertGreaterThan(result.statistics.hits, 0, "the transposition table answered no state")
    }

    func testAnEdgeReplyToTheCentreLosesAndTheWinIsTheShortest() throws {
        // x in the centre, o on an edge: x wins, in 5 more moves at most against the best defence.
        let result = try GameValue(game: try game(Self.tictactoe, ["opening": .string("5,2")])).run()
        guard let value = valued(result) else { return }
        XCTAssertEqual(value.seat, "x")
        XCTAssertEqual(result.verdict, .win(plies: 5))
        XCTAssertTrue(value.proven)
        // Every root move that does not win is worse than the best; the best's line ends in x's line.
        XCTAssertTrue(value.moves.contains { $0.verdict == .draw })
        let replay = try game(Self.tictactoe, ["opening": .string("5,2")])
        for call in result.principalLine { try replay.perform(call) }
        XCTAssertTrue(try replay.goalHolds("x_wins"))

        // o to move after x takes 1 and 5 around o's 2: o loses, as late as it can.
        let lost = try GameValue(game: try game(Self.tictactoe, ["opening": .string("1,2,5")])).run()
        guard let losing = valued(lost) else { return }
        XCTAssertEqual(losing.seat, "o")
        XCTAssertEqual(lost.verdict, .loss(plies: 4))
        XCTAssertTrue(losing.moves.allSatisfy { if case .loss = $0.verdict { return true } else { return false } })
    }

    func testAGameOverAtTheStartHasItsScores() throws {
        let result = try GameValue(game: try game(Self.tictactoe, ["opening": .string("1,4,2,5,3")])).run()
        guard case .over(let scores) = result.outcome else { return XCTFail("\(result.outcome)") }
        XCTAssertEqual(scores, ["x": 1, "o": -1])
    }

    func testAShallowSearchSaysItIsNotProven() throws {
        let result = try GameValue(game: try game(Self.tictactoe), maxDepth: 3).run()
        guard let value = valued(result) else { return }
        XCTAssertFalse(value.proven)
        guard case .estimate = value.moves[value.best].verdict else { return XCTFail("\(value.moves[value.best].verdict)") }
    }

    func testChanceAndAPackWithoutAResultAreRefusedWithWhatToDo() throws {
        XCTAssertThrowsError(try GameValue(game: try game(Self.dice)).run()) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("drew from the game's random generator"), text)
            XCTAssertTrue(text.contains("roll"), text)
        }
        let counter = SolverTests.folder.appendingPathComponent("counter").path
        XCTAssertThrowsError(try GameValue(game: try game(counter)).run()) { error in
            XCTAssertTrue("\(error)".contains("add result = function(game)"), "\(error)")
        }
    }

    func testSolveValueWritesLinesThatRunReplays() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("value-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("principal.yaml").path
        let refutations = folder.appendingPathComponent("refutations").path
        let solved = try RulebenchCommand.run(["solve", Self.tictactoe, "--value", "--option", "opening=5,2", "--out", out,
                                               "--refutations", refutations], in: folder)
        XCTAssertEqual(solved.status, 0, solved.output)
        XCTAssertTrue(solved.stdout.contains("value for x (the seat to move): win in 5 — proven"), solved.stdout)
        let principal = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(principal.contains("expect: { legal: none }"), principal)
        XCTAssertEqual(try RulebenchCommand.run(["run", out], in: folder).status, 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: refutations).sorted()
        XCTAssertFalse(files.isEmpty)
        for name in files {
            let path = (refutations as NSString).appendingPathComponent(name)
            let run = try RulebenchCommand.run(["run", path], in: folder)
            XCTAssertEqual(run.status, 0, run.output)
            XCTAssertTrue(try String(contentsOfFile: path, encoding: .utf8).contains("draw for x"))
        }
        let json = try RulebenchCommand.run(["solve", Self.tictactoe, "--value", "--json"], in: folder)
        XCTAssertEqual(json.status, 0, json.output)
        XCTAssertTrue(json.stdout.contains("\"value\": \"draw\""), json.stdout)
        XCTAssertTrue(json.stdout.contains("\"proven\": true"), json.stdout)
        let refused = try RulebenchCommand.run(["solve", Self.dice, "--value"], in: folder)
        XCTAssertEqual(refused.status, 2, refused.output)
        XCTAssertEqual(try RulebenchCommand.run(["solve", Self.tictactoe], in: folder).status, 2)
    }

    func testSweepTabulatesTheValueBySize() throws {
        let swept = try RulebenchCommand.run(["solve", Self.tictactoe, "--value", "--sweep", "rows=1..3", "--sweep", "k=2..3"],
                                             in: FileManager.default.temporaryDirectory)
        XCTAssertEqual(swept.status, 0, swept.output)
        let rows = swept.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        XCTAssertEqual(rows.first, ["rows", "k", "value", "proven", "seconds"])
        // Two in a row: x takes a cell with two free sides and wins on every board. Three in a row: o blocks
        // the one row of a 3 by 1 board, one of the two rows of 3 by 2, and 3 by 3 is a draw.
        XCTAssertEqual(rows.dropFirst().map { Array($0.prefix(3)) },
                       [["1", "2", "win"], ["1", "3", "draw"], ["2", "2", "win"], ["2", "3", "draw"], ["3", "2", "win"], ["3", "3", "draw"]])
    }

    // MARK: Counting what the game has

    func testExploreCountsTicTacToesGamesAndPositions() throws {
        let counts = try Explorer(game: try game(Self.tictactoe), depth: 10, distinctBound: 100_000).run()
        XCTAssertEqual(counts.nodes, [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872, 0])
        XCTAssertEqual(counts.finished?.reduce(0, +), 255_168)
        XCTAssertEqual(counts.finished, [0, 0, 0, 0, 0, 1440, 5328, 47952, 72576, 127872])
        XCTAssertEqual(counts.endings?.reduce(0, +), 958)
        XCTAssertEqual((counts.distinct ?? []).reduce(1, +), 5478)

        let text = try RulebenchCommand.run(["explore", Self.tictactoe, "--depth", "10", "--unique"],
                                            in: FileManager.default.temporaryDirectory)
        XCTAssertEqual(text.status, 0, text.output)
        XCTAssertTrue(text.stdout.contains("finished games: 255168, ending at 958 distinct positions (depths 0 to 9: the whole game); "
                                           + "distinct positions: 5478"), text.stdout)
        XCTAssertTrue(text.stdout.contains("depth 0: 1  (1 distinct); 0 finished (0 distinct)"), text.stdout)
    }
}
