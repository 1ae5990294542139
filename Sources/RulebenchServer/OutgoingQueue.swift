import Foundation

/// What waits to be written to one client, bounded in messages and bytes.
/// The writer takes from it as fast as the client reads; a push that would
/// pass a bound empties it and marks it overflowed (the caller then drops
/// the client): a slow reader costs at most the bounds, never more. After
/// `finish` it takes nothing more, and `next` returns what is left, then nil.
final class OutgoingQueue: @unchecked Sendable {
    enum Pushed: Equatable { case queued, overflowed, closed }

    private let lock = NSLock()
    private var items: [[UInt8]] = []
    private var head = 0
    private var bytes = 0
    private var closed = false
    private var cancelled = false
    private var waiter: CheckedContinuation<[UInt8]?, Never>?
    private let maxMessages: Int
    private let maxBytes: Int
    /// Runs inside `push` while the lock is held: a seam for the test that
    /// cancels a waiter at that moment (`OutgoingQueueTests`); nil otherwise.
    var whilePushHoldsTheLock: (() -> Void)?

    init(maxMessages: Int, maxBytes: Int) {
        self.maxMessages = maxMessages
        self.maxBytes = maxBytes
    }

    /// A waiter and what it is to be given. It is resumed after the lock is
    /// let go: resuming takes its task's status lock, which a cancellation
    /// handler (`next`'s onCancel) holds while it waits for this lock.
    private typealias Wake = (waiter: CheckedContinuation<[UInt8]?, Never>, item: [UInt8]?)

    /// Queues `item` for the writer.
    func push(_ item: [UInt8]) -> Pushed {
        let (pushed, wake) = lock.withLock { () -> (Pushed, Wake?) in
            whilePushHoldsTheLock?()
            guard !closed else { return (.closed, nil) }
            if items.count - head + 1 > maxMessages || bytes + item.count > maxBytes {
                closed = true
                items = []
                head = 0
                bytes = 0
                return (.overflowed, takeWaiterLocked(giving: nil))
            }
            return (.queued, deliverLocked(item))
        }
        if let wake { wake.waiter.resume(returning: wake.item) }
        return pushed
    }

    /// Takes nothing more; `last` (a close frame) goes after what is queued, past the bounds.
    func finish(last: [UInt8]?) {
        let wakes = lock.withLock { () -> [Wake] in
            guard !closed else { return [] }
            closed = true
            var wakes: [Wake] = []
            if let last, let wake = deliverLocked(last) { wakes.append(wake) }
            if items.count == head, let wake = takeWaiterLocked(giving: nil) { wakes.append(wake) }
            return wakes
        }
        for wake in wakes { wake.waiter.resume(returning: wake.item) }
    }

    /// Gives `item` to the waiter (returned, to be resumed unlocked) or queues it.
    private func deliverLocked(_ item: [UInt8]) -> Wake? {
        if let wake = takeWaiterLocked(giving: item) { return wake }
        items.append(item)
        bytes += item.count
        return nil
    }

    private func takeWaiterLocked(giving item: [UInt8]?) -> Wake? {
        guard let waiter else { return nil }
        self.waiter = nil
        return (waiter, item)
    }

    /// True while a `next` waits for an item.
    var hasWaiter: Bool { lock.withLock { waiter != nil } }

    /// The next item, waiting for one; nil once finished and empty, or when the waiting task is cancelled.
    func next() async -> [UInt8]? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // nil: wait; .some(value): resume now, unlocked.
                let now = lock.withLock { () -> [UInt8]?? in
                    if head < items.count {
                        let item = items[head]
                        items[head] = []
                        head += 1
                        bytes -= item.count
                        if head == items.count { items = []; head = 0 }
                        return .some(item)
                    } else if closed || cancelled {
                        return .some(nil)
                    }
                    waiter = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let wake = lock.withLock { () -> Wake? in
                cancelled = true
                return takeWaiterLocked(giving: nil)
            }
            wake?.waiter.resume(returning: nil)
        }
    }
}
