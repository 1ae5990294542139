import Foundation

/// A game's limits and checking modes (`Game.Configuration`): what its kernel
/// starts with (budgets, memory cap, checks) and where its packs are found.
public struct GameConfiguration: Sendable {
    /// Prove every undo restores the state exactly, and every redo
    /// reproduces the action (hash, subaction tree, animation plan).
    public var strict = true
    /// Lua instructions allowed per operation (perform, undo, legal, ...); 0 disables the hook.
    public var instructionBudget: Int64 = 10_000_000
    /// Bytes the game's Lua state may hold.
    public var memoryCap = 256 << 20
    /// Where packs named without a path are looked for (default: ./rules).
    public var rulesDirectory: URL?
    /// Receives what rules `print` (default: standard error).
    public var printHandler: (@Sendable (String) -> Void)?
    /// Record the `file:line` that built each animation leaf (timelines and
    /// conflict reports show it). Looking lines up costs more than building
    /// the plan, so the fuzzer and `explore` turn it off; a leaf without one
    /// is attributed to its action's `animate`.
    public var animationSources = true
    /// Run the pack's invariants after setup and every action, and build
    /// each action's animation plan (sounds, animate). `explore
    /// --no-invariants` turns it off to count moves only, when a move
    /// generator is checked against published counts: every action then
    /// has a bare plan, and every undo is still verified (`strict`).
    public var checksInvariants = true
    /// In a seated pack, the fuzzer's runs check after every step that no
    /// seat is shown what is hidden from it (the no-leak probes,
    /// `Kernel/seats.lua`); off: `fuzz --no-leak-check`.
    public var checksLeaks = true
    /// Count every line of rule code run (the fuzzer's `--coverage`):
    /// a line hook that costs time on every line while on.
    public var collectsCoverage = false
    /// With `collectsCoverage`, keep the line hook on in the kernel's
    /// own code too, as before rule calls were bracketed (for the test
    /// that both ways count the same lines).
    var coversKernelLines = false
    /// Give rules Lua's own `next`, whose order follows the string hash
    /// seed, as the sandbox did before it ordered `next`: only for the
    /// test that plants a pack depending on the seed, which the
    /// fuzzer's replay in a second Lua state must find (`SeedVariedReplay`).
    var plantsSeededNext = false

    public init() {}
}
