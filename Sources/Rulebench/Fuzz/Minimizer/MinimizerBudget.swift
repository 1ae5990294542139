// What one finding's minimization may spend: the candidates of its shrinks,
// and in a timed session the time, shared out between the passes here and
// nowhere else. Invariant: a timed session's minimization ends by `end`
// (the session's end less `handOffReserve`), the searches for a shorter
// line and shorter endings keep the last share of it (`endingShare`), and
// no share is computed from a time limit that is not there.

/// The budget of one minimization (`Minimizer.minimize`).
struct MinimizerBudget {
    /// The most seconds one shrink takes without a time limit.
    static let defaultShrinkSeconds = 60.0
    /// The most seconds a timed minimization spends on other instances of
    /// the bug (at most half of the time limit; `ShorterInstance`).
    static let instanceSearchSeconds = 30.0

    /// The time limit, which sizes the shares; nil: none.
    let timeLimit: Double?
    /// When the minimization ends, on `clock`; nil without a time limit.
    let end: Double?
    /// When its shrinks end: `end` less the share kept for the searches
    /// for a shorter line and shorter endings (`endingShare`).
    let shrinkEnd: Double?
    /// The clock the budget's times are read on (seconds).
    let clock: Minimizer.Clock
    /// A signal (Ctrl-C, SIGTERM): the best reproduction so far is kept.
    let shouldStop: () -> Bool

    /// The budget of a minimization begun at `begun` in a session that
    /// started at `start` with `timeLimit` seconds (nil: no limit).
    init(timeLimit: Double?, start: Double, begun: Double, clock: @escaping Minimizer.Clock,
         shouldStop: @escaping () -> Bool) {
        self.timeLimit = timeLimit
        self.clock = clock
        self.shouldStop = shouldStop
        guard let timeLimit else {
            end = nil
            shrinkEnd = nil
            return
        }
        let end = start + timeLimit - MinimizerBudget.handOffReserve(of: timeLimit)
        self.end = end
        // The last share of the time is the searches for a shorter line and shorter endings'.
        shrinkEnd = end - MinimizerBudget.endingShare(left: end - begun, of: timeLimit)
    }

    /// Whether the searches stop now: a signal, or the end passed.
    var searchesStop: () -> Bool {
        { [shouldStop, clock, end] in shouldStop() || end.map { clock() >= $0 } ?? false }
    }

    /// The seconds at the end of a session of `limit` seconds that its
    /// shrinking leaves for what follows it (the reproduction run again
    /// with sources, judged from a fresh start, written): a quarter, at
    /// most a second. On a loaded machine those take a good part of a
    /// second; the session must still end within its limit and a second.
    static func handOffReserve(of limit: Double) -> Double { min(1, limit / 4) }

    /// The seconds at the end of a hand-off with `left` seconds to go, in a
    /// session of `limit` seconds, kept for the searches for a shorter line
    /// and shorter endings (`shortenedEndings`): a quarter of what is left
    /// beyond the shrink reserve, none for a finding made in the reserve.
    /// Without it the search for shorter instances and the finishing of
    /// the shrink took all the time on a loaded machine, and the ending
    /// search that takes chess king taken from 10 steps to 5 in a second
    /// never ran.
    static func endingShare(left: Double, of limit: Double) -> Double {
        max(0, left - shrinkReserve(of: limit)) / 4
    }

    /// The share of a session of `limit` seconds kept for shrinking: no run
    /// starts in it, so a bug found at the very end of the fuzzing still has
    /// that much time to shrink (a 77-step line found at 19.7 s of 20 was
    /// reported unshrunk). A tenth (2 s of 20: a few hundred candidates of
    /// the shrinker's cheap passes on chess), at most what one shrink takes
    /// without a time limit.
    static func shrinkReserve(of limit: Double) -> Double { min(limit / 10, MinimizerBudget.defaultShrinkSeconds) }

    /// The first shrink's time, `left` seconds before the hand-off's end: a
    /// third of it, but never less than the reserve (a late finding's
    /// shrink takes all that is left; no shorter instance is sought).
    static func firstShrinkSeconds(left: Double, of limit: Double) -> Double {
        min(left, max(left / 3, shrinkReserve(of: limit)))
    }

    /// When the search for shorter instances ends, at `now`, for a hand-off
    /// ending at `end` in a session of `limit` seconds: up to half of the
    /// limit (at most `instanceSearchSeconds`), but when the first shrink was
    /// cut short, no later than halfway to `end`, so that finishing it has
    /// the other half. A search that finds no instance would otherwise
    /// take all that is left: a 16-step promotion line cut short by time
    /// was reported as it was, 10 s spent on runs that found nothing.
    static func instanceSearchEnd(now: Double, end: Double, of limit: Double, shrinkCutShort: Bool) -> Double {
        let searchEnd = min(end, now + min(limit / 2, MinimizerBudget.instanceSearchSeconds))
        return shrinkCutShort ? min(searchEnd, now + (end - now) / 2) : searchEnd
    }
}
