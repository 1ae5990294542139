import XCTest
import Rulebench
@testable import RulebenchMatch

/// The spectators' view: what every seat's view shows alike, and nothing
/// else (the engine's public view of the state, `PublicView`'s of a step).
final class PublicViewTests: XCTestCase {
    private let hidden = StateValue.string(SeatView.hidden)

    /// A table of string keys.
    private func table(_ members: KeyValuePairs<String, StateValue>) -> StateValue {
        .table(Dictionary(uniqueKeysWithValues: members.map { (StateKey.string($0.key), $0.value) }))
    }

    /// What every view shows alike: a slot shown when every view shows it
    /// with the same value, `SeatView.hidden` where any hides it or two differ.
    private func alike(_ views: [StateValue]) -> StateValue {
        guard let first = views.first else { return hidden }
        if views.dropFirst().allSatisfy({ $0 == first }) { return first }
        let tables = views.compactMap { view -> [StateKey: StateValue]? in
            if case .table(let table) = view { return table }
            return nil
        }
        guard tables.count == views.count else { return hidden }
        let keys = tables.reduce(into: Set<StateKey>()) { $0.formUnion($1.keys) }
        var out: [StateKey: StateValue] = [:]
        for key in keys {
            let values = tables.compactMap { $0[key] }
            out[key] = values.count == tables.count ? alike(values) : hidden
        }
        return .table(out)
    }

    func testASlotIsPublicOnlyWhenEverySeatSeesItAlike() throws {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        let game = try Game(pack: EngineFixtures.repository.appendingPathComponent("rules/cards").path, seed: 3, configuration: configuration)
        try game.perform(ActionCall("deal", [:]), as: "p1")
        let p1 = try game.view(as: "p1"), p2 = try game.view(as: "p2"), seen = try game.publicView()
        XCTAssertEqual(seen.state, alike([p1.state, p2.state]))
        XCTAssertEqual(seen.state[.string("hands")]?[.string("p1")]?.listItems?.allSatisfy { $0 == hidden }, true, "p1's hand")
        XCTAssertEqual(seen.hash, try game.viewHash(as: nil))
        XCTAssertNotEqual(seen.hash, p1.hash)
        XCTAssertNotEqual(seen.hash, p2.hash)
        XCTAssertNotEqual(seen.hash, game.stateHash.hex)
        XCTAssertThrowsError(try game.view(as: ""), "a seat is named")
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
        let view = try game.publicView().state
        XCTAssertEqual(view, alike(views))
        for deck in ["storm_deck", "gear_deck"] {
            XCTAssertEqual(view[deck]?.listItems?.allSatisfy { $0 == hidden }, true, deck)
        }
        XCTAssertEqual(view["storm"], try game.state(at: StatePath(parsing: "storm")), "what every seat sees is shown")
    }
}
