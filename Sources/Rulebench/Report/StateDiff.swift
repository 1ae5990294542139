/// The slots that differ between two states, for failure reports.
public enum StateDiff {
    /// Every leaf that differs between `before` and `after`, sorted by path
    /// (integer keys first, in number order), at most `limit` of them. A table
    /// replaced by a non-table (or the reverse) is one change at the table's
    /// path, and a table that moved to another slot (a card from a deck to a
    /// hand) is one change at each end, `moved to PATH` and `moved from PATH`,
    /// not an edit of every field.
    public static func changes(from before: StateValue?, to after: StateValue?, limit: Int = 50) -> [StateChange] {
        var out: [StateChange] = []
        let moves = Moves(before: before, after: after)
        walk(before, after, path: .root, moves: moves, into: &out, limit: limit)
        return out
    }


    private static func walk(_ before: StateValue?, _ after: StateValue?, path: StatePath, moves: Moves,
                             into out: inout [StateChange], limit: Int) {
        guard out.count < limit, before != after else { return }
        let name = path.keys.isEmpty ? "(root)" : path.description
        switch (moves.sources[name], moves.destinations[name]) {
        case (let destination?, let source?):
            out.append(StateChange(path: name, before: before?.description ?? StateChange.absent,
                                   after: "moved to \(destination), and the table at \(source) moved here"))
            return
        case (nil, let source?):
            out.append(StateChange(path: name, before: before?.description ?? StateChange.absent, after: "moved from \(source)"))
            return
        case (let destination?, nil):
            let now = after.map { " (now \($0))" } ?? ""
            out.append(StateChange(path: name, before: before?.description ?? StateChange.absent, after: "moved to \(destination)\(now)"))
            return
        case (nil, nil):
            break
        }
        if case .table(let old)? = before, case .table(let new)? = after {
            for key in Set(old.keys).union(new.keys).sorted() {
                walk(old[key], new[key], path: path.appending(key), moves: moves, into: &out, limit: limit)
            }
            return
        }
        out.append(StateChange(path: name, before: before?.description ?? StateChange.absent, after: after?.description ?? StateChange.absent))
    }

    /// Tables that left one slot and arrived, unchanged, at another.
    private struct Moves {
        /// Destination path -> source path, and the reverse.
        var destinations: [String: String] = [:]
        var sources: [String: String] = [:]

        init(before: StateValue?, after: StateValue?) {
            guard let before, let after, before != after else { return }
            var where_: [StateValue: [StatePath]] = [:]
            Moves.index(before, path: .root) { value, path in where_[value, default: []].append(path) }
            guard !where_.isEmpty else { return }
            var seen: Set<String> = []
            Moves.visit(after, path: .root) { value, path in
                // A table already where it was is no move; nor is one inside a moved table.
                let was = Moves.value(at: path, in: before)
                guard was != value else { return true }
                // An empty list that filled up (or one that emptied) is a container whose
                // items moved one by one: look for the moves inside it instead.
                guard was != .table([:]) else { return true }
                guard let from = where_[value]?.first(where: { source in
                    let left = Moves.value(at: source, in: after)
                    return source != path && left != value && left != .table([:]) && !seen.contains(source.description)
                }) else { return true }
                seen.insert(from.description)
                destinations[path.description] = from.description
                sources[from.description] = path.description
                return false
            }
        }

        /// Every non-empty table below the root, with its path.
        private static func index(_ value: StateValue, path: StatePath, _ body: (StateValue, StatePath) -> Void) {
            guard case .table(let table) = value, !table.isEmpty else { return }
            if !path.keys.isEmpty { body(value, path) }
            for (key, child) in table { index(child, path: path.appending(key), body) }
        }

        /// Visits tables top-down in path order; `body` returns false to skip a table's inside.
        private static func visit(_ value: StateValue, path: StatePath, _ body: (StateValue, StatePath) -> Bool) {
            guard case .table(let table) = value, !table.isEmpty else { return }
            if !path.keys.isEmpty && !body(value, path) { return }
            for key in table.keys.sorted() { visit(table[key]!, path: path.appending(key), body) }
        }

        private static func value(at path: StatePath, in root: StateValue) -> StateValue? {
            path.keys.reduce(Optional(root)) { $0?[$1] }
        }
    }
}
