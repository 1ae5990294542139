/// What went wrong in a store, with where (the store's file, the match) and
/// what to do next.
public struct MatchStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: String, Hashable, Sendable {
        /// The store could not be opened, read or written (a full disk, permissions, I/O).
        case unavailable
        /// The store was written by a newer Rulebench: its schema has migrations this one does not know.
        case newerSchema
        /// What was read back is not what a store writes (a damaged or hand-edited file).
        case damaged
        /// An append that is not the log's next version, or repeats a seat's client call id.
        case conflict
        /// No match with that id.
        case unknownMatch
        /// The match is finished: nothing more is appended to it.
        case notLive
    }

    public var kind: Kind
    /// What happened.
    public var message: String
    /// The store: its file's path (or a server's name for it).
    public var store: String
    /// The match concerned, when there is one.
    public var match: MatchID?
    /// What was being done: "open", "create", "append", "read log", "list", "finish".
    public var action: String
    /// What to do about it.
    public var next: String

    public init(_ kind: Kind, _ message: String, store: String, match: MatchID? = nil, action: String, next: String) {
        self.kind = kind
        self.message = message
        self.store = store
        self.match = match
        self.action = action
        self.next = next
    }

    /// `matches.sqlite: match 3: append: version 5 is not the log's next (4) — next: ...`
    public var description: String {
        "\(store): " + (match.map { "\($0): " } ?? "") + "\(action): \(message)" + (next.isEmpty ? "" : "; \(next)")
    }
}
