import Foundation

/// Runs a command's work on several threads, one worker per thread: what
/// `--jobs N` gives every command.
///
/// A Lua state is single-threaded, so parallel work means one `Game` (one
/// Lua state) per worker: each worker builds its own state on its own
/// thread (`map`'s `makeWorker`) and never hands it to another. What the
/// workers share is owned by one lock-protected type (`ItemResults` here,
/// `SharedFuzzSession` for fuzzing); nothing else crosses threads.
///
/// The invariant: `workers == 1` runs everything on the caller's thread, in
/// order, as the command ran before it had workers, so `--jobs 1` is exactly
/// the old behaviour.
public struct WorkerPool: Sendable {
    /// How many threads work at once (at least 1).
    public let workers: Int

    /// A pool of `workers` threads (at least one).
    public init(workers: Int) {
        self.workers = max(1, workers)
    }

    /// The default `--jobs`: the number of cores the process may use.
    public static var defaultWorkers: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// The stack each worker thread gets: as much as a main thread's, since
    /// a rule's deep recursion runs on it (a dispatch queue's threads have
    /// a fraction of that).
    static let stackSize = 8 << 20

    /// Runs `body(worker)` once for each worker, 0 to `workers - 1`, each on
    /// its own thread, and returns when all have; the results come back in
    /// worker order. With one worker, `body(0)` runs on the caller's thread.
    public func run<R: Sendable>(_ body: @escaping @Sendable (_ worker: Int) -> R) -> [R] {
        if workers == 1 { return [body(0)] }
        let results = ItemResults<R>(count: workers)
        let done = DispatchGroup()
        for worker in 0..<workers {
            done.enter()
            let thread = Thread {
                results.store(body(worker), at: worker)
                done.leave()
            }
            thread.stackSize = Self.stackSize
            thread.start()
        }
        done.wait()
        return results.all()
    }

    /// Handles items 0 to `count - 1`, each taken by the next worker free: in
    /// order of their index, or, given `groups` (item i's group: a worker's
    /// state serves its last item's group best, as a kept game its pack's
    /// scenarios), by `ItemClaims`' schedule, in which a worker takes its
    /// group's items first and looks no further than `ItemClaims.spanPerWorker`
    /// items per worker ahead of the first one free (one worker still takes
    /// them in order). A worker builds its state once (`makeWorker`,
    /// on its own thread: its `Game`), then handles items with it (`body`).
    /// `completed` hears each result in item order, as soon as every item
    /// before it has completed too (so a report streams in the order one
    /// worker would give it); the results come back in item order.
    /// `shouldStop` is polled before each item: items not started by then
    /// are left out, except those below an item started (so the results,
    /// which end at the first item left out, hold every item started).
    public func map<State, R: Sendable>(count: Int, groups: [Int]? = nil,
                                        makeWorker: @escaping @Sendable (_ worker: Int) -> State,
                                        shouldStop: @escaping @Sendable () -> Bool = { false },
                                        completed: @escaping @Sendable (_ index: Int, _ result: R) -> Void = { _, _ in },
                                        body: @escaping @Sendable (inout State, _ index: Int) -> R) -> [R] {
        let pool = WorkerPool(workers: min(workers, max(count, 1)))
        let results = ItemResults<R>(count: count, workers: pool.workers, groups: groups, completed: completed)
        _ = pool.run { worker in
            var state: State?
            while let index = results.claim(by: worker, stopping: shouldStop()) {
                if state == nil { state = makeWorker(worker) }
                results.store(body(&state!, index), at: index)
            }
        }
        return results.prefixDone()
    }
}
