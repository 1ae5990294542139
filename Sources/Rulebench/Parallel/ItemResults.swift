import Foundation

/// The results of a `WorkerPool`'s items, and which item is next (its
/// `ItemClaims`): the one thing the workers of a `map` share, behind one lock.
///
/// The invariant: items are handed out once each, by `ItemClaims`'s
/// schedule (in index order without groups); `completed` hears each result
/// once, in index order, never two at a time (it runs under the lock, so
/// what it prints is never interleaved).
final class ItemResults<R: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [R?]
    private var claims: ItemClaims
    private var reported = 0
    private let completed: @Sendable (Int, R) -> Void

    /// Results of `count` items handed out to `workers` workers (see
    /// `ItemClaims` for `groups`).
    init(count: Int, workers: Int = 1, groups: [Int]? = nil, completed: @escaping @Sendable (Int, R) -> Void = { _, _ in }) {
        slots = Array(repeating: nil, count: count)
        claims = ItemClaims(count: count, workers: workers, group: groups)
        self.completed = completed
    }

    /// The item `worker` handles next, or nil: it is done (after a stop,
    /// only the items below one already handed out are).
    func claim(by worker: Int, stopping: Bool = false) -> Int? {
        lock.withLock { claims.claim(by: worker, stopping: stopping) }
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

    /// The results up to the first item without one (one left out by a
    /// stop). The items handed out are always items 0 to k - 1
    /// (`ItemClaims`), so this holds every result of an item handed out.
    func prefixDone() -> [R] {
        lock.withLock { Array(slots.prefix { $0 != nil }.map { $0! }) }
    }
}
