// How the shrinking of a finding ended, as reports write it. The raw values
// are the report format: a renamed case keeps its text (see `init(reading:)`).

/// How shrinking a finding ended.
public enum ShrinkStatus: String, Sendable {
    /// No line of play is shorter: a breadth-first search proved it (`ShortestLine`).
    case shortest
    /// No single step of the reproduction can be deleted (the shrinker's
    /// fixpoint); a shorter line may still exist. Earlier reports said
    /// `minimal` for this (see `init(reading:)`).
    case minimal = "1-minimal"
    /// The shrinker's budget ran out first: a shorter reproduction may exist.
    case budgetSpent = "budget spent"
    /// The session's time (`--time`) ran out while shrinking: the shortest reproduction found so far.
    case timeUp = "time limit"
    /// Stopped by the user (Ctrl-C, SIGTERM): the shortest reproduction found so far.
    case interrupted
    /// The program did not fail the same way when re-run alone, so it was kept as found.
    case notReproducible = "not reproducible"
    /// Not shrunk at all (a corpus replay, or a determinism finding: there is no one program to shrink).
    case notShrunk = "not shrunk"

    /// A status as a report writes it, also as older reports wrote it (`minimal`).
    public init?(reading text: String) {
        self.init(rawValue: text == "minimal" ? ShrinkStatus.minimal.rawValue : text)
    }

    /// Whether the shrinking was cut short, so that a shorter reproduction may exist.
    public var wasCutShort: Bool { self == .budgetSpent || self == .timeUp || self == .interrupted }
}
