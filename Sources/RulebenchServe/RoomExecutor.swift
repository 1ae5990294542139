import Foundation

/// The serial executor of one `MatchRoom`: its jobs run one at a time, in
/// order, on `RoomExecutor.threads`, a fixed set of threads shared by every
/// room, not on Swift's cooperative pool.
///
/// Why: a room answers a call by appending it to the store, which returns
/// only once the group commit holding it is synced (`MatchStore`: write,
/// sync, then acknowledge). That wait blocks a thread. On the cooperative
/// pool (one thread per core: two here) two rooms waiting would stop every
/// socket and every other room until the disk answered, and no group could
/// hold more than two calls. A dispatch queue per room avoids that but
/// grows a thread per busy room (260 threads for 200 matches under load,
/// all runnable, on 2 cores). Here a waiting room holds one of a bounded
/// number of threads while the pool goes on reading sockets and the other
/// rooms go on performing calls that join the next group.
final class RoomExecutor: SerialExecutor, @unchecked Sendable {
    /// The threads every room's jobs run on. A room waiting for its commit
    /// holds one, so they also bound how many calls one commit can group:
    /// too few and a slow disk caps the calls a second (8 on a loaded disk
    /// gave 252-402 calls/s), too many and a CPU-bound load has them all runnable.
    static let threads = RoomThreads(count: max(32, 16 * ProcessInfo.processInfo.activeProcessorCount))

    private let lock = NSLock()
    private var jobs: [UnownedJob] = []
    /// Whether the room is waiting in `threads`' queue or being run by one of them.
    private var scheduled = false

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let schedule = lock.withLock { () -> Bool in
            jobs.append(job)
            defer { scheduled = true }
            return !scheduled
        }
        if schedule { Self.threads.schedule(self) }
    }

    /// Runs the room's jobs, one at a time, until it has none (called by one thread of `threads` at a time).
    func drain() {
        while let job = lock.withLock({ () -> UnownedJob? in
            guard !jobs.isEmpty else {
                scheduled = false
                return nil
            }
            return jobs.removeFirst()
        }) {
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
