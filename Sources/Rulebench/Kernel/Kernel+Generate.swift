/// The typed face of a pack's level generator (`generate` in engine.lua).
extension Kernel {
    /// The options the pack's `generate(rng, params)` returns for `seed`
    /// (strings keys only: the kernel refused others); nil when the pack
    /// declares no `generate`.
    func generate(pack: String, seed: Int64, params: [String: StateValue]) throws(RulebenchError) -> [String: StateValue]? {
        let reply = try call(.generate, [Array(pack.utf8), Array(String(seed).utf8), Wire.encode(params)])
        guard let bytes = reply.first, !bytes.isEmpty else { return nil }
        let value: StateValue?
        do { value = try Wire.decode(bytes) } catch { throw Kernel.replyMismatch(.generate, "", "bytes that do not decode (\(error))") }
        guard case .table(let table)? = value else { return [:] }
        var options: [String: StateValue] = [:]
        for (key, item) in table {
            guard case .string(let name) = key else { continue }   // the kernel refused other keys
            options[name] = item
        }
        return options
    }
}
