import Foundation

/// The workers of `solve --jobs N`: the caller's thread and N - 1 helper
/// threads, each expanding states in a game of its own, one depth at a
/// time (`ParallelSolver`).
///
/// A helper builds its game once (`makeGame`, on its own thread), begins
/// the same search in it, then waits for a depth to be posted; `expand`
/// posts one, takes batches itself with the caller's game, and returns
/// when every batch handed out has its result. Batches are handed out in
/// order; after a batch that meets the goal or fails, or once `shouldStop`
/// is true, no new one starts (those before it are all handed out already,
/// so the merge in order sees everything it needs).
///
/// The invariant: everything the threads share is behind `lock`; a game
/// is only ever used by the thread that made it; `finish` returns once
/// every helper has ended its search and let its game go.
final class SolveCrew: @unchecked Sendable {
    private let lock = NSCondition()
    private var generation = 0
    private var batches: [[Kernel.SolveState]] = []
    private var depth = 0
    private var next = 0
    private var results: [Kernel.SolveShare?] = []
    private var pending = 0
    private var closing = false
    /// Why a helper could not begin (its game or its search failed).
    private var startFailure: RulebenchError?
    private let ended = DispatchSemaphore(value: 0)

    /// Starts `helpers` threads, each with a game from `makeGame` in which
    /// `begin` begins the search.
    init(helpers: Int, makeGame: @escaping @Sendable () throws(RulebenchError) -> Game,
         begin: @escaping @Sendable (Kernel) throws(RulebenchError) -> Void) {
        let thread = Thread { [self] in
            _ = WorkerPool(workers: helpers).run { _ in self.serve(makeGame: makeGame, begin: begin) }
            ended.signal()
        }
        thread.stackSize = WorkerPool.stackSize
        thread.start()
    }

    /// The children of every state of `batches`, each `depth` moves from
    /// the start, the caller's share expanded with `kernel`: one result per
    /// batch handed out (nil for those not handed out). Throws when a helper
    /// could not begin.
    func expand(_ batches: [[Kernel.SolveState]], depth: Int, with kernel: Kernel,
                shouldStop: () -> Bool) throws(RulebenchError) -> [Kernel.SolveShare?] {
        lock.withLock {
            self.batches = batches
            self.depth = depth
            next = 0
            self.results = [Kernel.SolveShare?](repeating: nil, count: batches.count)
            generation += 1
            lock.broadcast()
        }
        while !shouldStop(), let (index, states, depth) = claim() {
            store(kernel.solveChildren(of: states, depth: depth), at: index)
        }
        let (failure, results) = lock.withLock { () -> (RulebenchError?, [Kernel.SolveShare?]) in
            next = batches.count
            while pending > 0 { lock.wait() }
            return (startFailure, self.results)
        }
        if let failure { throw failure }
        return results
    }

    /// Ends the helpers' searches and waits for their threads to end.
    func finish() {
        lock.withLock {
            closing = true
            lock.broadcast()
        }
        ended.wait()
    }

    private func serve(makeGame: () throws(RulebenchError) -> Game, begin: (Kernel) throws(RulebenchError) -> Void) {
        let game: Game
        do {
            game = try makeGame()
            try begin(game.kernel)
        } catch {
            lock.withLock { startFailure = startFailure ?? error }
            return
        }
        defer { game.kernel.solveEnd() }
        var seen = 0
        while true {
            let posted = lock.withLock { () -> Bool in
                while generation == seen, !closing { lock.wait() }
                seen = generation
                return !closing
            }
            guard posted else { return }
            while let (index, states, depth) = claim() {
                store(game.kernel.solveChildren(of: states, depth: depth), at: index)
            }
        }
    }

    /// The next batch not yet handed out, counted as pending until stored.
    private func claim() -> (Int, [Kernel.SolveState], Int)? {
        lock.withLock {
            guard next < batches.count else { return nil }
            defer { next += 1 }
            pending += 1
            return (next, batches[next], depth)
        }
    }

    private func store(_ share: Kernel.SolveShare, at index: Int) {
        lock.withLock {
            results[index] = share
            pending -= 1
            if share.ends { next = batches.count }
            lock.broadcast()
        }
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
