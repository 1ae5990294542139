// Where a finding came from: the command that finds it again, and the shard.
// Invariant: the command, run as written, replays the runs that found it.

/// Where a finding came from: the fuzz command that found it, which finds
/// it again when run as written (the same seed, search, depth and shard,
/// and `--runs` up to the run that found it), and the shard, when the
/// session was one of several. Fuzz writes it into each corpus entry
/// (`foundBy`, `shard`) and each reproduction's header; `corpus merge`
/// carries it over.
public struct FindingOrigin: Sendable, Hashable {
    /// The command, as a shell would take it.
    public var command: String
    /// "K/N" when the session was shard K of N.
    public var shard: String?

    /// An origin from its parts.
    public init(command: String, shard: String? = nil) {
        self.command = command
        self.shard = shard
    }

    /// The origin a corpus entry records; nil when it records none.
    init?(_ value: JSONValue) {
        guard case .string(let command)? = value["foundBy"] else { return nil }
        self.command = command
        if case .string(let shard)? = value["shard"] { self.shard = shard }
    }
}
