import Foundation

/// Events posted by workers and handled on one thread (the caller's), in
/// the order posted: what lets a parallel session hand its findings and
/// progress to callbacks that are not thread-safe (a writer, a progress line).
///
/// The invariant: every event posted before `finish` is taken exactly once;
/// `take` returns nil only when the queue is finished and empty.
final class EventQueue<Event: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [Event] = []
    private var finished = false

    /// Adds an event (from any thread) and wakes the taker.
    func post(_ event: Event) {
        condition.withLock {
            pending.append(event)
            condition.signal()
        }
    }

    /// No event follows: the taker ends once it has taken the rest.
    func finish() {
        condition.withLock {
            finished = true
            condition.signal()
        }
    }

    /// Every event posted since the last take, waiting for one when there
    /// is none; nil once the queue is finished and empty.
    func take() -> [Event]? {
        condition.withLock {
            while pending.isEmpty && !finished { condition.wait() }
            if pending.isEmpty { return nil }
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
    }
}
