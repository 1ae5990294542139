import Foundation
import XCTest
@testable import Rulebench

/// `WorkerPool`: each item handled once, results and `completed` in item
/// order whatever order the workers finish in, a stop honoured between items.
final class WorkerPoolTests: XCTestCase {
    func testEveryItemIsHandledOnceAndTheResultsComeInItemOrder() {
        for workers in [1, 2, 3] {
            let heard = Heard()
            let results = WorkerPool(workers: workers).map(count: 50, makeWorker: { worker in worker },
                                                           completed: { index, _ in heard.append(index) },
                                                           body: { _, index in index * index })
            XCTAssertEqual(results, (0..<50).map { $0 * $0 }, "\(workers) workers")
            XCTAssertEqual(heard.values, Array(0..<50), "\(workers) workers: completed out of order")
        }
    }

    func testEachWorkerBuildsItsStateOnceAndOnlyItUsesIt() {
        let built = Heard()
        let owners = WorkerPool(workers: 2).map(count: 40, makeWorker: { worker -> [Int] in built.append(worker); return [worker] },
                                                body: { state, _ in state.append(state[0]); return state[0] })
        XCTAssertEqual(Set(built.values).count, built.values.count, "a worker built its state twice: \(built.values)")
        XCTAssertTrue(Set(owners).isSubset(of: Set(built.values)))
    }

    func testOneWorkerRunsOnTheCallersThread() {
        XCTAssertTrue(Thread.isMainThread)
        XCTAssertEqual(WorkerPool(workers: 1).run { _ in Thread.isMainThread }, [true])
        XCTAssertEqual(WorkerPool(workers: 2).run { _ in Thread.isMainThread }, [false, false])
        XCTAssertEqual(WorkerPool(workers: 3).run { $0 }, [0, 1, 2])
    }

    func testAStopLeavesOutTheItemsNotStarted() {
        let handled = Heard()
        let results = WorkerPool(workers: 1).map(count: 10, makeWorker: { _ in 0 },
                                                 shouldStop: { handled.values.count >= 4 },
                                                 body: { _, index in handled.append(index); return index })
        XCTAssertEqual(results, [0, 1, 2, 3])
    }

    // With groups (`ItemClaims`): first stepped one claim at a time, then on threads.

    /// Each claim of `order` (the worker claiming) on items of `groups`: what it got.
    private func claims(_ groups: [Int], workers: Int, _ order: [Int]) -> [Int?] {
        var claims = ItemClaims(count: groups.count, workers: workers, group: groups)
        return order.map { claims.claim(by: $0) }
    }

    func testAWorkerTakesItsGroupFirstAndLeavesAShortQueueToTheWorkerOnIt() {
        // Worker 1 starts on the group nobody is on; worker 0, done with its
        // group, leaves the last of worker 1's (one, not more than `tail`) and ends.
        XCTAssertEqual(claims([0, 0, 0, 1, 1, 1], workers: 2, [0, 1, 0, 1, 0, 0, 1, 1]), [0, 3, 1, 4, 2, nil, 5, nil])
    }

    func testALongGroupIsSharedAndOneWorkerTakesItemsInOrder() {
        XCTAssertEqual(claims(Array(repeating: 0, count: 10) + [1], workers: 2, [0, 1, 0, 1]), [0, 1, 2, 3])
        XCTAssertEqual(claims([0, 1, 0, 1], workers: 1, [0, 0, 0, 0, 0]), [0, 1, 2, 3, nil])
    }

    func testAWorkerLooksNoFurtherAheadThanItsSpan() {
        // One red, 20 blue, one green: worker 0, done with red, shares blue's
        // queue rather than take green, 20 items ahead (the span is 8 for 2).
        XCTAssertEqual(claims([0] + Array(repeating: 1, count: 20) + [2], workers: 2, [0, 1, 0]), [0, 1, 2])
    }

