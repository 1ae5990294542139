import XCTest
import Rulebench
@testable import RulebenchMatch

/// `Match.handle`: stale versions, resent calls, refusals of every kind
/// (each leaving the log and the game as they were), takebacks, and a store
/// that fails.
final class MatchTests: XCTestCase {
    private func tallyMatch(takebacks: TakebackPolicy = .currentTurnOnly, store: (any MatchStore)? = nil) throws -> (Match, any MatchStore) {
        let store = try store ?? SQLiteMatchStore(folder: try scratchFolder("match"))
        let match = try Match.create(pack: try tallyPack().path, seed: 1, seats: ["p1", "p2"], takebacks: takebacks,
                                     store: store, engine: matchEngine())
        return (match, store)
    }

    private func count(_ match: Match, _ seat: String) throws -> StateValue? {
        try match.game.state(at: StatePath(parsing: "count.\(seat)"))
    }

    /// The match's log, its store's log, and the game agree.
    private func assertInStep(_ match: Match, _ store: any MatchStore, version: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(match.version, version, file: file, line: line)
        XCTAssertEqual(try store.log(of: match.id).records, match.records, file: file, line: line)
        XCTAssertEqual(try match.game.liveStateHash(), match.hash, file: file, line: line)
        XCTAssertNil(match.halted, file: file, line: line)
    }

    func testAnAcceptedCallIsInTheStoreWhenItIsAcknowledged() throws {
        let (match, store) = try tallyMatch()
        guard case .accepted(let record, .performed(let step)) = match.handle(request("p1", "a", at: 0, by: 2)) else {
            return XCTFail("not accepted")
        }
        XCTAssertEqual(record.version, 1)
        XCTAssertEqual(record.hash, step.entry.hash)
        XCTAssertEqual(Set(step.views.keys), ["p1", "p2"], "each seat's view of the step")
        XCTAssertEqual(try store.log(of: match.id).records, [record])
        XCTAssertEqual(try count(match, "p1"), .int(2))
    }

    func testAStaleVersionIsRefusedWithTheCurrentVersion() throws {
        let (match, store) = try tallyMatch()
        _ = match.handle(request("p1", "a", at: 0))
        guard case .stale(let current) = match.handle(request("p2", "b", at: 0)) else { return XCTFail("not stale") }
        XCTAssertEqual(current, 1)
        guard case .stale(let ahead) = match.handle(request("p2", "c", at: 5)) else { return XCTFail("not stale") }
        XCTAssertEqual(ahead, 1)
        try assertInStep(match, store, version: 1)
        XCTAssertEqual(try count(match, "p2"), .int(0))
    }

    func testACallResentWithItsClientIDIsAnsweredFromTheLogNotPerformedAgain() throws {
        let (match, store) = try tallyMatch()
        guard case .accepted(let first, _) = match.handle(request("p1", "a", at: 0)) else { return XCTFail("not accepted") }
        _ = match.handle(request("p2", "a", at: 1))
        guard case .answeredAgain(let again, let current) = match.handle(request("p1", "a", at: 0)) else { return XCTFail("not answered") }
        XCTAssertEqual(again, first)
        XCTAssertEqual(current, 2)
        XCTAssertEqual(try count(match, "p1"), .int(1), "performed once")
        try assertInStep(match, store, version: 2)
    }

    func testAClientIDUsedBeforeForAnotherCallIsRefused() throws {
        let (match, store) = try tallyMatch()
        _ = match.handle(request("p1", "a", at: 0))
        guard case .refused(let refusal) = match.handle(request("p1", "a", at: 1, by: 3)) else { return XCTFail("not refused") }
        XCTAssertEqual(refusal.kind, .reusedCallID)
        try assertInStep(match, store, version: 1)
    }

    func testARefusedCallLeavesTheLogAndTheGameAsTheyWere() throws {
        let (match, store) = try tallyMatch()
        _ = match.handle(request("p1", "a", at: 0))
        let refused: [(MatchRequest, MatchRefusal.Kind, String)] = [
            (request("p1", "b", at: 1, by: -1), .rejected, "no negative steps"),
            (MatchRequest(seat: "p2", clientCallID: ClientCallID("c")!, expectedVersion: 1,
                          action: .perform(ActionCall("add", ["player": .string("p1")]))), .rejected, "p1's to make, not p2's"),
            (request("p3", "d", at: 1), .unknownSeat, "no seat p3"),
            (request("p1", "e", at: 1, "fly"), .badCall, "fly"),
        ]
        for (request, kind, words) in refused {
            guard case .refused(let refusal) = match.handle(request) else { return XCTFail("\(request) not refused") }
            XCTAssertEqual(refusal.kind, kind, "\(refusal)")
            XCTAssertTrue(refusal.reason.contains(words), "\(refusal)")
            XCTAssertEqual(refusal.current, 1)
            try assertInStep(match, store, version: 1)
        }
        XCTAssertEqual(try count(match, "p1"), .int(1))
    }

    func testALuaErrorOrABudgetOverrunIsARefusalAndTheMatchGoesOn() throws {
        let (match, store) = try tallyMatch()
        guard case .refused(let error) = match.handle(request("p1", "a", at: 0, by: 13)) else { return XCTFail("not refused") }
        XCTAssertEqual(error.kind, .scriptError)
        XCTAssertTrue(error.reason.contains("unlucky thirteen") && error.reason.contains("add.lua:"), error.reason)
        guard case .refused(let budget) = match.handle(request("p1", "b", at: 0, by: 99)) else { return XCTFail("not refused") }
        XCTAssertEqual(budget.kind, .budget, "\(budget)")
        try assertInStep(match, store, version: 0)
        guard case .accepted = match.handle(request("p1", "c", at: 0, by: 2)) else { return XCTFail("the match did not go on") }
        try assertInStep(match, store, version: 1)
        XCTAssertEqual(try count(match, "p1"), .int(2))
    }

