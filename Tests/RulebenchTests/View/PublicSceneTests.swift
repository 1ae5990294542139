import XCTest
@testable import Rulebench

/// A spectator's scene (`Game.publicScene()`, the match page's board for a
/// watcher): a slot the pack's `secrets` marks shows only when every seat may
/// see it, so no hand's card reaches a watcher, while each seat's scene
/// still shows its own hand. On the cards pack, whose view draws every hand face up.
final class PublicSceneTests: XCTestCase {
    private func dealtCards() throws -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        let game = try Game(pack: EngineFixtures.repository.appendingPathComponent("rules/cards").path,
                            options: ["players": 2], seed: 3, configuration: configuration)
        try game.perform(ActionCall("deal", [:]), as: "p1")
        return game
    }

    /// The card ids of `seat`'s hand.
    private func hand(_ game: Game, _ seat: String) throws -> [String] {
        guard case .table(let hand)? = try game.state(at: StatePath(parsing: "hands.\(seat)")) else { return [] }
        return hand.values.compactMap { card in
            guard case .table(let fields) = card, case .string(let id)? = fields[.string("id")] else { return nil }
            return id
        }
    }

    private func words(_ scene: Scene?) throws -> String {
        try XCTUnwrap(scene).json()
    }

    func testAWatcherSeesNoHandAndEachSeatSeesItsOwn() throws {
        let game = try dealtCards()
        let p1 = try hand(game, "p1"), p2 = try hand(game, "p2")
        XCTAssertEqual(p1.count, 3)
        XCTAssertEqual(p2.count, 3)
        let full = try words(try game.scene())
        let watcher = try words(try game.publicScene())
        let seat1 = try words(try game.scene(as: "p1"))
        for card in p1 + p2 {
            XCTAssertTrue(full.contains("card:\(card)"), "the author's scene draws \(card)")
            XCTAssertFalse(watcher.contains("\"card:\(card)\""), "a watcher is shown \(card) of a hand")
        }
        for card in p1 { XCTAssertTrue(seat1.contains("card:\(card)"), "p1 sees its own \(card)") }
        for card in p2 { XCTAssertFalse(seat1.contains("\"card:\(card)\""), "p1 is shown p2's \(card)") }
    }

    func testAPackWithoutSeatsHasNoPublicSceneToAsk() throws {
        let game = try Game(pack: EngineFixtures.repository.appendingPathComponent("rules/template").path, seed: 1)
        XCTAssertThrowsError(try game.publicScene())
    }
}
