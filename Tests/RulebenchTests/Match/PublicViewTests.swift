import XCTest
import Rulebench
@testable import RulebenchMatch

/// The spectators' view: what every seat's view shows alike, and nothing else.
final class PublicViewTests: XCTestCase {
    private let hidden = StateValue.string(SeatView.hidden)

    /// A table of string keys.
    private func table(_ members: KeyValuePairs<String, StateValue>) -> StateValue {
        .table(Dictionary(uniqueKeysWithValues: members.map { (StateKey.string($0.key), $0.value) }))
    }

    func testASlotIsPublicOnlyWhenEverySeatSeesItAlike() {
        let p1: StateValue = table(["board": .string("a1"), "deck": hidden, "hands": table(["p1": .list([.string("sun3")]), "p2": hidden])])
        let p2: StateValue = table(["board": .string("a1"), "deck": hidden, "hands": table(["p1": hidden, "p2": .list([.string("moon1")])])])
        XCTAssertEqual(PublicView.state([p1, p2]),
                       table(["board": .string("a1"), "deck": hidden, "hands": table(["p1": hidden, "p2": hidden])]))
        XCTAssertEqual(PublicView.hash(of: PublicView.state([p1, p2])), PublicView.hash(of: PublicView.state([p2, p1])))
        XCTAssertNotEqual(PublicView.hash(of: p1), PublicView.hash(of: p2))
    }

    func testAPlanWordIsKeptOnlyWhenEverySeatsPlanHoldsIt() {
        let p1: StateValue = table(["kind": .string("move"), "node": .string("card:sun3"), "to": .string("table"), "again": .string("card:sun3")])
        let p2: StateValue = table(["kind": .string("move"), "node": .string("card:?1"), "to": .string("table"), "again": .string("card:?1")])
        XCTAssertEqual(PublicView.plan([p1, p2]),
                       table(["kind": .string("move"), "node": .string("card:?1"), "to": .string("table"), "again": .string("card:?1")]),
                       "the same node keeps its number; the kind and what all see are kept")
        let words = PublicView.plan([.list([.string("sun3"), .string("x")]), .list([.string("?1"), .string("x")])])
        XCTAssertEqual(words, .list([.string("?1"), .string("x")]))
    }

    func testDesertsPublicViewHidesBothDecks() throws {
        var configuration = Game.Configuration()
        configuration.rulesDirectory = EngineFixtures.repository.appendingPathComponent("rules")
        let game = try Game(pack: "desert", options: ["players": .int(3)], seed: 9, configuration: configuration)
        let views = try ["p1", "p2", "p3"].map { seat throws(RulebenchError) in try game.view(as: seat).state }
        let view = PublicView.state(views)
        for deck in ["storm_deck", "gear_deck"] {
            XCTAssertEqual(view[deck]?.listItems?.allSatisfy { $0 == hidden }, true, deck)
        }
        XCTAssertEqual(view["storm"], try game.state(at: StatePath(parsing: "storm")), "what every seat sees is shown")
    }
}
