import XCTest
import Rulebench
@testable import RulebenchMatch

/// Opening a store again: every live match replayed from setup with every
/// hash verified; a log that no longer replays refused with its first
/// differing step, never resumed.
final class MatchRecoveryTests: XCTestCase {
    func testLiveMatchesResumeByVerifiedReplayAndStillAnswerResentCalls() throws {
        let folder = try scratchFolder("recovery")
        let pack = try tallyPack().path
        let store = try SQLiteMatchStore(folder: folder)
        let match = try Match.create(pack: pack, seed: 1, seats: ["p1", "p2"], store: store, engine: matchEngine())
        let desert = try Match.create(pack: "desert", options: ["players": .int(3)], seed: 5, seats: ["p1", "p2", "p3"],
                                      store: store, engine: matchEngine())
        let over = try Match.create(pack: pack, seed: 1, store: store, engine: matchEngine())
        try over.finish(result: "abandoned")
        for (index, req) in [request("p1", "a", at: 0, by: 2), request("p2", "b", at: 1), takeBack("p2", "c", at: 2),
                             request("p1", "d", at: 3, "pass")].enumerated() {
            guard case .accepted = match.handle(req) else { return XCTFail("step \(index) not accepted") }
        }
        for _ in 0..<12 {
            // The last legal call of a seat: moves and digs before `end_turn`, so the storm does not end the game first.
            let call = try XCTUnwrap(desert.game.legalActions().last { $0.params["player"] != nil })
            guard case .string(let seat)? = call.params["player"] else { return XCTFail("no seat") }
            let req = MatchRequest(seat: seat, clientCallID: ClientCallID("d\(desert.version)")!, expectedVersion: desert.version,
                                   action: .perform(call))
            guard case .accepted = desert.handle(req) else { return XCTFail("desert call refused") }
        }

        var resumed: [Match] = []
        let recovery = try MatchRecovery.resumeLive(store: try SQLiteMatchStore(folder: folder), engine: matchEngine()) { resumed.append($0) }
        XCTAssertEqual(recovery.resumed, [match.id, desert.id], "the finished match is kept, not resumed")
        XCTAssertTrue(recovery.refused.isEmpty, "\(recovery.refused)")
        for (before, after) in zip([match, desert], resumed) {
            XCTAssertEqual(after.records, before.records)
            XCTAssertEqual(after.hash, before.hash)
            XCTAssertEqual(try after.game.liveStateHash(), before.hash)
            XCTAssertEqual(after.game.history.cursor, before.game.history.cursor)
        }
        let again = resumed[0]
        guard case .answeredAgain(let record, _) = again.handle(request("p2", "b", at: 1)) else { return XCTFail("performed again") }
        XCTAssertEqual(record.version, 2)
        guard case .accepted = again.handle(request("p2", "e", at: 4)) else { return XCTFail("the resumed match does not go on") }
        XCTAssertThrowsError(try Match.resume(over.id, store: store, engine: matchEngine())) { error in
            guard case .finished? = error as? MatchError else { return XCTFail("\(error)") }
        }
    }

    func testALogThatNoLongerReplaysIsRefusedWithItsFirstDifferingStep() throws {
        let folder = try scratchFolder("recovery")
        let pack = try tallyPack()
        let store = try SQLiteMatchStore(folder: folder)
        let match = try Match.create(pack: pack.path, seed: 1, seats: ["p1", "p2"], store: store, engine: matchEngine())
        for (index, by) in [Int64(1), 2, 3].enumerated() {
            guard case .accepted = match.handle(request("p1", "c\(index)", at: index, by: by)) else { return XCTFail("not accepted") }
        }
        // The pack changes: a step of 2 now counts twice.
        let changed = try tallyPack(addBody: "game.count[a.player] = game.count[a.player] + (a.by == 2 and 4 or (a.by or 1))")
        try FileManager.default.removeItem(at: pack.appendingPathComponent("actions/add.lua"))
        try FileManager.default.copyItem(at: changed.appendingPathComponent("actions/add.lua"), to: pack.appendingPathComponent("actions/add.lua"))

        let reopened = try SQLiteMatchStore(folder: folder)
        XCTAssertThrowsError(try Match.resume(match.id, store: reopened, engine: matchEngine())) { error in
            guard case .replay(let refusal)? = error as? MatchError else { return XCTFail("\(error)") }
            XCTAssertEqual(refusal.match, match.id)
            XCTAssertEqual(refusal.step, 2)
            XCTAssertEqual(refusal.expected, "state hash \(match.records[1].hash)")
            XCTAssertTrue(refusal.actual.hasPrefix("state hash ") && refusal.actual != refusal.expected, refusal.actual)
            XCTAssertTrue(refusal.description.contains(SQLiteMatchStore.fileName) && refusal.description.contains("restore"), "\(refusal)")
        }
        let recovery = try MatchRecovery.resumeLive(store: reopened, engine: matchEngine()) { _ in XCTFail("resumed a changed match") }
        XCTAssertEqual(recovery.refused.count, 1)
        XCTAssertEqual(try reopened.log(of: match.id).records, match.records, "the log is left as it was")

        // A new version of the pack is refused at the setup.
        let manifest = pack.appendingPathComponent("pack.lua")
        try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: "version = '1.0'", with: "version = '1.1'")
            .write(to: manifest, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try Match.resume(match.id, store: reopened, engine: matchEngine())) { error in
            guard case .replay(let refusal)? = error as? MatchError else { return XCTFail("\(error)") }
            XCTAssertEqual(refusal.step, 0)
            XCTAssertEqual(refusal.actual, "pack tally 1.1")
        }
    }

    func testACallThePackNowRefusesStopsTheReplayAtItsStep() throws {
        let folder = try scratchFolder("recovery")
        let pack = try tallyPack()
        let store = try SQLiteMatchStore(folder: folder)
        let match = try Match.create(pack: pack.path, seed: 1, seats: ["p1", "p2"], store: store, engine: matchEngine())
        _ = match.handle(request("p1", "a", at: 0))
        _ = match.handle(request("p1", "b", at: 1, "pass"))
        try FileManager.default.removeItem(at: pack.appendingPathComponent("actions/pass.lua"))
        XCTAssertThrowsError(try Match.resume(match.id, store: store, engine: matchEngine())) { error in
            guard case .replay(let refusal)? = error as? MatchError else { return XCTFail("\(error)") }
            XCTAssertEqual(refusal.step, 2)
            XCTAssertTrue(refusal.action.contains("pass"), refusal.action)
        }
    }
}
