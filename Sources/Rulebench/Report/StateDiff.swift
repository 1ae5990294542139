/// The slots that differ between two states, for failure reports.
public enum StateDiff {
    /// Every leaf that differs between `before` and `after`, sorted by path
    /// (integer keys first), at most `limit` of them. A table replaced by a
    /// non-table (or the reverse) is one change at the table's path.
    public static func changes(from before: StateValue?, to after: StateValue?, limit: Int = 50) -> [StateChange] {
        var out: [StateChange] = []
        walk(before, after, path: .root, into: &out, limit: limit)
        return out
    }

    /// How an absent value reads in a diff.
    static let absent = "absent"

    private static func walk(_ before: StateValue?, _ after: StateValue?, path: StatePath,
                             into out: inout [StateChange], limit: Int) {
        guard out.count < limit, before != after else { return }
        if case .table(let old)? = before, case .table(let new)? = after {
            for key in Set(old.keys).union(new.keys).sorted() {
                walk(old[key], new[key], path: path.appending(key), into: &out, limit: limit)
            }
            return
        }
        out.append(StateChange(path: path.keys.isEmpty ? "(root)" : path.description,
                               before: before?.description ?? absent, after: after?.description ?? absent))
    }
}
