import Foundation
import XCTest
import Rulebench
@testable import RulebenchMatch

/// `SQLiteGroupCommit` under `SQLiteMatchStore`: appends of several matches
/// made at once share one commit, none returns before that commit has
/// returned, and one refused write in a group fails alone.
final class MatchGroupCommitTests: XCTestCase {
    /// What the writer and the appending threads did, in the order they did it.
    private final class Events: @unchecked Sendable {
        enum Event: Equatable {
            case willCommit(Int), didCommit(Int), returned
        }

        private let lock = NSLock()
        private var events: [Event] = []
        /// Set once the matches exist: the first group after it is held until `held` writes wait behind it.
        private var armed = false
        private var held = 0
        weak var store: SQLiteMatchStore?

        var all: [Event] { lock.withLock { events } }
        func record(_ event: Event) { lock.withLock { events.append(event) } }
        func arm(holding count: Int) { lock.withLock { (armed, held) = (true, count) } }

        /// Runs on the writer's thread before a commit: records it, and holds the first armed group
        /// (bounded: 10 s) until `held` more writes are waiting, so that they form the next group. A group
        /// of several is held until its callers returned or 200 ms passed, so that an answer sent before
        /// the commit shows whatever the threads' timing (a correct writer always waits the 200 ms).
        func willCommit(_ size: Int) {
            record(.willCommit(size))
            if size > 1 {
                let deadline = Date().addingTimeInterval(0.2)
                while all.filter({ $0 == .returned }).count < size, Date() < deadline { usleep(1000) }
            }
            let count = lock.withLock { () -> Int in
                defer { armed = false }
                return armed ? held : 0
            }
            guard count > 0, let store else { return }
            let deadline = Date().addingTimeInterval(10)
            while store.writer.waitingCount < count, Date() < deadline { usleep(1000) }
        }

        var observer: SQLiteGroupCommit.Observer {
            SQLiteGroupCommit.Observer(willCommit: { [self] in willCommit($0) }, didCommit: { [self] in record(.didCommit($0)) })
        }
    }

    private func setup(seed: Int64) -> MatchSetup {
        MatchSetup(pack: "desert", packName: "desert", packVersion: "1.0", options: ["players": .int(2)], seed: seed,
                   seats: ["p1", "p2"], takebacks: .currentTurnOnly, initialHash: StateHash(hex: "0123456789abcdef"))
    }

    private func call(_ version: Int, id: String? = nil) -> MatchRecord {
        MatchRecord(version: version, seat: "p1", clientCallID: ClientCallID(id ?? "c\(version)")!,
                    step: .call(ActionCall("move", ["player": .string("p1")])), hash: StateHash(hex: String(format: "%016x", version)))
    }

    /// Appends `records[i]` to `matches[i]`, each from a thread of its own, all while the writer holds
    /// the commit of a first append to `plug` (so they wait together); each one's error or nil.
    private func appendTogether(_ store: SQLiteMatchStore, _ records: [MatchRecord], to matches: [MatchID], plug: MatchID,
                                _ events: Events) throws -> [MatchStoreError?] {
        let outcomes = Outcomes(count: records.count)
        events.arm(holding: records.count)
        let started = events.all.count
        let threads = DispatchGroup()
        threads.enter()
        Thread {
            defer { threads.leave() }
            _ = try? store.append(MatchRecord(version: 1, seat: "p1", clientCallID: ClientCallID("plug")!, step: .call(ActionCall("move", [:])),
                                              hash: StateHash(hex: "00000000000000ff")), to: plug)
        }.start()
        let deadline = Date().addingTimeInterval(10)
        while !events.all[started...].contains(.willCommit(1)), Date() < deadline { usleep(1000) }
        for index in records.indices {
            threads.enter()
            Thread {
                defer { threads.leave() }
                do throws(MatchStoreError) {
                    try store.append(records[index], to: matches[index])
                    events.record(.returned)
                } catch {
                    outcomes.set(index, error)
                }
            }.start()
        }
        threads.wait()
        return outcomes.all
    }

    private final class Outcomes: @unchecked Sendable {
        private let lock = NSLock()
        private var errors: [MatchStoreError?]
        init(count: Int) { errors = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ error: MatchStoreError) { lock.withLock { errors[index] = error } }
        var all: [MatchStoreError?] { lock.withLock { errors } }
    }

    /// A store watched by `events`, with `count` matches and one more to plug the writer.
    private func watchedStore(matches count: Int) throws -> (store: SQLiteMatchStore, events: Events, matches: [MatchID], plug: MatchID) {
        let events = Events()
        let store = try SQLiteMatchStore(folder: try scratchFolder("group"), observer: events.observer)
        events.store = store
        let matches = try (0..<count).map { try store.create(setup(seed: Int64($0))) }
        return (store, events, matches, try store.create(setup(seed: 99)))
    }

    func testAnAppendReturnsOnlyAfterTheCommitOfTheGroupHoldingIt() throws {
        let (store, events, matches, plug) = try watchedStore(matches: 8)
        let before = events.all.count
        let errors = try appendTogether(store, Array(repeating: call(1), count: 8), to: matches, plug: plug, events)

        XCTAssertEqual(errors.compactMap { $0 }.count, 0)
        let run = Array(events.all[before...])
        var committed = 0, returned = 0
        for event in run {
            switch event {
            case .didCommit(let size): committed += size
            case .returned: returned += 1 // The plug's return is not recorded: only the eight appends'.
            case .willCommit: break
            }
            XCTAssertLessThanOrEqual(returned, committed, "an append returned before the commit holding it: \(run)")
        }
        XCTAssertEqual(returned, 8)
        XCTAssertTrue(run.contains(.didCommit(8)), "the appends made while a commit ran share the next one: \(run)")
        let reopened = try SQLiteMatchStore(folder: URL(fileURLWithPath: store.path).deletingLastPathComponent())
        for match in matches { XCTAssertEqual(try reopened.log(of: match).records, [call(1)]) }
    }

    func testARefusedAppendFailsAloneAndTheRestOfItsGroupIsCommitted() throws {
        let (store, events, matches, plug) = try watchedStore(matches: 4)
        try store.append(call(1), to: matches[2])
        let before = events.all.count
        // matches[2] already holds version 1: its second version 1 is a conflict, in the same group as the others.
        let errors = try appendTogether(store, [call(1), call(1), call(1), call(1)], to: matches, plug: plug, events)

        XCTAssertEqual(errors.map { $0?.kind }, [nil, nil, .conflict, nil])
        XCTAssertTrue(events.all[before...].contains(.didCommit(4)), "\(events.all[before...])")
        for (index, match) in matches.enumerated() {
            XCTAssertEqual(try store.log(of: match).records.count, 1, "match \(index)")
        }
    }
}
