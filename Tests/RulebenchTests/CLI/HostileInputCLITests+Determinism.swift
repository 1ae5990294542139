import Foundation
import XCTest
@testable import Rulebench

/// A history saved by `play` in one process replays with `replay` in
/// another, as a user meets it: each process has its own addresses and its
/// own string hash seed. The packs are ordinary ones that use tostring(t) as
/// an id (`idtags`) and walk string keys with next and pairs (`keywalk`);
/// once, the first failed `replay` at its first step.
extension HostileInputCLITests {
    /// Plays `script` in `play` (one process), saves the history, and
    /// replays it (another process); returns the replay's result.
    private func playThenReplay(_ pack: String, _ script: String) throws -> RulebenchCommand.Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let packPath = HostileScriptTests.nondeterminismFixtures.appendingPathComponent(pack).path
        let played = try RulebenchCommand.run(["play", packPath, "--seed", "4"], input: script + "save h.json\n", in: folder)
        XCTAssertEqual(played.status, 0, played.output)
        XCTAssertTrue(played.stdout.contains("saved"), played.output)
        return try RulebenchCommand.run(["replay", folder.appendingPathComponent("h.json").path], in: folder)
    }

    func testAHistoryOfAPackUsingTostringIdsReplaysInAnotherProcess() throws {
        let replayed = try playThenReplay("idtags", "draw\ndraw\nundo\ndraw\nburn\nundo\nboard\ndraw\n")
        XCTAssertEqual(replayed.status, 0, replayed.output)
        XCTAssertTrue(replayed.stdout.contains("3 steps replayed, every state hash matches"), replayed.output)
    }

    func testAHistoryOfAPackWalkingStringKeysReplaysInAnotherProcess() throws {
        let replayed = try playThenReplay("keywalk", "walk\nwalk\nundo\nwalk\nwalk\n")
        XCTAssertEqual(replayed.status, 0, replayed.output)
        XCTAssertTrue(replayed.stdout.contains("3 steps replayed, every state hash matches"), replayed.output)
    }
}
