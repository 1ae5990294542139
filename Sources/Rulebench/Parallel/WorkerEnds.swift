import Foundation

/// The values the workers of a pool ended with, handed from the thread that
/// waited for them to the one that reads them (after it has).
final class WorkerEnds<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Value] = []

    init(count: Int) {
        stored.reserveCapacity(count)
    }

    /// Keeps the workers' values, in worker order.
    func store(_ values: [Value]) { lock.withLock { stored = values } }

    /// The values kept.
    var values: [Value] { lock.withLock { stored } }
}
