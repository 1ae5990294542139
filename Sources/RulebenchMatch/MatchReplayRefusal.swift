import Rulebench

/// A match whose log no longer replays on the pack as it is now, refused
/// instead of resumed: which match, the first step that differs, what the
/// log says and what the engine gave, and what to do.
///
/// Step 0 is the setup (the pack's name, version or state hash after setup
/// differ, or the pack no longer loads); step `n` is the record that made
/// version `n`.
public struct MatchReplayRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The store holding the log.
    public var store: String
    public var match: MatchID
    /// The first step that differs (0: the setup).
    public var step: Int
    /// That step as the log has it (`MatchRecord.summary`, or `setup`).
    public var action: String
    /// What the log says: a state hash, or the pack's name and version.
    public var expected: String
    /// What replaying gave: a state hash, or the engine's error.
    public var actual: String

    public init(store: String, match: MatchID, step: Int, action: String, expected: String, actual: String) {
        self.store = store
        self.match = match
        self.step = step
        self.action = action
        self.expected = expected
        self.actual = actual
    }

    /// What to do: the match was played on other rules.
    public var next: String {
        "the pack changed since the match began: restore its files as they were (the log is untouched), "
            + "or finish the match; it is never resumed on other rules"
    }

    public var description: String {
        "\(store): \(match): step \(step) (\(action)) does not replay: the log says \(expected), the pack now gives \(actual); \(next)"
    }
}
