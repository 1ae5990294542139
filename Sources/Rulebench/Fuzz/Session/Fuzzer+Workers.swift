/// The hooks of a parallel session (`FuzzWorkers`) in a worker's `run`:
/// which run it plays next, and whether a finding is this worker's to shrink
/// and report (see `FuzzWorkerLink`).
extension Fuzzer {
    /// On a worker of a parallel session, what the session says of a bug new
    /// to this worker, found at a run; nil when the session is the whole session.
    func workerClaim(shouldStop: @escaping () -> Bool) -> ((FindingKey, Int) -> FuzzWorkerLink.Verdict)? {
        guard let link = options.link else { return nil }
        let worker = options.shard.index
        return { link.claim($0, by: worker, run: $1, shouldStop: shouldStop) }
    }

    /// The next run this session plays, nil when there is none: this
    /// shard's next run below the run limit (`cursor` is where to look
    /// next), or on a worker of a parallel session, the run the session
    /// hands it (`FuzzWorkerLink.take`).
    func nextRun(_ cursor: inout Int) -> Int? {
        if let link = options.link { return link.take(worker: options.shard.index) }
        while !owns(run: cursor) { cursor += 1 }
        guard options.runLimit.map({ cursor < $0 }) ?? true else { return nil }
        defer { cursor += 1 }
        return cursor
    }

    /// Whether run `index`, this session's `runs`-th, is the session's first
    /// (played twice, property 9): on a worker of a parallel session, the
    /// first run handed out, so N workers check it once, as one worker does.
    func isSessionFirst(run index: Int, runs: Int) -> Bool {
        options.link.map { index == $0.firstRun } ?? (runs == 1)
    }

    /// Whether the guided search's sweep is made now, this session having
    /// taken `steps` steps: once `sweepAfter` steps are taken, by the
    /// session's steps on a worker of a parallel session (the first worker
    /// to see them sweeps), as one worker sweeps after its own.
    func sweepsNow(after steps: Int) -> Bool {
        options.link?.sweepsNow(worker: options.shard.index, steps: steps, after: Fuzzer.sweepAfter) ?? (steps >= Fuzzer.sweepAfter)
    }
}
