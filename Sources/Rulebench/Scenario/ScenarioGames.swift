import Foundation

/// The game a scenario worker keeps from one scenario to the next, so that
/// a run of many scenarios of one pack loads it once per worker.
///
/// Loading a pack (a Lua state made, every file compiled and run) costs
/// most of a short scenario: desert takes about 7 ms to load against about
/// 1 ms to restart. A scenario of the pack the kept game runs restarts it
/// (`Game.restart`: fresh globals and modules, every file run again from
/// its compiled chunk, the setup with the scenario's seed and options), as
/// the fuzzer restarts a state for each run.
///
/// The invariant: a scenario plays in a game indistinguishable from a new
/// one. Only a game whose last scenario passed is kept (a failure or bad
/// input may have left the Lua state anywhere); a restart that throws
/// drops the game and a new one is made, so every error a pack can raise
/// at load or setup is raised by a new game, as without this type. One
/// game is kept (the last pack's): scenarios come sorted by path and the
/// pool hands a worker the next of its folder first, so a pack's scenarios
/// follow one another, and memory stays at one Lua state per worker.
/// Serves one runner (one configuration) on one thread.
final class ScenarioGames {
    private let configuration: Game.Configuration
    private var kept: (pack: URL, game: Game)?
    /// Games made so far (a restart is not one).
    private(set) var made = 0
    /// Told each game's pack as it is made.
    private let onMade: (@Sendable (URL) -> Void)?

    init(configuration: Game.Configuration, made onMade: (@Sendable (URL) -> Void)? = nil) {
        self.configuration = configuration
        self.onMade = onMade
    }

    /// A game of `reference` (resolved from `base`) set up with `options`
    /// and `seed`: the kept one restarted when it runs that pack, a new one else.
    func game(pack reference: String, options: [String: StateValue], seed: Int64, relativeTo base: URL) throws(RulebenchError) -> Game {
        if let kept, (try? folder(of: reference, relativeTo: base)) == kept.pack {
            self.kept = nil
            do {
                try kept.game.restart(seed: seed, options: options)
                self.kept = kept
                return kept.game
            } catch {
                // Made anew below: its error, if any, is the one a new game raises.
            }
        }
        kept = nil
        made += 1
        let game = try Game(pack: reference, options: options, seed: seed, configuration: configuration, relativeTo: base)
        kept = (game.packURL.standardizedFileURL.resolvingSymlinksInPath(), game)
        onMade?(kept!.pack)
        return game
    }

    /// Lets the kept game go unless the scenario that just ended passed.
    func finished(passed: Bool) {
        if !passed { kept = nil }
    }

    /// The pack folder `reference` names from `base`, as `Game` resolves it.
    private func folder(of reference: String, relativeTo base: URL) throws(RulebenchError) -> URL {
        try PackFiles.locate(reference, rulesDirectory: configuration.rulesDirectory, relativeTo: base)
            .standardizedFileURL.resolvingSymlinksInPath()
    }
}
