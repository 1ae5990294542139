/// The hook of a parallel session (`FuzzWorkers`) in a worker's `run`:
/// a finding is shrunk and reported only when its bug is this worker's to
/// report (see `FuzzWorkerLink.claim`).
extension Fuzzer {
    /// Whether the bug `key` is new to this session and, on a worker of a
    /// parallel session, new to every worker (then it is this worker's).
    func claim(_ key: FindingKey, seen: inout Set<FindingKey>) -> Bool {
        guard seen.insert(key).inserted else { return false }
        return options.link?.claim(key, by: options.shard.index) ?? true
    }
}
