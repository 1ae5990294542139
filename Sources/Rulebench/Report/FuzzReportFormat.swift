/// The shape of `rulebench fuzz --json`, as far as it is the library's: the
/// format's name and version, and the blame as data.
///
/// The report is one JSON object: `format` ("rulebench-fuzz"),
/// `formatVersion`, `rulebench` (the version that wrote it), `pack`, `seed`,
/// `shard`, `runs`, `steps`, `seconds`, `stepsPerSecond`, `interrupted`,
/// `duplicates` and `findings`. docs/scenarios.md ("Machine-readable reports")
/// describes every field.
public enum FuzzReportFormat {
    /// What `format` says: the report's kind.
    public static let format = "rulebench-fuzz"
    /// What `formatVersion` says; raised when a field changes meaning or goes away.
    public static let formatVersion: Int64 = 1

    /// A finding's blame as data: `{ "action": "jetpack > move", "file":
    /// "rules/desert/actions/move.lua", "line": 31 }`, each part present when
    /// known; null when nothing is blamed. The finding's `blame` keeps the
    /// sentence.
    public static func blamed(_ key: FindingKey) -> JSONValue {
        var members: [(String, JSONValue)] = []
        if let action = key.action, !action.isEmpty { members.append(("action", .string(action))) }
        if let location = key.location, let colon = location.lastIndex(of: ":"),
           let line = Int64(location[location.index(after: colon)...]) {
            members.append(("file", .string(String(location[..<colon]))))
            members.append(("line", .int(line)))
        }
        return members.isEmpty ? .null : .object(members)
    }
}
