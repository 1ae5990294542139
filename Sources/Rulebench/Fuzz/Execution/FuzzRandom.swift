// The one SplitMix64 generator of the Swift side. Invariant: its bits are
// those of the kernel's `splitmix.splitmix` (Kernel/splitmix.lua) for the same
// seed, so a run chosen in Lua and one chosen here agree step for step.

/// A deterministic pseudo-random generator for the fuzzer (SplitMix64).
///
/// The fuzzer's choices must be the same for the same seed on every machine,
/// so it uses its own generator rather than the system's.
public struct FuzzRandom: Sendable {
    private var state: UInt64

    /// SplitMix64's increment: the golden ratio's 64 bits (odd, so every
    /// state is visited once in 2^64 steps).
    static let gamma: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= Self.gamma
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound (bound > 0), without modulo bias.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        let limit = UInt64.max - UInt64.max % UInt64(bound)
        var x = next()
        while x >= limit { x = next() }
        return Int(x % UInt64(bound))
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool {
        Double(next() >> 11) * 0x1p-53 < p
    }
}
