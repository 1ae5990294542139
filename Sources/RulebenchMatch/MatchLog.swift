/// A match as its store holds it: how it began, every step since, and
/// whether it is still played.
public struct MatchLog: Hashable, Sendable {
    /// Whether a match is still played.
    public enum Status: Hashable, Sendable {
        /// Played: replayed and resumed when the store is opened.
        case live
        /// Over (the result as the server wrote it): kept, never resumed.
        case finished(result: String)
    }

    public var id: MatchID
    public var setup: MatchSetup
    /// Every step, in version order: `records[i].version == i + 1`.
    public var records: [MatchRecord]
    public var status: Status

    public init(id: MatchID, setup: MatchSetup, records: [MatchRecord], status: Status) {
        self.id = id
        self.setup = setup
        self.records = records
        self.status = status
    }

    /// The version the log is at: how many steps it holds.
    public var version: Int { records.count }
}
