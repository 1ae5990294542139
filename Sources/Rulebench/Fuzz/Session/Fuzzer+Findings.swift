// The findings a session keeps. Invariant: one report per distinct bug
// (`FindingKey`), counted once: a finding of a bug seen before (this session
// or `known`), or a report that shrank to a bug already kept, is counted in
// `Progress.duplicates` and never reported again.

extension Fuzzer {
    /// The bugs a session has seen and the reports it kept, in the order found.
    struct Findings {
        /// Bugs seen so far, before shrinking: `known` and this session's.
        private var seen: Set<FindingKey>
        /// Bugs reported before the session (a corpus replay's).
        private let known: Set<FindingKey>
        /// The reports kept, one per distinct bug.
        private(set) var reports: [Report] = []

        /// A parallel session's say on whether a bug new here, found at a run, is this worker's (`Fuzzer.workerClaim`).
        private let claim: ((FindingKey, Int) -> FuzzWorkerLink.Verdict)?

        init(known: Set<FindingKey>, claim: ((FindingKey, Int) -> FuzzWorkerLink.Verdict)? = nil) {
            self.known = known
            self.claim = claim
            seen = known
        }

        /// Whether `finding` is of a bug not seen yet; when it is not, it is counted as a duplicate.
        /// On a worker of a parallel session, a finding of run `run` that an
        /// earlier run's finding precedes is neither new nor a duplicate: one
        /// worker would never have played it.
        mutating func isNew(_ finding: FuzzFinding, at run: Int, _ state: inout Progress) -> Bool {
            let key = FindingKey(finding)
            guard seen.insert(key).inserted else {
                state.duplicates += 1
                return false
            }
            switch claim?(key, run) ?? .mine {
            case .mine: return true
            case .duplicate: state.duplicates += 1; return false
            case .preceded: return false
            }
        }

        /// Keeps a report and hands it over at once (see `Fuzzer.run`'s
        /// `found`). Two findings told apart before shrinking (`step` alone,
        /// and `step` inside `dash`) may shrink to the same bug: the second
        /// is a duplicate.
        mutating func keep(_ report: Report, _ state: inout Progress, found: (Report) -> Void) {
            if known.contains(report.key) || reports.contains(where: { $0.key == report.key }) {
                state.duplicates += 1
                return
            }
            reports.append(report)
            found(report)
        }
    }
}
