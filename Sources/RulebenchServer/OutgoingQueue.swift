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

    init(maxMessages: Int, maxBytes: Int) {
        self.maxMessages = maxMessages
        self.maxBytes = maxBytes
    }

    /// Queues `item` for the writer.
    func push(_ item: [UInt8]) -> Pushed {
        lock.withLock {
            guard !closed else { return .closed }
            if items.count - head + 1 > maxMessages || bytes + item.count > maxBytes {
                closed = true
                items = []
                head = 0
                bytes = 0
                waiter?.resume(returning: nil)
                waiter = nil
                return .overflowed
            }
            deliverLocked(item)
            return .queued
        }
    }

    /// Takes nothing more; `last` (a close frame) goes after what is queued, past the bounds.
    func finish(last: [UInt8]?) {
        lock.withLock {
            guard !closed else { return }
            closed = true
            if let last { deliverLocked(last) }
            if items.count == head { waiter?.resume(returning: nil); waiter = nil }
        }
    }

    private func deliverLocked(_ item: [UInt8]) {
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: item)
        } else {
            items.append(item)
            bytes += item.count
        }
    }

    /// The next item, waiting for one; nil once finished and empty, or when the waiting task is cancelled.
    func next() async -> [UInt8]? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                lock.withLock {
                    if head < items.count {
                        let item = items[head]
                        items[head] = []
                        head += 1
                        bytes -= item.count
                        if head == items.count { items = []; head = 0 }
                        continuation.resume(returning: item)
                    } else if closed || cancelled {
                        continuation.resume(returning: nil)
                    } else {
                        waiter = continuation
                    }
                }
            }
        } onCancel: {
            lock.withLock {
                cancelled = true
                waiter?.resume(returning: nil)
                waiter = nil
            }
        }
    }
}
