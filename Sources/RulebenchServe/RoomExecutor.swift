import Dispatch

/// The serial executor of one `MatchRoom`: its jobs run one at a time on a
/// dispatch queue of its own, not on Swift's cooperative pool.
///
/// Why: a room answers a call by appending it to the store, which returns
/// only once the group commit holding it is synced (`MatchStore`: write,
/// sync, then acknowledge). That wait blocks a thread. On the cooperative
/// pool (one thread per core: two here) two rooms waiting would stop every
/// socket and every other room until the disk answered, and no group could
/// hold more than two calls. On its own queue a waiting room holds one
/// dispatch thread while the pool goes on reading sockets and the other
/// rooms go on performing calls that join the next group.
final class RoomExecutor: SerialExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
