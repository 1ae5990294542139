import Foundation

/// What the workers of a parallel fuzz session (`FuzzWorkers`) share, owned
/// here behind one lock: the bugs claimed (so each is shrunk and reported
/// by one worker only), the guided search's choice of runs (its kept runs
/// and pending probes: one corpus for every worker) and what the guided
/// runs discovered (edges reached, kinds played: `DiscoveryLog`), the run
/// each worker is playing, and, when the session stops at its first
/// finding, which run found it. A worker takes the lock a few times per
/// run (take, next, observe), never per step.
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
    /// What the guided workers found (used only with `search`).
    private var discoveries: DiscoveryLog
    private let keepGoing: Bool
    /// Each worker (by its shard number) and the run it is playing.
    private var playing: [Int: Int]
    /// The session's runs, handed out one at a time in order: the next one,
    /// the step between two (the session's shard count) and the limit (`--runs`).
    private var handOut: (next: Int, step: Int, limit: Int?)
    /// The session's first run (the one played twice: property 9).
    let firstRun: Int
    /// Whether the session makes the guided search's sweep (shard 1's, as
    /// without workers), and each worker's steps so far, until one sweeps.
    let sweeps: Bool
    private var sweepWatch: [Int: Int]? = [:]
    /// The lowest run that found a new bug, and its worker (without `keepGoing`).
    private var first: (run: Int, worker: Int)?

    /// A link for a session of the workers numbered `workers` (their shard
    /// numbers) that knows `known`; `search` is the shared guided search
    /// (nil for uniform sessions). The session plays the runs of shard
    /// `shard` up to `runLimit` (every run of the numbers `i mod
    /// shard.count == shard.index - 1`, below the limit).
    init(workers: [Int], known: Set<FindingKey>, search: GuidedSearch?, keepGoing: Bool,
         shard: (index: Int, count: Int) = (1, 1), runLimit: Int? = nil) {
        claimed = known
        handOut = (shard.index - 1, shard.count, runLimit)
        firstRun = shard.index - 1
        sweeps = shard.index == 1
        self.search = search
        self.keepGoing = keepGoing
        playing = Dictionary(uniqueKeysWithValues: workers.map { ($0, Self.notStarted) })
        discoveries = DiscoveryLog(workers: workers)
    }

    /// The next run of the session, for `worker` to play now: the runs go
    /// to whichever worker is free, one at a time in order, so the workers
    /// end together (a fixed share each would leave one idle while the other
    /// plays its longer runs). Nil when every run is handed out, or when
    /// the next is above the session's first finding (it is not started).
    func take(worker: Int) -> Int? {
        condition.withLock {
            let run = handOut.next
            guard handOut.limit.map({ run < $0 }) ?? true else { return nil }
            handOut.next += handOut.step
            playing[worker] = run
            condition.broadcast()
            return keepGoing || first.map { run < $0.run } ?? true ? run : nil
        }
    }

    /// Called when `worker` has played its last run.
    func ended(worker: Int) {
        condition.withLock {
            playing[worker] = Self.ended
            discoveries.leave(worker)
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

    /// Whether `worker`, having taken `steps` steps, makes the session's
    /// sweep now: true once per session, for the first worker to see the
    /// session's steps (every worker's) reach `after`.
    func sweepsNow(worker: Int, steps: Int, after: Int) -> Bool {
        condition.withLock {
            guard sweeps, sweepWatch != nil else { return false }
            sweepWatch![worker] = steps
            guard sweepWatch!.values.reduce(0, +) >= after else { return false }
            sweepWatch = nil
            return true
        }
    }

    /// The shared guided search's next run for `worker` (nil without one),
    /// carrying what the other workers discovered since it last heard.
    func next(newGame: FuzzProgram, choiceSeed: UInt64, worker: Int) -> GuidedSearch.Run? {
        condition.withLock {
            guard var run = search?.next(newGame: newGame, choiceSeed: choiceSeed) else { return nil }
            run.request.share = discoveries.news(for: worker)
            return run
        }
    }

    /// What the other workers discovered since `worker` last heard: what
    /// its next run's request shares (`Kernel.RunRequest.share`).
    func news(for worker: Int) -> Discoveries {
        condition.withLock { discoveries.news(for: worker) }
    }

    /// Tells the session what `worker`'s run discovered and, when `keeps`,
    /// the shared guided search how the run went, its new edges counted
    /// against every worker's (an edge another worker reached first is not
    /// new). Returns the result as the session judges it.
    @discardableResult
    func observe(_ program: FuzzProgram, _ result: FuzzExecutor.Result, worker: Int, keeps: Bool = true) -> FuzzExecutor.Result {
        condition.withLock {
            var judged = result
            if let found = result.found { judged.newEdges = discoveries.tell(found, by: worker) }
            if keeps { search?.observe(program, judged) }
            return judged
        }
    }
}
