import Foundation

/// The one clock budgets read: seconds on the system's monotonic clock, which
/// a change of the wall clock does not move.
///
/// It says how much work fits in a budget (`--time`, a solve's or a walk's
/// stop), never what the work is: no reading of it reaches rules, reports'
/// contents or the choice of a step. Every command and library call that
/// takes a clock takes it as `() -> Double`, and tests give their own.
public enum MonotonicClock {
    /// Seconds since an arbitrary start, on the monotonic clock.
    public static func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// How many steps a kernel walk (solve, `explore --unique`) asks for in its
    /// next call: twice the batch after a call under 50 ms, half after one
    /// over 200 ms, so a call stays near a tenth of a second and Ctrl-C is
    /// answered well within a second.
    static func nextBatch(_ batch: Int, seconds: Double) -> Int {
        if seconds < 0.05 { return min(batch * 2, 1 << 20) }
        if seconds > 0.2 { return max(batch / 2, 1) }
        return batch
    }
}
