/// The discoveries of a parallel guided fuzz session (`Discoveries`), as
/// its workers told them: which edges of the pack's Lua the session has
/// reached, and what each worker has not heard yet. A value kept and
/// guarded by its one owner (`FuzzWorkerLink`); workers tell it once per
/// run and hear from it once per run, never per step.
///
/// The invariant: an edge is new to the session once (the first worker to
/// tell it gets it counted); each worker hears every other worker's
/// discoveries exactly once, in the order they were told, and never its own.
struct DiscoveryLog {
    /// Every edge any worker reached.
    private var edges = Set<Int>()
    /// What was told, oldest first, less the oldest `dropped` entries (heard by every worker).
    private var told: [(worker: Int, found: Discoveries)] = []
    private var dropped = 0
    /// Each working worker and how many entries (counted from the first ever told) it has heard.
    private var heard: [Int: Int]

    /// A log for the workers numbered `workers`.
    init(workers: [Int]) {
        heard = Dictionary(uniqueKeysWithValues: workers.map { ($0, 0) })
    }

    /// Keeps what `worker` found; returns how many of its run's edges
    /// (`found.edges`) no worker had reached: the run's new edges for the session.
    mutating func tell(_ found: Discoveries, by worker: Int) -> Int {
        var fresh = Discoveries(kinds: found.kinds)
        fresh.earlier = found.earlier.filter { edges.insert($0).inserted }
        fresh.edges = found.edges.filter { edges.insert($0).inserted }
        if !fresh.isEmpty { told.append((worker, fresh)) }
        return fresh.edges.count
    }

    /// What the other workers told since `worker` last heard.
    mutating func news(for worker: Int) -> Discoveries {
        var news = Discoveries()
        guard let from = heard[worker] else { return news }
        for entry in told[(from - dropped)...] where entry.worker != worker { news.add(entry.found) }
        heard[worker] = dropped + told.count
        trim()
        return news
    }

    /// `worker` has ended: it hears no more (and holds nothing back).
    mutating func leave(_ worker: Int) {
        heard[worker] = nil
        trim()
    }

    /// Drops the entries every worker has heard.
    private mutating func trim() {
        let oldest = heard.values.min() ?? dropped + told.count
        guard oldest > dropped else { return }
        told.removeFirst(oldest - dropped)
        dropped = oldest
    }
}
