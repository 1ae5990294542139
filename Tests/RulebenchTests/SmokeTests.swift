import XCTest
@testable import Rulebench

final class SmokeTests: XCTestCase {
    func testTemplatePlays() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var config = Game.Configuration()
        config.rulesDirectory = root.appendingPathComponent("rules")
        let game = try Game(pack: "template", seed: 1, configuration: config)
        let h0 = game.stateHash
        let legal = try game.legalActions()
        print(legal)
        let e = try game.perform("dash", ["token": "p1"])
        print(e.hash, e.subactions.subactionNames, e.animationPlanValue ?? "nil")
        print(try game.state())
        print(try game.render())
        let u = try game.undo()
        XCTAssertEqual(u.hash, h0)
        try game.redo()
        XCTAssertEqual(game.stateHash, e.hash)
    }
}
