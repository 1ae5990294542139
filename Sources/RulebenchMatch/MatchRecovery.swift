/// What a server finds when it opens its store: every live match resumed by
/// verified replay, or refused with the first step that differs.
public struct MatchRecovery: Sendable {
    /// The matches resumed, in id order (not Sendable: hand each to its owner).
    public let resumed: [MatchID]
    /// The matches whose log no longer replays, or whose log could not be read.
    public let refused: [MatchError]

    /// Replays every live match of `store`. `found` receives each match resumed, in id order.
    public static func resumeLive(store: any MatchStore, engine: MatchEngine,
                                  found: (Match) -> Void) throws(MatchStoreError) -> MatchRecovery {
        var resumed: [MatchID] = [], refused: [MatchError] = []
        for id in try store.liveMatches() {
            do {
                found(try Match.resume(id, store: store, engine: engine))
                resumed.append(id)
            } catch {
                refused.append(error)
            }
        }
        return MatchRecovery(resumed: resumed, refused: refused)
    }
}
