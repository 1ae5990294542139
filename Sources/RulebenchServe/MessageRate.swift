import Foundation

/// A connection's message rate limit: a token bucket of `burst` messages
/// refilled at `perSecond`. One per connection; its messages are read one
/// at a time (the server waits for each), so the lock is never contended.
final class MessageRate: @unchecked Sendable {
    static let perSecond = 50
    static let burst = 100

    private let lock = NSLock()
    private let clock: @Sendable () -> ContinuousClock.Instant
    private var tokens = Double(MessageRate.burst)
    private var last: ContinuousClock.Instant

    init(clock: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.clock = clock
        last = clock()
    }

    /// Whether one more message may be read now.
    func take() -> Bool {
        lock.withLock {
            let now = clock()
            let elapsed = now - last
            last = now
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            tokens = min(Double(Self.burst), tokens + seconds * Double(Self.perSecond))
            guard tokens >= 1 else { return false }
            tokens -= 1
            return true
        }
    }
}
