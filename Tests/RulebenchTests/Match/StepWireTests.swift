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
    func testEveryAudiencesTextOfEveryStepIsTheJSONTreesSerialized() throws {
        let store = try SQLiteMatchStore(folder: try scratchFolder("step-wire"))
        let match = try Match.create(pack: "desert", options: ["players": .int(2)], seed: 5, seats: ["p1", "p2"], store: store,
                                     engine: matchEngine())
        var shared = 0, steps = 0
        for step in 0..<40 {
            let legal = try match.legalCallsBySeat()
            for seat in ["p1", "p2"] {
                let calls = legal[seat] ?? []
                XCTAssertEqual(StepWire.text(calls), JSONValue.array(calls.map(StepWire.json)).serialized(pretty: false), seat)
            }
            guard let seat = ["p1", "p2"].first(where: { !(legal[$0] ?? []).isEmpty }), let calls = legal[seat] else { break }
            let call = calls[(step * 5 + 1) % calls.count]
            let reply = match.handle(MatchRequest(seat: seat, clientCallID: ClientCallID("w\(step)")!, expectedVersion: match.version,
                                                  action: .perform(call)))
            guard case .accepted(let record, let detail) = reply else { return XCTFail("step \(step) \(call): \(reply)") }
            let views = try match.views(of: detail, spectators: true)
            var wire = StepWire(record)
            for audience in [Audience.seat("p1"), .seat("p2"), .spectators] {
                let view = try XCTUnwrap(views[audience])
                XCTAssertEqual(wire.text(view), StepWire.json(record, view).serialized(pretty: false), "step \(step) \(audience)")
            }
            XCTAssertEqual(wire.text(nil), StepWire.json(record, nil).serialized(pretty: false))
            if views[.seat("p1")]?.plan == views[.seat("p2")]?.plan { shared += 1 }
            steps += 1
        }
        XCTAssertGreaterThanOrEqual(steps, 30)
        XCTAssertGreaterThan(shared, 0, "no two seats saw a plan alike: nothing was shared")
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
