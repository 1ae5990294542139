import Foundation
import XCTest
@testable import RulebenchServer

/// The WebSocket send queue's waiter and its cancellation: a push that
/// wakes a waiter whose task is being cancelled at that moment must not
/// wait for the cancellation while holding the queue's lock.
final class OutgoingQueueTests: XCTestCase {
    /// A push holding the queue's lock while a second thread cancels the
    /// waiting task: the cancellation handler holds its task's status lock
    /// and waits for the queue's lock. Resuming the waiter needs that
    /// status lock, so a push that resumed before letting its lock go
    /// would wait forever (a CI run hung so).
    func testAPushWakingAWaiterBeingCancelledFinishes() throws {
        let queue = OutgoingQueue(maxMessages: 4, maxBytes: 1024)
        let nextReturned = DispatchSemaphore(value: 0)
        let task = Task.detached {
            _ = await queue.next()
            nextReturned.signal()
        }
        try waitUntil("the task waits in next") { queue.hasWaiter }

        let cancelling = DispatchSemaphore(value: 0)
        queue.whilePushHoldsTheLock = {
            queue.whilePushHoldsTheLock = nil
            Thread.detachNewThread {
                cancelling.signal()
                task.cancel()   // runs next's onCancel here, which waits for the queue's lock
            }
            cancelling.wait()
            // Give the cancelling thread time to enter the handler and block on
            // the lock: the order the deadlock needs (a shorter wait only makes
            // the test weaker, never wrong).
            Thread.sleep(forTimeInterval: 0.05)
        }
        let pushed = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = queue.push([1, 2, 3])
            pushed.signal()
        }
        XCTAssertEqual(pushed.wait(timeout: .now() + 20), .success, "push never returned: deadlocked with the cancellation")
        XCTAssertEqual(nextReturned.wait(timeout: .now() + 20), .success, "next never returned")
    }

    /// A waiter cancelled with nothing pushed is given nil; a push after it queues.
    func testACancelledWaiterGetsNilAndTheQueueStillTakes() throws {
        let queue = OutgoingQueue(maxMessages: 4, maxBytes: 1024)
        let got = Box()
        let done = DispatchSemaphore(value: 0)
        let task = Task.detached {
            got.value = await queue.next()
            done.signal()
        }
        try waitUntil("the task waits in next") { queue.hasWaiter }
        task.cancel()
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success)
        XCTAssertNil(got.value)
        XCTAssertEqual(queue.push([7]), .queued)
    }

    private final class Box: @unchecked Sendable { var value: [UInt8]? = [0] }

    /// Polls `condition` (bounded: 2,000 tries of 5 ms).
    private func waitUntil(_ what: String, _ condition: () -> Bool) throws {
        for _ in 0..<2_000 {
            if condition() { return }
            Thread.sleep(forTimeInterval: 0.005)
        }
        XCTFail("timed out waiting until \(what)")
        throw XCTSkip("condition never held")
    }
}
