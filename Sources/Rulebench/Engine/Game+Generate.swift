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
        let reply = try kernel.call(.generate, [Array(packID.utf8), Array(String(seed).utf8), Wire.encode(params)])
        guard let bytes = reply.first, !bytes.isEmpty else {
            throw .badInput(InputProblem("pack '\(pack.name)' declares no generate(rng, params): add generate = function(rng, params) "
                                         + "... return { option = value } end to its pack.lua (docs/levels.md)", file: pack.directory))
        }
        let value: StateValue?
        do { value = try Wire.decode(bytes) } catch { throw KernelReply.mismatch(.generate, "", "bytes that do not decode (\(error))") }
        guard case .table(let table)? = value else { return [:] }
        var options: [String: StateValue] = [:]
        for (key, item) in table {
            guard case .string(let name) = key else { continue }   // the kernel refused other keys
            options[name] = item
        }
        return options
    }
}
