/// The hooks of a parallel session (`FuzzWorkers`) in a worker's `run`:
/// which runs it starts, and whether a finding is this worker's to shrink
/// and report (see `FuzzWorkerLink`).
extension Fuzzer {
    /// On a worker of a parallel session, what the session says of a bug new
    /// to this worker, found at a run; nil when the session is the whole session.
    func workerClaim(shouldStop: @escaping () -> Bool) -> ((FindingKey, Int) -> FuzzWorkerLink.Verdict)? {
        guard let link = options.link else { return nil }
        let worker = options.shard.index
        return { link.claim($0, by: worker, run: $1, shouldStop: shouldStop) }
    }

    /// Whether this session plays run `index`: a worker of a parallel
    /// session starts no run above the session's first finding.
    func starts(run index: Int) -> Bool {
        options.link?.starting(run: index, worker: options.shard.index) ?? true
    }
}
