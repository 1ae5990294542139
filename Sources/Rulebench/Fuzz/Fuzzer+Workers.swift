/// The hook of a parallel session (`FuzzWorkers`) in a worker's `run`:
/// a finding is shrunk and reported only when its bug is this worker's to
/// report (see `FuzzWorkerLink.claim`).
extension Fuzzer {
    /// On a worker of a parallel session, whether a bug new to this worker
    /// is new to every worker (then it is this worker's); nil when the
    /// session is the whole session.
    var workerClaim: ((FindingKey) -> Bool)? {
        guard let link = options.link else { return nil }
        let worker = options.shard.index
        return { link.claim($0, by: worker) }
    }
}
