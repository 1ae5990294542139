import Foundation
import XCTest
@testable import Rulebench

/// `do_only = true` on `anim.sound` and `anim.cue`: the mirrored undo plan keeps
/// the time and plays nothing there; every other sound and cue mirrors as before.
final class DoOnlyAnimationTests: XCTestCase {
    private let winAction = """
    return {
      apply = function(game) game.won = true end,
      animate = function(anim, game, a, direction)
        if direction == "undo" then return nil end
        return anim.sequence{
          anim.sound "whoosh",
          anim.tween{ target = "flag", property = "y", from = 0, to = 10, duration = 0.5 },
          anim.sound{ name = "fanfare", do_only = true, delay = 0.25 },
          anim.cue{ name = "confetti", do_only = true },
        }
      end,
    }
    """

    private func game(action: String) throws -> Game {
        let pack = try scratchFolder("do-only").appendingPathComponent("win")
        try FileManager.default.createDirectory(at: pack.appendingPathComponent("actions"), withIntermediateDirectories: true)
        try "return { name = \"win\", setup = function(game) game.won = false end }"
            .write(to: pack.appendingPathComponent("pack.lua"), atomically: true, encoding: .utf8)
        try action.write(to: pack.appendingPathComponent("actions/win.lua"), atomically: true, encoding: .utf8)
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        return try Game(pack: pack.path, seed: 1, configuration: configuration)
    }

    func testTheUndoOfAWinPlaysNoDoOnlyFanfareNorCueAndLastsAsLong() throws {
        let game = try game(action: winAction)
        let done = try game.perform("win").animation.timeline()
        XCTAssertEqual(done.soundNames, ["whoosh", "fanfare"])
        XCTAssertEqual(done.events.filter { $0.kind == .cue }.count, 1)
        let undone = try game.undo().animation.timeline()
        XCTAssertEqual(undone.soundNames, ["whoosh"], "the do-only fanfare is not played back")
        XCTAssertEqual(undone.events.filter { $0.kind == .cue }.count, 0, "nor the do-only cue")
        XCTAssertEqual(undone.duration, done.duration, "its time is kept")
        let redone = try game.redo().animation.timeline()
        XCTAssertEqual(redone.soundNames, ["whoosh", "fanfare"])
    }

    func testWithoutDoOnlyTheMirroredPlanPlaysEverySoundAsBefore() throws {
        let game = try game(action: winAction.replacingOccurrences(of: ", do_only = true", with: ""))
        _ = try game.perform("win")
        let undone = try game.undo().animation.timeline()
        XCTAssertEqual(Set(undone.soundNames), ["whoosh", "fanfare"])
        XCTAssertEqual(undone.events.filter { $0.kind == .cue }.count, 1)
    }

    func testDoOnlyMustBeABoolean() throws {
        let game = try game(action: winAction.replacingOccurrences(of: "name = \"fanfare\", do_only = true", with: "name = \"fanfare\", do_only = 1"))
        XCTAssertThrowsError(try game.perform("win")) { error in
            XCTAssertTrue("\(error)".contains("anim.sound: 'do_only' must be true or false"), "\(error)")
        }
    }
}
