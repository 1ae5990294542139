/// A pack's level generator: `generate(rng, params)` in pack.lua.
extension Game {
    /// The options of a new level from the pack's `generate(rng, params)`,
    /// run with a generator seeded by `seed` alone (the game's SplitMix64,
    /// `rng:random(m, n)` and `rng:shuffle(list)`): the same seed and
    /// params give the same options in every process. The game itself is
    /// neither read nor changed; `restart(seed:options:)` sets the level up.
    ///
    /// - Throws: `.badInput` when the pack declares no `generate`; `.script`
    ///   when it fails or returns something other than a table of options
    ///   named by strings (with its file and line).
    public func generate(seed: Int64, params: [String: StateValue] = [:]) throws(RulebenchError) -> [String: StateValue] {
        guard let options = try kernel.generate(pack: packID, seed: seed, params: params) else {
            throw .badInput(InputProblem("pack '\(pack.name)' declares no generate(rng, params): add generate = function(rng, params) "
                                         + "... return { option = value } end to its pack.lua (docs/levels.md)", file: pack.directory))
        }
        return options
    }
}
