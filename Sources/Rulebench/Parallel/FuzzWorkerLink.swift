import Foundation

/// What the workers of a parallel fuzz session (`FuzzWorkers`) share, owned
/// here behind one lock: the bugs claimed (so each is shrunk and reported
/// by one worker only), the guided search's choice of runs (its kept runs
/// and pending probes: one corpus for every worker), and, when the session
/// stops at its first finding, which worker found it.
///
/// The invariant: a finding key is claimed at most once per session (the
/// bugs known from the corpus count as claimed); without `keepGoing`, once
/// a worker has claimed a bug no other worker claims one, and the others
/// stop (`stops(worker:)`) while it shrinks.
final class FuzzWorkerLink: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed: Set<FindingKey>
    private var search: GuidedSearch?
    private var finder: Int?
    private let keepGoing: Bool

    /// A link for a session that knows `known`; `search` is the shared
    /// guided search (nil for uniform sessions).
    init(known: Set<FindingKey>, search: GuidedSearch?, keepGoing: Bool) {
        claimed = known
        self.search = search
        self.keepGoing = keepGoing
    }

    /// Whether `worker` is the one to shrink and report the bug `key`.
    func claim(_ key: FindingKey, by worker: Int) -> Bool {
        lock.withLock {
            if !keepGoing, let finder, finder != worker { return false }
            guard claimed.insert(key).inserted else { return false }
            if !keepGoing { finder = worker }
            return true
        }
    }

    /// Whether `worker` stops: another worker found the session's one finding.
    func stops(worker: Int) -> Bool {
        lock.withLock { finder.map { $0 != worker } ?? false }
    }

    /// The shared guided search's next run (nil without one).
    func next(newGame: FuzzProgram, choiceSeed: UInt64) -> GuidedSearch.Run? {
        lock.withLock { search?.next(newGame: newGame, choiceSeed: choiceSeed) }
    }

    /// Tells the shared guided search how a run it chose went.
    func observe(_ program: FuzzProgram, _ result: FuzzExecutor.Result) {
        lock.withLock { search?.observe(program, result) }
    }
}
