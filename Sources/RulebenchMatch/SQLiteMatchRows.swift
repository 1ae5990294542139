import GRDB
import Rulebench

/// Reads `SQLiteMatchStore`'s rows back as values, checking each as input
/// from outside: an integer is read only from an integer cell and only in
/// its range, a word only from those the store writes, JSON only when it
/// parses to what was written. Anything else is `.damaged`, naming the
/// store, the match, the column and what it held.
struct SQLiteMatchRows {
    let store: String
    let match: MatchID?

    // MARK: Whole rows

    /// A `match` row's setup.
    func setup(_ row: Row) throws(MatchStoreError) -> MatchSetup {
        let seatsText = try text(row, "seats")
        guard case .array(let items)? = try? JSONValue.parse(seatsText) else { throw damaged("seats", seatsText) }
        var seats: [String] = []
        for item in items {
            guard case .string(let seat) = item else { throw damaged("seats", seatsText) }
            seats.append(seat)
        }
        if MatchSetup.problem(seats: seats) != nil { throw damaged("seats", seatsText) }
        let takebacksText = try text(row, "takebacks")
        guard let takebacks = TakebackPolicy(rawValue: takebacksText) else { throw damaged("takebacks", takebacksText) }
        return MatchSetup(pack: try text(row, "pack"), packName: try text(row, "pack_name"), packVersion: try text(row, "pack_version"),
                          options: try object(row, "options"), seed: try integer(row, "seed", Int64.min...Int64.max),
                          seats: seats, takebacks: takebacks, initialHash: try hash(row, "initial_hash"))
    }

    /// A `match` row's status.
    func status(_ row: Row) throws(MatchStoreError) -> MatchLog.Status {
        switch try text(row, "status") {
        case "live": return .live
        case "finished": return .finished(result: try optionalText(row, "result") ?? "")
        case let other: throw damaged("status", other)
        }
    }

    /// A `step` row, which must be the log's `expectedVersion`th.
    func record(_ row: Row, expectedVersion: Int) throws(MatchStoreError) -> MatchRecord {
        let version = try integer(row, "version", 1...Int64(Int32.max))
        guard version == Int64(expectedVersion) else {
            throw damaged("version", "\(version) where the log's version \(expectedVersion) belongs (a step is missing)")
        }
        let step: MatchRecord.Step
        switch try text(row, "kind") {
        case "call":
            step = .call(ActionCall(try text(row, "action"), try object(row, "params")))
        case "takeback":
            // A takeback takes back an earlier step: the log's first step cannot be one.
            guard version >= 2 else { throw damaged("kind", "takeback as the log's first step") }
            step = .takeback(version: Int(try integer(row, "takes_back", 1...(version - 1))))
        case let other:
            throw damaged("kind", other)
        }
        let idText = try text(row, "client_call_id")
        guard let id = ClientCallID(idText) else { throw damaged("client_call_id", idText) }
        return MatchRecord(version: Int(version), seat: try text(row, "seat"), clientCallID: id, step: step, hash: try hash(row, "hash"))
    }

    // MARK: Cells

    /// A cell; a column the row lacks is damage, never GRDB's trap.
    func cell(_ row: Row, _ column: String) throws(MatchStoreError) -> DatabaseValue {
        guard row.hasColumn(column) else { throw damaged(column, "nothing (the column is missing)") }
        return row[column] as DatabaseValue
    }

    func integer(_ row: Row, _ column: String, _ range: ClosedRange<Int64>) throws(MatchStoreError) -> Int64 {
        try integer(try cell(row, column), column, range)
    }

    func integer(_ value: DatabaseValue, _ column: String, _ range: ClosedRange<Int64>) throws(MatchStoreError) -> Int64 {
        guard case .int64(let number) = value.storage, range.contains(number) else {
            throw damaged(column, "\(value) (an integer in \(range.lowerBound)...\(range.upperBound) belongs there)")
        }
        return number
    }

    func optionalInteger(_ row: Row, _ column: String, _ range: ClosedRange<Int64>) throws(MatchStoreError) -> Int64? {
        let value = try cell(row, column)
        return value.isNull ? nil : try integer(value, column, range)
    }

    func text(_ row: Row, _ column: String) throws(MatchStoreError) -> String {
        let value = try cell(row, column)
        guard case .string(let text) = value.storage else { throw damaged(column, "\(value)") }
        return text
    }

    func optionalText(_ row: Row, _ column: String) throws(MatchStoreError) -> String? {
        try cell(row, column).isNull ? nil : try text(row, column)
    }

    /// A state hash: 16 lower-case hex digits.
    func hash(_ row: Row, _ column: String) throws(MatchStoreError) -> StateHash {
        let hex = try text(row, column)
        guard hex.utf8.count == 16, hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw damaged(column, hex)
        }
        return StateHash(hex: hex)
    }

    /// Options or params: a JSON object, as `SQLiteMatchStore.json` writes them.
    func object(_ row: Row, _ column: String) throws(MatchStoreError) -> [String: StateValue] {
        let source = try text(row, column)
        guard case .object(let members)? = try? JSONValue.parse(source) else { throw damaged(column, source) }
        var values: [String: StateValue] = [:]
        for (key, member) in members {
            guard let value = member.stateValue else { throw damaged(column, source) }
            values[key] = value
        }
        return values
    }

    // MARK: Errors

    func damaged(_ column: String, _ held: String) -> MatchStoreError {
        MatchStoreError(.damaged, "column \(column) holds \(held.prefix(120))", store: store, match: match, action: "read",
                        next: "the file was changed outside Rulebench: restore it from a backup, or finish this match")
    }

    func unknown() -> MatchStoreError {
        MatchStoreError(.unknownMatch, "no such match", store: store, match: match, action: "read",
                        next: "list the live matches for their ids")
    }
}
