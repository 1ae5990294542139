import Foundation

/// What the workers of a parallel fuzz session (`FuzzWorkers`) share, owned
/// here behind one lock: the bugs claimed (so each is shrunk and reported
/// by one worker only), the guided search's choice of runs (its kept runs
/// and pending probes: one corpus for every worker), the run each worker is
/// playing, and, when the session stops at its first finding, which run
/// found it.
///
/// The invariant: a finding key is claimed at most once per session (the
/// bugs known from the corpus count as claimed). Without `keepGoing`, the
/// one finding reported is that of the lowest-numbered run that finds a
/// new bug, as with one worker: a worker that finds one at run r waits
/// until every run below r has been played (another may find an earlier
/// one, which then wins), runs above the earliest finding are not started,
/// and runs below it are played to their end.
final class FuzzWorkerLink: @unchecked Sendable {
    /// What a claim decided.
    enum Verdict {
        /// The bug is this worker's to shrink and report.
        case mine
        /// Another worker claimed the same bug: a duplicate, as one worker counts it.
        case duplicate
        /// An earlier run's finding is the session's one finding: this one is never reported.
        case preceded
    }

    /// A worker's run number before it starts its first run: below every run.
    private static let notStarted = -1
    /// A worker's run number once it has ended: above every run.
    private static let ended = Int.max

    private let condition = NSCondition()
    private var claimed: Set<FindingKey>
    private var search: GuidedSearch?
    private let keepGoing: Bool
    /// Each worker (by its shard number) and the run it is playing.
    private var playing: [Int: Int]
    /// The lowest run that found a new bug, and its worker (without `keepGoing`).
    private var first: (run: Int, worker: Int)?

    /// A link for a session of the workers numbered `workers` (their shard
    /// numbers) that knows `known`; `search` is the shared guided search
    /// (nil for uniform sessions).
    init(workers: [Int], known: Set<FindingKey>, search: GuidedSearch?, keepGoing: Bool) {
        claimed = known
        self.search = search
        self.keepGoing = keepGoing
        playing = Dictionary(uniqueKeysWithValues: workers.map { ($0, Self.notStarted) })
    }

    /// Called before `worker` plays `run`: whether it plays it (no run above
    /// the session's first finding is started).
    func starting(run: Int, worker: Int) -> Bool {
        condition.withLock {
            playing[worker] = run
            condition.broadcast()
            return keepGoing || first.map { run < $0.run } ?? true
        }
    }

    /// Called when `worker` has played its last run.
    func ended(worker: Int) {
        condition.withLock {
            playing[worker] = Self.ended
            condition.broadcast()
        }
    }

    /// Whether `worker` stops: an earlier run than the one it plays found
    /// the session's one finding.
    func stops(worker: Int) -> Bool {
        condition.withLock {
            guard !keepGoing, let first, first.worker != worker else { return false }
            return (playing[worker] ?? Self.ended) > first.run
        }
    }

    /// Whether `worker`, which found bug `key` at `run`, is the one to
    /// shrink and report it. Without `keepGoing` this waits until every run
    /// below `run` has been played (or `shouldStop` says the session ends).
    func claim(_ key: FindingKey, by worker: Int, run: Int, shouldStop: () -> Bool) -> Verdict {
        condition.lock()
        defer { condition.unlock() }
        if keepGoing || claimed.contains(key) { return claimed.insert(key).inserted ? .mine : .duplicate }
        if first.map({ run < $0.run }) ?? true { first = (run, worker) }
        condition.broadcast()
        while first?.worker == worker, playing.contains(where: { $0.key != worker && $0.value < run }) {
            // `shouldStop` may ask this link (`stops`): never under the lock.
            condition.unlock()
            let stop = shouldStop()
            condition.lock()
            if stop { break }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
        guard first?.worker == worker, first?.run == run else { return .preceded }
        return claimed.insert(key).inserted ? .mine : .duplicate
    }

    /// The shared guided search's next run (nil without one).
    func next(newGame: FuzzProgram, choiceSeed: UInt64) -> GuidedSearch.Run? {
        condition.withLock { search?.next(newGame: newGame, choiceSeed: choiceSeed) }
    }

    /// Tells the shared guided search how a run it chose went.
    func observe(_ program: FuzzProgram, _ result: FuzzExecutor.Result) {
        condition.withLock { search?.observe(program, result) }
    }
}
