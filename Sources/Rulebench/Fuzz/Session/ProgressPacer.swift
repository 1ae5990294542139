// When a progress line is worth showing again (a terminal redraws in place,
// a log keeps every line). It reads no clock itself: the caller passes the time.

/// Decides when progress is worth showing again: at most once per
/// `interval` seconds. The fuzzer reports after every run (hundreds per
/// second); a terminal redraws a line in place, but a log (CI, a pipe)
/// keeps every line, so it gets one every few seconds.
public struct ProgressPacer: Sendable {
    /// The least time between two lines, in seconds.
    public var interval: Double
    private var last: Double

    /// Seconds between redraws of a progress line in place on a terminal.
    public static let terminalInterval = 0.2
    /// Seconds between progress lines that go to a log (a pipe or a file, as on CI).
    public static let loggedInterval = 5.0

    /// A pacer whose first line is due `interval` seconds after `start`.
    public init(interval: Double, start: Double) {
        self.interval = interval
        last = start
    }

    /// A pacer for progress shown on a terminal (`toTerminal`) or written to a log.
    public init(toTerminal: Bool, start: Double) {
        self.init(interval: toTerminal ? Self.terminalInterval : Self.loggedInterval, start: start)
    }

    /// True when a line is due at `now` (and then the next is due `interval` later).
    public mutating func isDue(at now: Double) -> Bool {
        guard now - last >= interval else { return false }
        last = now
        return true
    }
}
