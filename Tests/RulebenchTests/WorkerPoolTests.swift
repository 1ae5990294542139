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
}

/// Integers appended from several threads, behind a lock.
final class Heard: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Int] = []
    func append(_ value: Int) { lock.withLock { list.append(value) } }
    var values: [Int] { lock.withLock { list } }
}
