import Foundation
import XCTest
@testable import Rulebench

/// A history saved by a path a studio page sent (`FolderSave`, `Game.save(_:inside:)`):
/// kept inside the folder, never through a link, never into a FIFO or a device,
/// never over a file that is not a saved history without `overwrite`, all or nothing.
final class FolderSaveTests: XCTestCase {
    private var folder: URL!
    private var game: Game!

    override func setUpWithError() throws {
        folder = try scratchFolder("folder-save")
        game = try Game(pack: EngineFixtures.folder.appendingPathComponent("lab").path)
        try game.perform("inc")
    }

    private func refusal(_ path: String, overwrite: Bool = false, in folder: URL? = nil) -> String? {
        do {
            try game.save(path, inside: folder ?? self.folder, overwrite: overwrite)
            return nil
        } catch {
            return "\(error)"
        }
    }

    private func assertRefused(_ path: String, _ reason: String, overwrite: Bool = false, in other: URL? = nil,
                               file: StaticString = #filePath, line: UInt = #line) {
        guard let message = refusal(path, overwrite: overwrite, in: other) else {
            return XCTFail("\(path) was saved", file: file, line: line)
        }
        XCTAssertTrue(message.contains("cannot save the history to \(path): "), message, file: file, line: line)
        XCTAssertTrue(message.contains(reason), message, file: file, line: line)
    }

    private func names(_ url: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    func testANewFileInsideTheFolderIsAHistoryThatReplays() throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("saves"), withIntermediateDirectories: true)
        XCTAssertNil(refusal("saves/game.json"))
        XCTAssertNil(refusal("./top.json"))
        let replayed = try Game.replay(contentsOf: folder.appendingPathComponent("saves/game.json"))
        XCTAssertEqual(replayed.history.entries.count, 1)
        XCTAssertEqual(try names(folder.appendingPathComponent("saves")), ["game.json"], "no temporary file is left")
        XCTAssertEqual(try names(folder), ["saves", "top.json"])
    }

    func testAnAbsolutePathIsRefused() {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-escape-\(UUID().uuidString).json")
        assertRefused(outside.path, "an absolute path is not saved to")
        XCTAssertFalse(FileManager.default.fileExists(atPath: outside.path))
    }

    func testDotDotIsRefused() throws {
        assertRefused("../escape.json", "'..' leaves the studio's folder")
        assertRefused("saves/../../escape.json", "'..' leaves the studio's folder")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.deletingLastPathComponent().appendingPathComponent("escape.json").path))
        assertRefused("", "the path is empty")
        assertRefused("saves//game.json", "an empty part")
    }

    func testALinkOutOfTheFolderIsNeverFollowed() throws {
        let outside = try scratchFolder("folder-save-outside")
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("out"), withDestinationURL: outside)
        assertRefused("out/game.json", "is a symbolic link or a file, not a folder")
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("link.json"),
                                                   withDestinationURL: outside.appendingPathComponent("target.json"))
        assertRefused("link.json", "it is a symbolic link")
        XCTAssertEqual(try names(outside), [], "nothing was written outside")
    }

    func testAFIFOIsRefusedWithoutBlocking() throws {
        let fifo = folder.appendingPathComponent("pipe.json")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        assertRefused("pipe.json", "it is a FIFO, a device or a socket")
    }

    func testADeviceIsRefused() {
        assertRefused("null", "it is a FIFO, a device or a socket", in: URL(fileURLWithPath: "/dev"))
    }

    func testAFolderIsRefused() throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("box.json"), withIntermediateDirectories: true)
        assertRefused("box.json", "it is a folder")
    }

    func testAFileThatIsNotAHistoryIsReplacedOnlyWhenTheMessageSaysOverwrite() throws {
        let notes = folder.appendingPathComponent("notes.json")
        try "{\"mine\": true}".write(to: notes, atomically: true, encoding: .utf8)
        assertRefused("notes.json", "send \"overwrite\": true to replace it")
        XCTAssertEqual(try String(contentsOf: notes, encoding: .utf8), "{\"mine\": true}")
        XCTAssertNil(refusal("notes.json", overwrite: true))
        XCTAssertNoThrow(try SavedHistory(contentsOf: notes))
        XCTAssertEqual(try names(folder), ["notes.json"], "no temporary file is left")
    }

    func testASavedHistoryIsReplacedWithoutOverwrite() throws {
        XCTAssertNil(refusal("game.json"))
        try game.perform("inc")
        XCTAssertNil(refusal("game.json"), "saving again over the history it wrote")
        XCTAssertEqual(try SavedHistory(contentsOf: folder.appendingPathComponent("game.json")).steps.count, 2)
    }

    /// The page proposes a plain name even for a pack named to climb out.
    func testASafeNameNeverLeavesTheFolder() {
        XCTAssertEqual(FolderSave.safeName("../../x-studio.json"), "x-studio.json")
        XCTAssertEqual(FolderSave.safeName("/etc/passwd"), "etc-passwd")
        XCTAssertNil(FolderSave.safeName(".."))
        for name in ["../../x-studio.json", "/etc/passwd", "a b/c"] {
            let safe = FolderSave.safeName(name) ?? "game.json"
            XCTAssertNoThrow(try FolderSave(folder: folder, path: safe).parts(), safe)
            XCTAssertFalse(safe.contains("/"), safe)
        }
    }
}
