import Foundation
import XCTest
import Rulebench
@testable import RulebenchMatch

/// A broadcast writes a step's text once per part (`StepWire`): the
/// record's members once, a plan or changes list once for every audience
/// whose view holds it alike, straight from the state values
/// (`JSONValue.compact`). Over a seeded desert match, every audience's text
/// of every step must be the JSON tree's (`StepWire.json`) serialized, byte
/// for byte, and the legal calls' text theirs.
final class StepWireTests: XCTestCase {
    /// Plays up to 40 steps of `pack`; returns how many steps were played,
    /// and in how many two seats' plans were alike and differed.
    private func compare(_ pack: String, players: Int64, seed: Int64) throws -> (steps: Int, alike: Int, differ: Int) {
        let store = try SQLiteMatchStore(folder: try scratchFolder("step-wire"))
        let match = try Match.create(pack: pack, options: ["players": .int(players)], seed: seed, store: store, engine: matchEngine())
        let seats = match.setup.seats
        var alike = 0, differ = 0, steps = 0
        for step in 0..<40 {
            let legal = try match.legalCallsBySeat()
            for seat in seats {
                let calls = legal[seat] ?? []
                XCTAssertEqual(StepWire.text(calls), JSONValue.array(calls.map(StepWire.json)).serialized(pretty: false), seat)
            }
            guard let seat = seats.first(where: { !(legal[$0] ?? []).isEmpty }), let calls = legal[seat] else { break }
            let call = calls[(step * 5 + 1) % calls.count]
            let reply = match.handle(MatchRequest(seat: seat, clientCallID: ClientCallID("w\(step)")!, expectedVersion: match.version,
                                                  action: .perform(call)))
            guard case .accepted(let record, let detail) = reply else {
                XCTFail("\(pack) step \(step) \(call): \(reply)")
                break
            }
            let views = try match.views(of: detail, spectators: true)
            var wire = StepWire(record)
            for audience in seats.map(Audience.seat) + [.spectators] {
                let view = try XCTUnwrap(views[audience])
                XCTAssertEqual(wire.text(view), StepWire.json(record, view).serialized(pretty: false), "\(pack) step \(step) \(audience)")
            }
            XCTAssertEqual(wire.text(nil), StepWire.json(record, nil).serialized(pretty: false))
            if views[.seat(seats[0])]?.plan == views[.seat(seats[1])]?.plan { alike += 1 } else { differ += 1 }
            steps += 1
        }
        return (steps, alike, differ)
    }

    func testEveryAudiencesTextOfEveryDesertStepIsTheJSONTreesSerialized() throws {
        let played = try compare("desert", players: 2, seed: 5)
        XCTAssertGreaterThanOrEqual(played.steps, 20)
        XCTAssertGreaterThan(played.alike, 0, "no two seats saw a plan alike: nothing was shared")
    }

    func testEveryAudiencesTextOfEveryCardsStepIsTheJSONTreesSerialized() throws {
        let played = try compare("cards", players: 3, seed: 3)
        XCTAssertGreaterThanOrEqual(played.steps, 10)
        XCTAssertGreaterThan(played.differ, 0, "every seat saw every plan alike: no text was written apart")
    }

    /// The writer straight from state values against the JSON tree's, on the shapes a tree takes.
    func testCompactIsTheJSONTreesSerialized() {
        let values: [StateValue?] = [
            nil, .bool(true), .int(-3), .double(0.5), .double(2), .string("plain"), .string("quote \" back \\ tab\t nl\n \u{1} é 🂡"),
            .emptyTable, .list([.int(1), .string("a"), .emptyTable]),
            .table([.string("b"): .int(1), .string("a"): .list([.bool(false)]), .string("é"): .string("x")]),
            .table([.int(2): .string("two"), .string("k"): .int(1)]), .table([.int(1): .int(1), .int(3): .int(3)]),
        ]
        for value in values {
            var out = ""
            JSONValue.compact(value, into: &out)
            XCTAssertEqual(out, JSONValue(value).serialized(pretty: false), "\(String(describing: value))")
        }
    }
}
