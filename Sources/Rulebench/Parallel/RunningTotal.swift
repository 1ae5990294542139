import Foundation

/// A count several workers add to (the sequences counted so far, for a
/// progress line): the total is the sum of everything added, whatever the order.
final class RunningTotal: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0

    /// Adds `n` and returns the new total.
    func add(_ n: Int) -> Int {
        lock.withLock {
            total += n
            return total
        }
    }
}
