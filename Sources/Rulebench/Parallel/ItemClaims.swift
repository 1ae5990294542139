/// Which item a worker of a `WorkerPool.map` takes next: the schedule, kept
/// apart from the threads so that it can be stepped through one claim at a
/// time (not thread-safe: `ItemResults` holds it under its lock).
///
/// Without groups, or with one worker, items go out in index order. With
/// groups (`group[i]`: items of one group are cheaper to handle one after
/// another by one worker, as the scenarios of one pack are in a game kept
/// for them), a worker takes, in this order of preference:
/// 1. the first free item of the group of its last item (its state serves);
/// 2. the first free item of a group no other worker is on;
/// 3. the first free item of a group another worker is on, if that group
///    has more than `tail` free items (a long queue is split);
/// 4. nothing, if every free item is in another worker's short queue (it
///    will take them soon; the worker ends instead of setting up again);
/// 5. else the first free item.
/// Choices 1-3 look only at the first `span` items from the first free
/// one, so no worker runs more than `span - 1` items ahead of it.
///
/// The invariants: each item goes out once; a worker that got nil asks no
/// more and holds no group; the last worker left never gets nil while items
/// are free, so every item goes out unless the run is stopped; after a stop
/// only the holes below the highest item handed out go out, so the items
/// handed out always end as a prefix of the items (0 to k - 1).
struct ItemClaims {
    /// How many free items a group another worker is on may have and still
    /// be left to it: it restarts its state for each (desert: 1 ms) where a
    /// second worker would set up again (7 ms), and the second worker waits
    /// for at most this many items.
    static let tail = 2
    /// How far ahead of the first free item a worker looks, per worker:
    /// bounds how long an early result can wait for the ones before it.
    static let spanPerWorker = 4

    private let group: [Int]?
    private var free: [Bool]
    private var firstFree = 0
    private var handedOut = 0
    /// One past the highest item handed out.
    private var end = 0
    private var freeInGroup: [Int: Int] = [:]
    /// The group of each worker's last item; nil before its first and once it got nil.
    private var current: [Int?]
    private let span: Int

    /// Claims on `count` items by `workers` workers; `group` gives each item's group.
    init(count: Int, workers: Int, group: [Int]? = nil) {
        precondition(group == nil || group!.count == count, "one group per item")
        self.group = workers > 1 ? group : nil
        free = Array(repeating: true, count: count)
        current = Array(repeating: nil, count: max(workers, 1))
        span = Self.spanPerWorker * max(workers, 1)
        for key in self.group ?? [] { freeInGroup[key, default: 0] += 1 }
    }

    /// The item `worker` handles next, or nil: it is done. After a stop
    /// (`stopping`), only an item below one already handed out.
    mutating func claim(by worker: Int, stopping: Bool = false) -> Int? {
        let done = firstFree >= free.count || (stopping && firstFree >= end)
        guard !done, let pick = stopping ? firstFree : choose(for: worker) else {
            current[worker] = nil
            return nil
        }
        take(pick, by: worker)
        return pick
    }

    /// The item to hand `worker` by the preferences above, or nil (4).
    private func choose(for worker: Int) -> Int? {
        guard let group else { return firstFree }
        let window = (firstFree..<min(firstFree + span, free.count)).lazy.filter { free[$0] }
        let others = Set(current.indices.filter { $0 != worker }.compactMap { current[$0] })
        if let mine = current[worker], let index = window.first(where: { group[$0] == mine }) { return index }
        if let index = window.first(where: { !others.contains(group[$0]) }) { return index }
        if let index = window.first(where: { freeInGroup[group[$0]]! > Self.tail }) { return index }
        let waiting = others.reduce(0) { $0 + (freeInGroup[$1]! <= Self.tail ? freeInGroup[$1]! : 0) }
        return waiting == free.count - handedOut ? nil : firstFree
    }

    private mutating func take(_ index: Int, by worker: Int) {
        free[index] = false
        handedOut += 1
        end = max(end, index + 1)
        while firstFree < free.count && !free[firstFree] { firstFree += 1 }
        if let group {
            freeInGroup[group[index]]! -= 1
            current[worker] = group[index]
        }
    }
}
