import Foundation

/// A fuzz session on several workers (`fuzz --jobs N`): one `Fuzzer` per
/// worker, each with its own Lua states. The session's run numbers (those
/// of shard K of M, 1/1 unsharded) are handed out one at a time, in order,
/// to whichever worker is free (`FuzzWorkerLink.take`): between them the
/// workers play exactly the session's runs, and each run's seeds depend on
/// its number only, so with `uniform` search the runs are those of one
/// worker, run for run. Worker w is also shard K + M·w of M·N, which names
/// it (and seeds its part of the guided search's choices).
///
/// What they share goes through one owner (`FuzzWorkerLink`): each bug is
/// shrunk and reported by the worker that claimed it first; guided workers
/// draw their runs from one guided search (one corpus of kept runs, one
/// queue of probes), tell each other the edges of the pack's Lua and the
/// kinds of move their runs discovered (`Discoveries`), so that what is new
/// is judged by every worker's runs, and the breadth-first sweep runs once,
/// after the session's (not a worker's) first 5,000 steps. Findings and progress reach
/// the callbacks on the caller's thread, one at a time, as a one-worker
/// session gives them.
public struct FuzzWorkers {
    /// The session's settings, as for one worker.
    public let options: Fuzzer.Options
    /// The workers.
    public let pool: WorkerPool

    /// A session of `options` on `pool`'s workers.
    public init(options: Fuzzer.Options, pool: WorkerPool) {
        self.options = options
        self.pool = pool
    }

    /// A worker's part of the session: the session's settings, named as
    /// shard K + M·w of M·N, its runs handed out by `link`.
    func options(forWorker worker: Int, link: FuzzWorkerLink) -> Fuzzer.Options {
        var own = options
        own.shard = (options.shard.index + options.shard.count * worker, options.shard.count * pool.workers)
        own.link = link
        return own
    }

    /// What one worker ends with.
    struct WorkerEnd: Sendable {
        var progress: Fuzzer.Progress
        var coverage: CoverageReport?
    }

    /// What a worker tells the caller's thread.
    enum Event: Sendable {
        case found(Fuzzer.Report)
        case progress(worker: Int, Fuzzer.Progress)
        case played(Fuzzer.PlayedRun)
    }

    /// Runs the session as `Fuzzer.run` does (the same budget, first-finding
    /// stop and callbacks, called on this thread), the workers together;
    /// also returns the coverage of every worker's runs, merged (with
    /// `Options.coverage`). `shouldStop` and `clock` are called from the workers.
    public func run(known: Set<FindingKey> = [], clock: @escaping @Sendable () -> Double = MonotonicClock.seconds,
                    shouldStop: @escaping @Sendable () -> Bool = { false },
                    found: (Fuzzer.Report) -> Void = { _ in },
                    progress: (Fuzzer.Progress) -> Void = { _ in },
                    played: ((Fuzzer.PlayedRun) -> Void)? = nil)
        -> (reports: [Fuzzer.Report], progress: Fuzzer.Progress, coverage: CoverageReport?) {
        let shared = options.search == .guided
            ? GuidedSearch(seed: Fuzzer(options: options).searchSeed, depth: options.depth, coversEveryRun: options.coverage) : nil
        let numbers = (0..<pool.workers).map { options.shard.index + options.shard.count * $0 }
        let link = FuzzWorkerLink(workers: numbers, known: known, search: shared, keepGoing: options.keepGoing,
                                  shard: options.shard, runLimit: options.runLimit)
        let events = EventQueue<Event>()
        let parts = (0..<pool.workers).map { options(forWorker: $0, link: link) }
        let ends = WorkerEnds<WorkerEnd>(count: pool.workers)
        let pool = pool
        let tellsPlayed = played != nil
        let coordinator = Thread {
            let done = pool.run { worker in
                Self.play(parts[worker], worker: worker, link: link, known: known, clock: clock, shouldStop: shouldStop,
                          events: events, tellsPlayed: tellsPlayed)
            }
            ends.store(done)
            events.finish()
        }
        coordinator.stackSize = WorkerPool.stackSize
        coordinator.start()
        var session = SessionTally(workers: pool.workers, options: options)
        while let batch = events.take() {
            for event in batch { session.handle(event, found: found, progress: progress, played: played ?? { _ in }) }
        }
        let done = ends.values
        session.end(with: done.map(\.progress))
        return (session.reports, session.combined, Self.merged(done.compactMap(\.coverage)))
    }

    /// Seconds between two progress events of one worker while it fuzzes:
    /// the caller's thread is woken for them, and a progress line is not
    /// redrawn more often than this (`ProgressPacer.terminalInterval`).
    static let progressInterval = 0.05

    /// One worker's session, on its thread: a `Fuzzer` of its own. Its runs
    /// reach the caller's thread only when the caller listens (`tellsPlayed`),
    /// its progress only when the phase or the findings changed or every
    /// `progressInterval` seconds: the final counts come with its end.
    private static func play(_ options: Fuzzer.Options, worker: Int, link: FuzzWorkerLink, known: Set<FindingKey>,
                             clock: @escaping @Sendable () -> Double, shouldStop: @escaping @Sendable () -> Bool,
                             events: EventQueue<Event>, tellsPlayed: Bool) -> WorkerEnd {
        let fuzzer = Fuzzer(options: options)
        let me = options.shard.index
        var told = (at: -Double.infinity, findings: 0, phase: String?.none)
        let (_, state) = fuzzer.run(known: known, clock: clock, shouldStop: { shouldStop() || link.stops(worker: me) },
                                    found: { events.post(.found($0)) },
                                    progress: { state in
                                        let now = clock()
                                        guard state.phase != nil || told.phase != nil || state.findings != told.findings
                                                || now - told.at >= progressInterval else { return }
                                        told = (now, state.findings, state.phase)
                                        events.post(.progress(worker: worker, state))
                                    },
                                    played: { if tellsPlayed { events.post(.played($0)) } })
        link.ended(worker: me)
        return WorkerEnd(progress: state, coverage: try? fuzzer.coverage())
    }

    /// The coverage of every worker's runs as one report (nil when none has one).
    static func merged(_ reports: [CoverageReport]) -> CoverageReport? {
        guard var total = reports.first else { return nil }
        for other in reports.dropFirst() { total.add(other) }
        return total
    }
}
