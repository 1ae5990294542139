import Foundation

/// The results of a `WorkerPool`'s items, and which item is next: the one
/// thing the workers of a `map` share, behind one lock.
///
/// The invariant: items are handed out once each, in index order; `completed`
/// hears each result once, in index order, never two at a time (it runs
/// under the lock, so what it prints is never interleaved).
final class ItemResults<R: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [R?]
    private var next = 0
    private var reported = 0
    private let completed: @Sendable (Int, R) -> Void

    init(count: Int, completed: @escaping @Sendable (Int, R) -> Void = { _, _ in }) {
        slots = Array(repeating: nil, count: count)
        self.completed = completed
    }

    /// The next item not yet handed out, or nil when every one has been.
    func claim() -> Int? {
        lock.withLock {
            guard next < slots.count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    /// Keeps item `index`'s result and reports every result now complete in order.
    func store(_ result: R, at index: Int) {
        lock.withLock {
            slots[index] = result
            while reported < slots.count, let ready = slots[reported] {
                completed(reported, ready)
                reported += 1
            }
        }
    }

    /// Every result, in index order (each item has one).
    func all() -> [R] {
        lock.withLock { slots.map { $0! } }
    }

    /// The results up to the first item without one (one left out by a stop).
    func prefixDone() -> [R] {
        lock.withLock { Array(slots.prefix { $0 != nil }.map { $0! }) }
    }
}