    /// Under claims in a random order of workers (fixed seeds): every item
    /// goes out once, none further than the span ahead of the first free
    /// one; after a stop, only holes go out, so what went out is a prefix.
    func testEveryItemGoesOutOnceWithinTheSpanAndAStopLeavesAPrefix() {
        var random = FuzzRandom(seed: 31)
        for workers in [2, 3, 5] {
            for trial in 0..<40 {
                let groups = (0...random.below(12)).flatMap { group in
                    Array(repeating: group, count: 1 + random.below(9))
                }
                let stopAfter = trial % 2 == 0 ? random.below(groups.count + 1) : groups.count
                var claims = ItemClaims(count: groups.count, workers: workers, group: groups)
                var active = Array(0..<workers), out: [Int] = []
                while !active.isEmpty {
                    let worker = active[random.below(active.count)]
                    let firstFree = (0...groups.count).first { !out.contains($0) }!
                    guard let item = claims.claim(by: worker, stopping: out.count >= stopAfter) else {
                        active.removeAll { $0 == worker }
                        continue
                    }
                    XCTAssertFalse(out.contains(item), "item \(item) went out twice")
                    XCTAssertLessThan(item, firstFree + ItemClaims.spanPerWorker * workers, "too far ahead")
                    out.append(item)
                }
                let expected = stopAfter == groups.count ? groups.count : out.count
                XCTAssertEqual(out.sorted(), Array(0..<expected), "\(workers) workers, groups \(groups)")
            }
        }
    }

    /// Two workers each on a first item before either goes on (`Gate`): two
    /// groups of three items, each handled by one worker.
    func testOnThreadsAGroupOfFewItemsStaysWithOneWorker() {
        let gate = Gate(parties: 2)
        let handlers = WorkerPool(workers: 2).map(count: 6, groups: [0, 0, 0, 1, 1, 1], makeWorker: { worker in (worker, first: true) },
                                                  body: { state, _ in
            if state.first { gate.arrive() }
            state.first = false
            return state.0
        })
        XCTAssertFalse(gate.timedOut)
        XCTAssertEqual(Set(handlers[0..<3]).count, 1, "\(handlers)")
        XCTAssertEqual(Set(handlers[3..<6]).count, 1, "\(handlers)")
        XCTAssertNotEqual(handlers[0], handlers[3])
    }

    /// A stop while the workers are on items 0 and 3: items 1 and 2, below
    /// one started, still run, so the results are every item started.
    func testOnThreadsAStopAfterAnItemTakenAheadStillGivesEveryItemStarted() {
        let gate = Gate(parties: 2), started = Heard()
        let results = WorkerPool(workers: 2).map(count: 6, groups: [0, 0, 0, 1, 1, 1], makeWorker: { _ in true },
                                                 shouldStop: { gate.open }, body: { first, index in
            started.append(index)
            if first { gate.arrive() }
            first = false
            return index
        })
        XCTAssertFalse(gate.timedOut)
        XCTAssertEqual(results, [0, 1, 2, 3])
        XCTAssertEqual(started.values.sorted(), results)
    }
}

/// Lets threads on until `parties` have arrived (a deadlock guard of a
/// minute turns a broken schedule into a failure, not a hang).
final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private let parties: Int
    private var arrived = 0
    private var expired = false

    init(parties: Int) { self.parties = parties }

    func arrive() {
        condition.withLock {
            arrived += 1
            condition.broadcast()
            while arrived < parties && !expired {
                if !condition.wait(until: Date(timeIntervalSinceNow: 60)) { expired = true }
            }
        }
    }

    /// Whether every party has arrived.
    var open: Bool { condition.withLock { arrived >= parties } }
    var timedOut: Bool { condition.withLock { expired } }
}

/// Integers appended from several threads, behind a lock.
final class Heard: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Int] = []
    func append(_ value: Int) { lock.withLock { list.append(value) } }
    var values: [Int] { lock.withLock { list } }
}
