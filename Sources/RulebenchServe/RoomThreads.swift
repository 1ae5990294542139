import Foundation

/// The fixed set of threads that run `MatchRoom`s (`RoomExecutor`): rooms
/// with jobs wait in arrival order, and each thread takes the first and
/// runs its jobs until it has none. A room is in the queue at most once, so
/// at most one thread runs a room at a time.
final class RoomThreads: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: [RoomExecutor] = []

    init(count: Int) {
        for number in 0..<count {
            let thread = Thread { [self] in work() }
            thread.name = "rulebench match room \(number)"
            thread.start()
        }
    }

    /// Queues a room that has jobs and is not queued or running.
    func schedule(_ room: RoomExecutor) {
        condition.withLock {
            waiting.append(room)
            condition.signal()
        }
    }

    private func work() {
        while true {
            condition.lock()
            while waiting.isEmpty { condition.wait() }
            let room = waiting.removeFirst()
            condition.unlock()
            room.drain()
        }
    }
}
