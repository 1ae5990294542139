/// What a `History` holds of the kernel's history (`Kernel/history.lua`):
/// where it stands, as the last reply said, and the entries read so far.
///
/// Invariant: `kept` are the kernel's entries `1...kept.count` as they were
/// at version `keptVersion`; they are answered only while that is the
/// version of `position` (the kernel's, as its last reply gave it), and
/// read again otherwise, from the first entry the kernel changed since
/// (`Kernel.historyEntries`: one call for a range). A read whose reply is
/// of another version than `position` means the view and the kernel came
/// apart, a bug this stops at (`precondition`), never answers from.
/// Used as `Game` is, from one thread at a time.
final class HistoryView: @unchecked Sendable {
    /// The kernel the entries are read from; nil for a fuzz run's reply,
    /// which says where the history stands and carries no entries.
    private let kernel: Kernel?
    var initialHash: StateHash
    private(set) var position = History.Position.start
    /// The hash recorded at the cursor, when the reply that moved it there
    /// gave it (a perform's, a redo's); nil: read from the entry.
    private(set) var current: StateHash?
    private var kept: [HistoryEntry] = []
    private var keptVersion = -1

    init(initialHash: StateHash, kernel: Kernel?) {
        self.initialHash = initialHash
        self.kernel = kernel
    }

    /// Takes where the kernel's history stands after a reply.
    func move(to position: History.Position, current: StateHash?) {
        self.position = position
        self.current = current
    }

    /// Takes where a fuzz run's reply says the history stands (and the
    /// hash at its cursor); no entry is kept: they are read when read.
    func take(_ other: HistoryView) {
        initialHash = other.initialHash
        position = other.position
        current = other.current
        kept = []
        keptVersion = -1
    }

    /// Entries `0..<n` (n at most `position.count`), read from the kernel
    /// where what is kept is of another version or too short.
    func entries(through n: Int) -> ArraySlice<HistoryEntry> {
        if n == 0 { return [] }
        if keptVersion != position.version || kept.count < n { read(through: n) }
        return kept[..<n]
    }

    /// How many entries the view holds: only those read, never a copy of
    /// what a reply said was performed.
    var keptCount: Int { kept.count }

    /// What differs between this view and the kernel's history read afresh
    /// (its position, then every entry, one call each): empty when the view
    /// is the kernel's. The check the tests make after every kind of step.
    func differences() throws(RulebenchError) -> [String] {
        guard let kernel else { return [] }
        let now = try kernel.travelStopped(from: position.cursor).position
        var found: [String] = []
        // A history just set up has read no version yet: nothing to read.
        let unread = position == .start && now.count == 0
        if now != position && !unread { found.append("position: the view's \(position), the kernel's \(now)") }
        let fresh = try kernel.historyEntries(since: -1, known: 0, through: now.count).entries
        if keptVersion == now.version {
            for (index, (mine, theirs)) in zip(kept, fresh).enumerated()
            where mine.call != theirs.call || mine.hash != theirs.hash || mine.isCheckpoint != theirs.isCheckpoint
                || mine.tree != theirs.tree || mine.plan != theirs.plan {
                found.append("entry \(index + 1): the view's \(mine.call) \(mine.hash), the kernel's \(theirs.call) \(theirs.hash)")
            }
        }
        if let current, now.cursor > 0, now.cursor <= fresh.count, fresh[now.cursor - 1].hash != current {
            found.append("current hash: the view's \(current), the kernel's \(fresh[now.cursor - 1].hash)")
        }
        return found
    }

    private func read(through n: Int) {
        guard let kernel else {
            preconditionFailure("a fuzz run's reply carries no entries: read them from the game's history (\(n) wanted)")
        }
        let reply: Kernel.HistoryEntries
        do {
            reply = try kernel.historyEntries(since: keptVersion, known: kept.count, through: n)
        } catch {
            preconditionFailure("the kernel's history could not be read: \(error)")
        }
        precondition(reply.version == position.version && reply.count == position.count,
                     "the history's view and the kernel's history came apart: the view is at version \(position.version) "
                     + "with \(position.count) entries, the kernel at \(reply.version) with \(reply.count)")
        kept.removeSubrange(min(reply.first - 1, kept.count)...)
        kept.append(contentsOf: reply.entries)
        keptVersion = reply.version
    }
}
