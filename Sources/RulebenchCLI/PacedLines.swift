import Foundation
import Rulebench

/// A `ProgressPacer` that workers of a parallel command ask from their
/// threads ("is a progress line due?"): the lock keeps its count consistent.
final class PacedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var pacer: ProgressPacer

    init(pacer: ProgressPacer) {
        self.pacer = pacer
    }

    /// Whether a line is due at `now` (see `ProgressPacer.isDue`).
    func isDue(at now: Double) -> Bool {
        lock.withLock { pacer.isDue(at: now) }
    }
}
