import XCTest
@testable import Rulebench

/// Save, load and replay: hashes verified at every step.
final class HistoryFileTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func playedGame() throws -> Game {
        let game = try EngineFixtures.labGame(seed: 11)
        try game.setState(.int(3), at: "counter")
        for call in [ActionCall("shuffle"), ActionCall("draw"), ActionCall("inc", ["by": 2]),
                     ActionCall("set", ["key": "pi", "value": 3.25]), ActionCall("draw")] {
            try game.perform(call)
        }
        try game.undo()
        return game
    }

    func testSaveLoadReplayGivesIdenticalHashes() throws {
        let game = try playedGame()
        let url = folder.appendingPathComponent("game.json")
        try game.save(to: url)
        var replayed: [Int] = []
        let copy = try Game.replay(contentsOf: url) { replayed.append($0) }
        XCTAssertEqual(replayed, [1, 2, 3, 4, 5])
        XCTAssertEqual(copy.history.entries.map(\.hash), game.history.entries.map(\.hash))
        XCTAssertEqual(copy.history.cursor, 4)
        XCTAssertEqual(copy.stateHash, game.stateHash)
        XCTAssertEqual(try copy.state(), try game.state())
        XCTAssertEqual(try copy.state(at: "vars.pi"), .double(3.25), "floats stay floats")
        try copy.redo()
        XCTAssertEqual(copy.stateHash, game.history.entries[4].hash)
    }

    func testHistoryIsSmallPerAction() throws {
        let game = try playedGame()
        let json = SavedHistory(of: game).json
        let perStep = (json.utf8.count - 400) / game.history.entries.count
        XCTAssertLessThan(perStep, 300, json)
    }

    func testTamperedLogIsRefusedNamingTheStep() throws {
        let game = try playedGame()
        let url = folder.appendingPathComponent("game.json")
        try game.save(to: url)
        var text = try String(contentsOf: url, encoding: .utf8)
        let third = game.history.entries[2].hash.hex
        text = text.replacingOccurrences(of: "\"by\":2", with: "\"by\":5")
        try text.write(to: url, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try Game.replay(contentsOf: url)) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("step 3"), message)
            XCTAssertTrue(message.contains(third), message)
        }
    }

    func testMalformedAndForeignFilesAreBadInput() throws {
        let url = folder.appendingPathComponent("bad.json")
        try "{\"format\": \"rulebench-history\", \"steps\": [".write(to: url, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try Game.replay(contentsOf: url)) { error in
            guard case RulebenchError.badInput(let problem) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(problem.line, 1)
        }
        try "{\"format\": \"something else\"}".write(to: url, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try Game.replay(contentsOf: url)) { error in
            XCTAssertTrue("\(error)".contains("not a rulebench history"))
        }
        let game = try playedGame()
        try game.save(to: url)
        var text = try String(contentsOf: url, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"version\":\"1.0\"", with: "\"version\":\"0.9\"")
        try text.write(to: url, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try Game.replay(contentsOf: url)) { error in
            XCTAssertTrue("\(error)".contains("saved with pack lab 0.9"), "\(error)")
        }
        // A byte that is not UTF-8 is refused where it is, not read as U+FFFD.
        var bytes = [UInt8]("{\"format\": \"rulebench-history\", \"pack\": \"".utf8)
        bytes += [0xFF, 0x22, 0x7D]
        try Data(bytes).write(to: url)
        XCTAssertThrowsError(try Game.replay(contentsOf: url)) { error in
            guard case RulebenchError.badInput(let problem) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(problem.line, 1, "\(problem)")
            XCTAssertTrue(problem.message.contains("UTF-8"), "\(problem)")
        }
    }
}