    func testASeatTakesBackItsOwnLastCallAsAVerifiedUndo() throws {
        let (match, store) = try tallyMatch()
        guard case .refused(let nothing) = match.handle(takeBack("p1", "t0", at: 0)) else { return XCTFail("not refused") }
        XCTAssertEqual(nothing.kind, .nothingToTakeBack)
        _ = match.handle(request("p1", "a", at: 0, by: 2))
        guard case .refused(let other) = match.handle(takeBack("p2", "t1", at: 1)) else { return XCTFail("not refused") }
        XCTAssertEqual(other.kind, .notYours, "nobody undoes for another seat")
        guard case .accepted(let record, .undone(let outcome)) = match.handle(takeBack("p1", "t2", at: 1)) else {
            return XCTFail("not taken back")
        }
        XCTAssertEqual(record.step, .takeback(version: 1))
        XCTAssertEqual(record.hash, match.setup.initialHash)
        XCTAssertEqual(outcome.hash, match.setup.initialHash)
        XCTAssertEqual(try count(match, "p1"), .int(0))
        try assertInStep(match, store, version: 2)
        guard case .refused(let again) = match.handle(takeBack("p1", "t3", at: 2)) else { return XCTFail("not refused") }
        XCTAssertEqual(again.kind, .nothingToTakeBack, "a call is taken back once")
    }

    func testAnUndoTheEngineCannotProveIsRefusedAndTheCallStands() throws {
        let (match, store) = try tallyMatch()
        _ = match.handle(request("p1", "a", at: 0, by: 7))
        guard case .refused(let refusal) = match.handle(takeBack("p1", "t", at: 1)) else { return XCTFail("not refused") }
        XCTAssertEqual(refusal.kind, .undoNotProven, "\(refusal)")
        XCTAssertEqual(try count(match, "p1"), .int(7), "the call stands")
        XCTAssertEqual(match.game.history.cursor, 1)
        try assertInStep(match, store, version: 1)
    }

    func testAFinishedTurnIsTakenBackOnlyWhenTheMatchAllowsItAndEveryOtherSeatConsents() throws {
        let (strict, _) = try tallyMatch()
        _ = strict.handle(request("p1", "a", at: 0, "pass"))
        guard case .refused(let kept) = strict.handle(takeBack("p1", "t", at: 1, consent: ["p2"])) else { return XCTFail("not refused") }
        XCTAssertEqual(kept.kind, .finishedTurn)

        let (match, store) = try tallyMatch(takebacks: .finishedTurnWithConsent)
        _ = match.handle(request("p1", "a", at: 0, "pass"))
        guard case .refused(let asked) = match.handle(takeBack("p1", "t1", at: 1)) else { return XCTFail("not refused") }
        XCTAssertEqual(asked.kind, .needsConsent)
        XCTAssertTrue(asked.reason.contains("p2"), asked.reason)
        guard case .accepted = match.handle(takeBack("p1", "t2", at: 1, consent: ["p2"])) else { return XCTFail("not taken back") }
        try assertInStep(match, store, version: 2)
        XCTAssertEqual(try match.game.state(at: StatePath(parsing: "passes")), .int(0))
    }

    func testAStepTheStoreCannotTakeIsRefusedAndTheGameStaysInStepWithTheLog() throws {
        let store = FailingStore(try SQLiteMatchStore(folder: try scratchFolder("match")))
        let (match, _) = try tallyMatch(store: store)
        _ = match.handle(request("p1", "a", at: 0, by: 2))
        store.failing = true
        guard case .refused(let call) = match.handle(request("p2", "b", at: 1)) else { return XCTFail("not refused") }
        XCTAssertEqual(call.kind, .unavailable)
        try assertInStep(match, store, version: 1)
        XCTAssertEqual(try count(match, "p2"), .int(0), "the call the store did not take is out of the game")
        guard case .refused(let takeback) = match.handle(takeBack("p1", "t", at: 1)) else { return XCTFail("not refused") }
        XCTAssertEqual(takeback.kind, .unavailable)
        try assertInStep(match, store, version: 1)
        XCTAssertEqual(try count(match, "p1"), .int(2))
        XCTAssertEqual(try count(match, "p2"), .int(0))
        store.failing = false
        guard case .accepted = match.handle(request("p2", "b", at: 1)) else { return XCTFail("the call, sent again, was not performed") }
        try assertInStep(match, store, version: 2)
    }

    func testDesertIsPlayedSeatBySeat() throws {
        let store = try SQLiteMatchStore(folder: try scratchFolder("match"))
        let match = try Match.create(pack: "desert", options: ["players": .int(2)], seed: 3, seats: ["p1", "p2"], store: store,
                                     engine: matchEngine())
        let call = try XCTUnwrap(match.game.legalActions().first { $0.params["player"] == .string("p1") })
        let p2 = MatchRequest(seat: "p2", clientCallID: ClientCallID("x")!, expectedVersion: 0, action: .perform(call))
        guard case .refused(let refusal) = match.handle(p2) else { return XCTFail("p2 made p1's call") }
        XCTAssertEqual(refusal.kind, .rejected)
        let p1 = MatchRequest(seat: "p1", clientCallID: ClientCallID("x")!, expectedVersion: 0, action: .perform(call))
        guard case .accepted = match.handle(p1) else { return XCTFail("p1's call refused") }
        try assertInStep(match, store, version: 1)
    }
}
