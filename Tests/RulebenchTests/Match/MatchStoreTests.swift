import XCTest
import Rulebench
@testable import RulebenchMatch

/// `SQLiteMatchStore`: what goes in comes out, durably configured; versions
/// and client call ids are fenced; a newer schema and a damaged file are refused.
final class MatchStoreTests: XCTestCase {
    private func setup(seed: Int64 = 7) -> MatchSetup {
        MatchSetup(pack: "desert", packName: "desert", packVersion: "1.0", options: ["players": .int(2), "difficulty": .string("novice")],
                   seed: seed, seats: ["p1", "p2"], takebacks: .finishedTurnWithConsent, initialHash: StateHash(hex: "0123456789abcdef"))
    }

    private func call(_ version: Int, seat: String = "p1", id: String? = nil) -> MatchRecord {
        MatchRecord(version: version, seat: seat, clientCallID: ClientCallID(id ?? "c\(version)")!,
                    step: .call(ActionCall("move", ["player": .string(seat), "to": .string("b2"), "n": .double(0.5)])),
                    hash: StateHash(hex: String(format: "%016x", version)))
    }

    func testWhatIsAppendedReadsBackAfterTheStoreIsOpenedAgain() throws {
        let folder = try scratchFolder("store")
        let store = try SQLiteMatchStore(folder: folder)
        let first = try store.create(setup())
        let second = try store.create(setup(seed: -9_000_000_000))
        try store.append(call(1), to: first)
        try store.append(call(2, seat: "p2"), to: first)
        let takeback = MatchRecord(version: 3, seat: "p2", clientCallID: ClientCallID("c3")!, step: .takeback(version: 2),
                                   hash: StateHash(hex: "0000000000000001"))
        try store.append(takeback, to: first)
        try store.finish(second, result: "won")

        let reopened = try SQLiteMatchStore(folder: folder)
        let log = try reopened.log(of: first)
        XCTAssertEqual(log.setup, setup())
        XCTAssertEqual(log.records, [call(1), call(2, seat: "p2"), takeback])
        XCTAssertEqual(log.status, .live)
        XCTAssertEqual(try reopened.log(of: second).setup.seed, -9_000_000_000)
        XCTAssertEqual(try reopened.log(of: second).status, .finished(result: "won"))
        XCTAssertEqual(try reopened.liveMatches(), [first])
    }

    func testTheStoreSyncsEveryCommitToItsWriteAheadLogInAFolderOnlyItsOwnerReads() throws {
        let folder = try scratchFolder("store").appendingPathComponent(".rulebench/matches")
        let store = try SQLiteMatchStore(folder: folder)
        for created in [folder, folder.deletingLastPathComponent()] {
            let mode = try FileManager.default.attributesOfItem(atPath: created.path)[.posixPermissions] as? Int
            XCTAssertEqual(mode, 0o700, "\(created.path): a match's state holds secrets")
        }
        let settings = try store.durability()
        XCTAssertEqual(settings.journalMode, "wal")
        XCTAssertEqual(settings.synchronous, 2, "synchronous=FULL: each commit is fsynced before it returns")
    }

    func testAnAppendThatIsNotTheNextVersionOrRepeatsAClientIDIsRefused() throws {
        let store = try SQLiteMatchStore(folder: try scratchFolder("store"))
        let match = try store.create(setup())
        try store.append(call(1), to: match)
        XCTAssertThrowsError(try store.append(call(3), to: match)) { XCTAssertEqual(($0 as? MatchStoreError)?.kind, .conflict) }
        XCTAssertThrowsError(try store.append(call(1), to: match)) { XCTAssertEqual(($0 as? MatchStoreError)?.kind, .conflict) }
        XCTAssertThrowsError(try store.append(call(2, id: "c1"), to: match)) { error in
            XCTAssertEqual((error as? MatchStoreError)?.kind, .conflict)
            XCTAssertTrue("\(error)".contains("already version 1"), "\(error)")
        }
        // Another seat may use the same id.
        try store.append(call(2, seat: "p2", id: "c1"), to: match)
        XCTAssertEqual(try store.log(of: match).version, 2)
        try store.finish(match, result: "abandoned")
        XCTAssertThrowsError(try store.append(call(3), to: match)) { XCTAssertEqual(($0 as? MatchStoreError)?.kind, .notLive) }
        XCTAssertThrowsError(try store.log(of: MatchID(99)!)) { XCTAssertEqual(($0 as? MatchStoreError)?.kind, .unknownMatch) }
    }

    func testAStoreMigratedByANewerRulebenchIsRefusedAndLeftAlone() throws {
        let folder = try scratchFolder("store")
        let store = try SQLiteMatchStore(folder: folder)
        try store.executeUnchecked("INSERT INTO grdb_migrations (identifier) VALUES ('2 lobby seats')")
        XCTAssertThrowsError(try SQLiteMatchStore(folder: folder)) { error in
            XCTAssertEqual((error as? MatchStoreError)?.kind, .newerSchema)
            XCTAssertTrue("\(error)".contains("2 lobby seats"), "\(error)")
            XCTAssertTrue("\(error)".contains(SQLiteMatchStore.fileName), "names the file: \(error)")
        }
    }

    func testEveryValueReadBackIsChecked() throws {
        let folder = try scratchFolder("store")
        let store = try SQLiteMatchStore(folder: folder)
        let match = try store.create(setup())
        try store.append(call(1), to: match)
        try store.append(call(2), to: match)
        let damages = [
            ("UPDATE step SET takes_back = 5, kind = 'takeback' WHERE version = 2", "takes_back"),
            ("UPDATE step SET hash = 'not a hash' WHERE version = 1", "hash"),
            ("DELETE FROM step WHERE version = 1", "version"),
            ("UPDATE match SET takebacks = 'always'", "takebacks"),
            ("UPDATE match SET options = '[1]'", "options"),
            ("UPDATE match SET seats = '[\"p1\", \"p1\"]'", "seats"),
            ("UPDATE step SET client_call_id = 'has space' WHERE version = 1", "client_call_id"),
        ]
        for (sql, column) in damages {
            let copy = try scratchFolder("damaged")
            try store.executeUnchecked("VACUUM INTO '\(copy.appendingPathComponent(SQLiteMatchStore.fileName).path)'")
            let damaged = try SQLiteMatchStore(folder: copy)
            try damaged.executeUnchecked(sql)
            XCTAssertThrowsError(try damaged.log(of: match), sql) { error in
                XCTAssertEqual((error as? MatchStoreError)?.kind, .damaged, "\(sql): \(error)")
                XCTAssertTrue("\(error)".contains("column \(column)"), "\(sql): \(error)")
            }
        }
    }
}
