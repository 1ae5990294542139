import Foundation

/// The workers of `solve --jobs N`: the caller's thread and N - 1 helper
/// threads, each expanding batches of states in a game of its own
/// (`ParallelSolver`), as a stream rather than a depth at a time.
///
/// The caller posts batches (`post`) as its merge finds new states, and
/// takes their results back in the order posted (`take`); helpers take the
/// oldest batch not yet handed out as soon as it is posted, whatever its
/// depth, so they never wait for a depth to be merged while there is a
/// state to expand. While the result it needs is not ready, the caller
/// expands batches too. A helper builds its game once (`makeGame`, on its
/// own thread) and begins the same search in it.
///
/// Batches are handed out in the order posted. After a batch that meets
/// the goal or fails, none posted after it starts (every one before it is
/// handed out already, so the merge in order sees everything it needs);
/// nor after `take` saw `shouldStop` true.
///
/// The invariant: everything the threads share is behind `lock`; a game
/// is only ever used by the thread that made it; a batch's states and its
/// result are dropped once handed out and taken; `finish` returns once
/// every helper has ended its search and let its game go.
final class SolveCrew: @unchecked Sendable {
    /// Some states to expand, each `depth` moves from the start.
    private struct Batch {
        var states: [Kernel.SolveState]
        let depth: Int
    }

    private let lock = NSCondition()
    private var batches: [Batch] = []
    private var results: [Kernel.SolveShare?] = []
    /// The next batch to hand out.
    private var next = 0
    /// No batch from this one on is handed out.
    private var limit = Int.max
    private var closing = false
    /// Why a helper could not begin (its game or its search failed).
    private var startFailure: RulebenchError?
    private let ended = DispatchSemaphore(value: 0)
    /// CPU seconds each worker's thread spent expanding (the caller's
    /// first): what the benchmark compares with the wall time.
    private var busy: [Double]

    /// Starts `helpers` threads, each with a game from `makeGame` in which
    /// `begin` begins the search.
    init(helpers: Int, makeGame: @escaping @Sendable () throws(RulebenchError) -> Game,
         begin: @escaping @Sendable (Kernel) throws(RulebenchError) -> Void) {
        busy = Array(repeating: 0, count: helpers + 1)
        let thread = Thread { [self] in
            _ = WorkerPool(workers: helpers).run { helper in self.serve(helper + 1, makeGame: makeGame, begin: begin) }
            ended.signal()
        }
        thread.stackSize = WorkerPool.stackSize
        thread.start()
    }

    /// Adds a batch: `states`, each `depth` moves from the start. Batches
    /// are numbered from 0 in the order posted.
    func post(_ states: [Kernel.SolveState], depth: Int) {
        lock.withLock {
            batches.append(Batch(states: states, depth: depth))
            results.append(nil)
            lock.signal()
        }
    }

    /// The result of batch `index` (posted), expanding batches with the
    /// caller's `kernel` while it is not ready; nil once `shouldStop` is
    /// true (no batch starts after that). Throws when a helper could not begin.
    func take(_ index: Int, with kernel: Kernel, shouldStop: () -> Bool) throws(RulebenchError) -> Kernel.SolveShare? {
        while true {
            if shouldStop() {
                lock.withLock { limit = min(limit, next) }
                return nil
            }
            let (ready, work, failure) = lock.withLock { () -> (Kernel.SolveShare?, (Int, Batch)?, RulebenchError?) in
                if let ready = results[index] {
                    results[index] = nil
                    return (ready, nil, nil)
                }
                if let startFailure { return (nil, nil, startFailure) }
                // Batch `index` itself is the caller's to start even past the
                // limit (a goal that holds once and not again could set it).
                if let work = claim(before: max(limit, index + 1)) { return (nil, work, nil) }
                lock.wait()
                return (nil, nil, nil)
            }
            if let failure { throw failure }
            if let ready { return ready }
            if let (claimed, batch) = work { expand(batch, at: claimed, with: kernel, worker: 0) }
        }
    }

    /// CPU seconds each worker has spent expanding so far, the caller's first.
    var busySeconds: [Double] { lock.withLock { busy } }

    /// Ends the helpers' searches and waits for their threads to end.
    func finish() {
        lock.withLock {
            closing = true
            lock.broadcast()
        }
        ended.wait()
    }

    private func serve(_ worker: Int, makeGame: () throws(RulebenchError) -> Game, begin: (Kernel) throws(RulebenchError) -> Void) {
        let game: Game
        do {
            game = try makeGame()
            try begin(game.kernel)
        } catch {
            lock.withLock {
                startFailure = startFailure ?? error
                lock.broadcast()
            }
            return
        }
        defer { game.kernel.solveEnd() }
        while let (index, batch) = lock.withLock({ () -> (Int, Batch)? in
            while !closing {
                if let work = claim(before: limit) { return work }
                lock.wait()
            }
            return nil
        }) {
            expand(batch, at: index, with: game.kernel, worker: worker)
        }
    }

    /// The next batch to hand out if it comes before `end` (called under
    /// the lock): its states are dropped from the list, the worker holds them.
    private func claim(before end: Int) -> (Int, Batch)? {
        guard next < min(batches.count, end) else { return nil }
        defer { next += 1 }
        let batch = batches[next]
        batches[next].states = []
        return (next, batch)
    }

    /// Expands `batch` (index `index`) with `kernel` and stores the result.
    private func expand(_ batch: Batch, at index: Int, with kernel: Kernel, worker: Int) {
        let began = Self.threadProcessorSeconds()
        let share = kernel.solveChildren(of: batch.states, depth: batch.depth)
        let seconds = Self.threadProcessorSeconds() - began
        lock.withLock {
            results[index] = share
            busy[worker] += seconds
            if share.ends { limit = min(limit, index + 1) }
            lock.broadcast()
        }
    }
}

extension SolveCrew {
    /// CPU seconds the calling thread has used: a worker's busy time, which
    /// other processes on the machine do not stretch as they do wall time.
    static func threadProcessorSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

extension Kernel.SolveShare {
    /// Whether nothing after this batch matters: it failed, or met the goal
    /// (a state that meets the goal is found when first reached, so the
    /// first one met in order is never one reached before).
    var ends: Bool {
        switch self {
        case .failed: return true
        case .children(let all): return all.contains { $0.contains { $0.kind == .goal } }
        }
    }
}
