/// Where matches live: the one interface between a match and its storage.
///
/// `SQLiteMatchStore` is the one built (a file in the data folder);
/// docs/multiplayer.md describes how a PostgreSQL store shared by several
/// servers would keep the same promises. Every promise below is one a store
/// must keep, whatever it is built on:
///
/// - **Durable on return.** `create`, `append` and `finish` return only once
///   what they wrote survives the process being killed and the machine
///   losing power (SQLite: a committed transaction, WAL, `synchronous=FULL`).
///   `Match` acknowledges a call only after `append` returned: write, sync,
///   then acknowledge.
/// - **One log, in order.** `append` takes only the log's next version, and
///   never a second record with a (seat, client call id) the log holds: a
///   step can be neither lost between two others nor written twice, even by
///   two servers that both believe they own the match.
/// - **Checked on the way in.** Whatever is read back is checked as input
///   from outside (a number out of range, a word not known, JSON that does
///   not parse): a damaged store is an error naming the match and the place,
///   never a default.
///
/// A store is shared by every match of a server, from any thread.
public protocol MatchStore: AnyObject, Sendable {
    /// How errors name the store: its file's path, or a server's name for it.
    var location: String { get }

    /// Records a new live match with no steps; returns its id.
    func create(_ setup: MatchSetup) throws(MatchStoreError) -> MatchID

    /// Appends one step to a live match's log. Refuses (`.conflict`) a
    /// record whose version is not the log's next or whose seat and client
    /// call id the log already holds, and (`.notLive`) a finished match.
    func append(_ record: MatchRecord, to match: MatchID) throws(MatchStoreError)

    /// A match's setup, every step and its status.
    func log(of match: MatchID) throws(MatchStoreError) -> MatchLog

    /// The ids of the matches still played, in creation order.
    func liveMatches() throws(MatchStoreError) -> [MatchID]

    /// Marks a live match finished with its result (a short text the server
    /// words: "won", "abandoned"...); its log is kept and never resumed.
    func finish(_ match: MatchID, result: String) throws(MatchStoreError)
}
