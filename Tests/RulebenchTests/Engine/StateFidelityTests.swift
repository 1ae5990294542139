import Foundation
import XCTest
@testable import Rulebench

/// What the library keeps of a state and a history: the memory cap means the
/// same for every command, a history never saves what JSON cannot carry, and
/// what it saves reads back byte for byte (RELIABILITY.md, "Nothing lost,
/// nothing false, messages").
final class StateFidelityTests: XCTestCase {
    /// A pack whose setup holds `options.mib` MiB of strings in the state.
    private func heavyPack() throws -> URL {
        try temporaryPack(["touch": """
            return {
              legal = function(game, emit) emit({}) end,
              apply = function(game) game.n = game.n + 1 end,
            }
            """], manifest: """
            return {
              name = "heavy", version = "1.0", options = { mib = 1 },
              setup = function(game, options)
                local rows, chunk = {}, string.rep("x", 65536)
                for i = 1, options.mib * 16 do rows[i] = chunk .. i end
                game.rows = rows
                game.n = 0
              end,
            }
            """, prefix: "heavy")
    }

    /// `run` and `state` read the whole state (before every step, and to
    /// print it); that copy did not fit the engine's fixed 64 MiB reserve,
    /// so a setup at half the cap failed there with "internal error in
    /// the engine: not enough memory" while fuzz and check played it.
    func testAStateNearTheMemoryCapCanBeReadWhereItCanBePlayed() throws {
        var configuration = Game.Configuration()
        configuration.memoryCap = 128 << 20
        let pack = try heavyPack()
        let game = try Game(pack: pack.path, options: ["mib": 100], configuration: configuration)
        try game.perform(ActionCall("touch"))
        guard case .table(let rows)? = try game.state(at: "rows") else { return XCTFail("no rows") }
        XCTAssertEqual(rows.count, 100 * 16)
        XCTAssertEqual(try game.state(at: "n"), .int(1))
        XCTAssertEqual(try game.liveStateHash(), game.stateHash)
    }

    /// fuzz and the shrinker restart a game for each run: the old state's
    /// long strings stayed alive in the kernel's memo of string hashes, so
    /// a setup over half the cap failed on its second run.
    func testARestartNeedsRoomForOneStateNotTwo() throws {
        var configuration = Game.Configuration()
        configuration.memoryCap = 128 << 20
        let game = try Game(pack: try heavyPack().path, options: ["mib": 70], configuration: configuration)
        try game.perform(ActionCall("touch"))
        try game.restart(seed: 2, options: ["mib": 70])
        XCTAssertEqual(try game.state(at: "n"), .int(0))
    }

    func testAStateOverTheMemoryCapNamesTheCap() throws {
        var configuration = Game.Configuration()
        configuration.memoryCap = 64 << 20
        XCTAssertThrowsError(try Game(pack: try heavyPack().path, options: ["mib": 80], configuration: configuration)) { error in
            XCTAssertTrue("\(error)".contains("memory cap exceeded (64 MiB)"), "\(error)")
            XCTAssertFalse("\(error)".contains("internal error"), "\(error)")
        }
    }

    /// A host app can perform a call whose params hold NaN (no rule emits
    /// one, no scenario gives one): saving it would write `nan`, which no
    /// reader takes. The save is refused and no file is written.
    func testAHistoryHoldingNaNIsNotSaved() throws {
        let pack = try temporaryPack(["note": "return { params = { v = 'number' }, apply = function(game) game.n = game.n + 1 end }"],
                                     manifest: #"return { name = "note", version = "1.0", setup = function(game) game.n = 0 end }"#,
                                     prefix: "note")
        let game = try Game(pack: pack.path)
        try game.perform(ActionCall("note", ["v": .double(.nan)]))
        let url = pack.appendingPathComponent("h.json")
        XCTAssertThrowsError(try game.save(to: url)) { error in
            XCTAssertTrue("\(error)".contains("step 1 (note) holds NaN or an infinity"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "nothing written")
    }

    /// The targeted case of the history's JSON: strings with every kind of
    /// character a writer may mangle, as a state key, a value and a param,
    /// save, load and replay to the same hashes and the same scalars.
    func testAHistoryKeepsHostileStringsByteForByte() throws {
        let hostile = ["\u{FEFF}lead", "a\u{85}b\u{2028}c\u{2029}d", "nul\u{0}del\u{7F}c1\u{9F}", "e\u{301}", "\u{1B}[31m\r\n\t\"\\",
                       String(repeating: "long line ", count: 5_000), "😀\u{10FFFF}\u{FFFD}"]
        let game = try EngineFixtures.labGame(seed: 2)
        for text in hostile { try game.perform(ActionCall("set", ["key": .string(text), "value": .string(text)])) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-hostile-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try game.save(to: url)
        let saved = try SavedHistory(contentsOf: url)
        for (index, text) in hostile.enumerated() {
            guard case .string(let read)? = saved.steps[index].call.params["value"] else { return XCTFail("step \(index + 1)") }
            XCTAssertTrue(read.unicodeScalars.elementsEqual(text.unicodeScalars), "step \(index + 1): \(read.debugDescription)")
        }
        let copy = try Game.replay(contentsOf: url)
        XCTAssertEqual(copy.history.entries.map(\.hash), game.history.entries.map(\.hash), "every hash replays")
    }

    /// Two member names a Swift dictionary takes for one key (canonically
    /// equivalent) are a duplicate too: one of them would be lost.
    func testCanonicallyEquivalentMemberNamesAreADuplicate() throws {
        XCTAssertThrowsError(try JSONValue.parse("{\"caf\u{E9}\": 1,\n \"cafe\u{301}\": 2}")) { error in
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix("2:2:") && message.contains("written another way"), message)
        }
        XCTAssertNoThrow(try JSONValue.parse(#"{"a": {"x": 1}, "b": {"x": 2}}"#), "the same name in two objects is fine")
    }
}
