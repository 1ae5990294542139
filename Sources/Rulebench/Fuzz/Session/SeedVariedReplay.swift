import Foundation

/// The fuzzer's check that a run depends on nothing that differs between
/// Lua states: the string hash seed, addresses, the heap's history.
///
/// Lua 5.4 seeds its string hash from the time (in seconds) and the
/// addresses of the new state and of a local variable. A state made in the
/// same second after another was closed lands at the same address and gets
/// the same seed (measured: six states in a row walked twelve string keys
/// in the same order), while two states alive at once differ. So the second
/// state is made while the main game's lives, and replaced by a new one
/// (made while the old one still lives) every `renewal` checks: a session
/// meets several seeds, and a pack whose behaviour follows one of them
/// (two keys in one order in 1 state of 2) is found in a few renewals.
/// A new state is kept only when its string hash order differs from the
/// main game's (`Kernel.hashOrder`), up to `attempts` tries.
///
/// Every `interval`-th run is played again there, and its state hashes must
/// be the same step by step. Its cost: one run in `interval`, and one Lua
/// state made (kernel and pack compiled) every `interval * renewal` runs; a
/// session shorter than `interval` runs (the bench's `--runs 20`) pays
/// nothing, and keeps the checks every session makes (the first run played
/// twice in the main state, every run's saved history replayed in a second
/// game).
final class SeedVariedReplay {
    /// Runs between two checks.
    static let interval = 32
    /// Checks made in one second state before it is replaced.
    static let renewal = 4
    /// States made, at most, to find one whose hash order differs from the main game's.
    static let attempts = 4

    private let configuration: Game.Configuration
    private let base: URL?
    /// The second state's executor (its own cached game, its own Lua state).
    private var executor: FuzzExecutor?
    private var checks = 0
    /// The hash orders of the main game's state and of the second state, when last compared.
    private(set) var orders: (main: String, second: String)?

    init(configuration: Game.Configuration, base: URL?) {
        var configuration = configuration
        configuration.collectsCoverage = false   // the replay only compares hashes
        self.configuration = configuration
        self.base = base
    }

    /// Whether run number `runs` (1-based, this shard's) is checked.
    static func isChecked(run runs: Int) -> Bool { runs % interval == 0 }

    /// Plays `program` again in the second state (renewed when due) and
    /// compares its hashes with `first`'s: a `.deterministic` finding at
    /// the first step that differs, nil when all agree or the program
    /// cannot be set up there (the main game reports setup failures).
    func check(_ program: FuzzProgram, _ first: FuzzExecutor.Result, main: Game?) -> FuzzFinding? {
        if checks % Self.renewal == 0 { renew(program, main: main) }
        checks += 1
        guard let executor else { return nil }
        let again = executor.execute(program, checkLegality: false, finalChecks: false)
        for (index, pair) in zip(first.trace, again.trace).enumerated() where pair.0 != pair.1 {
            return FuzzFinding(property: .deterministic, stepIndex: index,
                               message: "the same program gave state hash \(pair.1) instead of \(pair.0) after "
                                   + "\(program.steps[index]) in a second Lua state (another string hash seed, other "
                                   + "addresses): the rules depend on something outside the game state",
                               differences: [], blame: nil)
        }
        return nil
    }

    /// Replaces the second state by a new one whose hash order differs from
    /// the main game's. Each candidate is made while the ones before it are
    /// still open, so no two of them share an address.
    ///
    /// The hash order only chooses among candidates: when a kernel cannot
    /// say it (an internal error, which the replay itself then meets and
    /// reports), the candidate made last is kept as it is.
    private func renew(_ program: FuzzProgram, main: Game?) {
        let mainOrder: String?
        do { mainOrder = try main?.kernel.hashOrder() } catch { mainOrder = nil }
        var candidates: [FuzzExecutor] = executor.map { [$0] } ?? []
        for _ in 0..<Self.attempts {
            let candidate = FuzzExecutor(configuration: configuration, base: base)
            guard let game = try? candidate.newGame(program) else { return }
            candidates.append(candidate)
            let order: String
            do { order = try game.kernel.hashOrder() } catch { executor = candidate; orders = nil; return }
            executor = candidate
            orders = mainOrder.map { ($0, order) }
            if order != mainOrder { break }
        }
    }
}
