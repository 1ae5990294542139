/// The string hash order of a game's Lua state (`Kernel/identity.lua`,
/// `hashorder`): the order raw `next` walks twelve fixed string keys in.
/// Two states whose orders differ have different string hash seeds, so a
/// replay in one is a replay under another seed (see `SeedVariedReplay`).
extension Kernel {
    func hashOrder() throws(RulebenchError) -> String {
        String(decoding: try call(.hashOrder).first ?? [], as: UTF8.self)
    }
}
