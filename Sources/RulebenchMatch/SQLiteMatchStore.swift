import Foundation
import GRDB
import Rulebench

/// The matches of a server in one SQLite file, `matches.sqlite` in the data
/// folder (`.rulebench/matches` unless told otherwise).
///
/// Why GRDB and not SQLite's C API by hand: the store needs exactly what GRDB
/// already keeps well (a serialized connection, transactions that roll back
/// on a thrown error, prepared statements with bound arguments, and a
/// migrator with its own table of applied schema versions), and nothing here
/// is the product. It links Debian's libsqlite3 (`make deps` installs
/// libsqlite3-dev), has no dependency of its own and adds no networking.
///
/// The durability this store promises (`MatchStore`): the file is in WAL
/// mode with `synchronous=FULL` (MatchStoreTests checks both are in force), so a transaction's commit writes and fsyncs
/// the WAL before `write` returns. (`NORMAL` would sync the WAL only at
/// checkpoints: a commit could be lost to a power cut after the call was
/// acknowledged, so it is not used.) Writes go through `SQLiteGroupCommit`:
/// the writes of many matches arriving together share one transaction and
/// one fsync, and each returns only after that commit returned.
///
/// The schema is versioned by GRDB's migrator (the `grdb_migrations` table
/// lists the migrations applied); a file migrated by a newer Rulebench,
/// holding a migration this one does not know, is refused before anything
/// is written to it. Tables are STRICT (SQLite checks each column's type),
/// and every value read back is checked again in `SQLiteMatchStore+Rows`.
public final class SQLiteMatchStore: MatchStore {
    /// Where matches live unless `--data` says otherwise, relative to the working folder.
    public static let defaultFolder = ".rulebench/matches"
    /// The database's file name inside the data folder.
    public static let fileName = "matches.sqlite"

    /// The database file's path, as errors name the store.
    public let path: String
    public var location: String { path }
    private let queue: DatabaseQueue
    /// The one writer: every create, append and finish is committed (and synced) by it, in groups.
    let writer: SQLiteGroupCommit

    /// Opens (creating when missing) the store in `folder`: the folder is
    /// created readable by its owner only (a match's state holds secrets:
    /// deck orders), the schema brought to this version.
    public convenience init(folder: URL) throws(MatchStoreError) {
        try self.init(folder: folder, observer: SQLiteGroupCommit.Observer())
    }

    /// The same, with a test watching each group's commit.
    init(folder: URL, observer: SQLiteGroupCommit.Observer) throws(MatchStoreError) {
        let file = folder.appendingPathComponent(SQLiteMatchStore.fileName)
        path = file.path
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw MatchStoreError(.unavailable, "cannot create the data folder: \(error.localizedDescription)",
                                  store: folder.path, action: "open", next: "choose a folder you can write to (--data DIR)")
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        // Set here rather than with GRDB's `journalMode = .wal`, which lowers `synchronous` to NORMAL after this runs.
        configuration.prepareDatabase { db in
            let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            guard mode == "wal" else { throw DatabaseError(message: "the file cannot be put in WAL mode (it is in \(mode ?? "no") mode)") }
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        do {
            queue = try DatabaseQueue(path: file.path, configuration: configuration)
        } catch {
            throw MatchStoreError(.unavailable, "cannot open: \(error)", store: file.path, action: "open",
                                  next: "check that the file is a Rulebench match store and that you may write to it")
        }
        writer = SQLiteGroupCommit(queue: queue, name: "rulebench match store writer", observer: observer)
        try migrate()
    }

    deinit { writer.stop() }

    // MARK: Schema

    /// Every schema version, oldest first. A new version is a new migration
    /// appended here, never an edit of one already released.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1 matches and steps") { db in
            try db.execute(sql: """
                CREATE TABLE match (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    pack TEXT NOT NULL, pack_name TEXT NOT NULL, pack_version TEXT NOT NULL,
                    options TEXT NOT NULL, seed INTEGER NOT NULL, seats TEXT NOT NULL,
                    takebacks TEXT NOT NULL, initial_hash TEXT NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('live', 'finished')), result TEXT
                ) STRICT;
                CREATE TABLE step (
                    match_id INTEGER NOT NULL REFERENCES match(id),
                    version INTEGER NOT NULL CHECK (version >= 1),
                    kind TEXT NOT NULL CHECK (kind IN ('call', 'takeback')),
                    seat TEXT NOT NULL, client_call_id TEXT NOT NULL,
                    action TEXT, params TEXT, takes_back INTEGER,
                    hash TEXT NOT NULL,
                    PRIMARY KEY (match_id, version),
                    UNIQUE (match_id, seat, client_call_id)
                ) STRICT, WITHOUT ROWID;
                CREATE INDEX match_live ON match(status, id);
                """)
        }
        return migrator
    }()

    /// Refuses a newer schema, then applies the migrations this file lacks.
    private func migrate() throws(MatchStoreError) {
        let migrator = SQLiteMatchStore.migrator
        let (superseded, applied): (Bool, Set<String>)
        do {
            (superseded, applied) = try queue.read { db in (try migrator.hasBeenSuperseded(db), try migrator.appliedIdentifiers(db)) }
        } catch {
            throw MatchStoreError(.unavailable, "cannot read the schema version: \(error)", store: path, action: "open",
                                  next: "check that the file is a Rulebench match store (\(SQLiteMatchStore.fileName))")
        }
        guard !superseded else {
            let known = Set(migrator.migrations)
            let unknown = applied.subtracting(known).sorted().joined(separator: ", ")
            throw MatchStoreError(.newerSchema, "the store was migrated by a newer Rulebench (schema versions unknown here: \(unknown))",
                                  store: path, action: "open",
                                  next: "run the Rulebench that wrote it, or open another data folder; nothing was written to this one")
        }
        do {
            try migrator.migrate(queue)
        } catch {
            throw MatchStoreError(.unavailable, "cannot migrate the schema: \(error)", store: path, action: "open",
                                  next: "check the disk and the file's permissions; the migration rolled back")
        }
    }

    // MARK: MatchStore

    public func create(_ setup: MatchSetup) throws(MatchStoreError) -> MatchID {
        let options = SQLiteMatchStore.json(setup.options)
        let seats = JSONValue.array(setup.seats.map { .string($0) }).serialized(pretty: false)
        let id: Int64 = try write("create", match: nil) { db in
            try db.execute(sql: """
                INSERT INTO match (pack, pack_name, pack_version, options, seed, seats, takebacks, initial_hash, status)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'live')
                """, arguments: [setup.pack, setup.packName, setup.packVersion, options, setup.seed, seats,
                                 setup.takebacks.rawValue, setup.initialHash.hex])
            return db.lastInsertedRowID
        }
        guard let match = MatchID(id) else {
            throw MatchStoreError(.damaged, "the new match got id \(id)", store: path, action: "create", next: "")
        }
        return match
    }

    public func append(_ record: MatchRecord, to match: MatchID) throws(MatchStoreError) {
        let path = self.path
        try write("append", match: match) { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT status, result, (SELECT COUNT(*) FROM step WHERE match_id = ?1) AS steps,
                       (SELECT version FROM step WHERE match_id = ?1 AND seat = ?2 AND client_call_id = ?3) AS earlier
                FROM match WHERE id = ?1
                """, arguments: [match.value, record.seat, record.clientCallID.text])
            let rows = SQLiteMatchRows(store: path, match: match)
            guard let row else { throw rows.unknown() }
            guard try rows.status(row) == .live else {
                throw MatchStoreError(.notLive, "the match is finished", store: path, match: match, action: "append",
                                      next: "a finished match takes no more steps")
            }
            let steps = try rows.integer(row, "steps", 0...Int64(Int32.max))
            if let earlier = try rows.optionalInteger(row, "earlier", 1...Int64(Int32.max)) {
                throw MatchStoreError(.conflict, "\(record.seat)'s client call id \(record.clientCallID) is already version \(earlier)",
                                      store: path, match: match, action: "append", next: "answer the call from the log, do not perform it again")
            }
            guard Int64(record.version) == steps + 1 else {
                throw MatchStoreError(.conflict, "version \(record.version) is not the log's next (\(steps + 1))", store: path,
                                      match: match, action: "append", next: "another writer owns this match: reload it from the store")
            }
            try db.execute(sql: """
                INSERT INTO step (match_id, version, kind, seat, client_call_id, action, params, takes_back, hash)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: SQLiteMatchStore.arguments(record, of: match))
        }
    }

    public func log(of match: MatchID) throws(MatchStoreError) -> MatchLog {
        let (head, steps): (Row?, [Row]) = try read("read log", match: match) { db in
            (try Row.fetchOne(db, sql: "SELECT * FROM match WHERE id = ?", arguments: [match.value]),
             try Row.fetchAll(db, sql: "SELECT * FROM step WHERE match_id = ? ORDER BY version", arguments: [match.value]))
        }
        let rows = SQLiteMatchRows(store: path, match: match)
        guard let head else { throw rows.unknown() }
        var records: [MatchRecord] = []
        records.reserveCapacity(steps.count)
        for row in steps { records.append(try rows.record(row, expectedVersion: records.count + 1)) }
        return MatchLog(id: match, setup: try rows.setup(head), records: records, status: try rows.status(head))
    }

    public func liveMatches() throws(MatchStoreError) -> [MatchID] {
        let ids: [DatabaseValue] = try read("list", match: nil) { db in
            try DatabaseValue.fetchAll(db, sql: "SELECT id FROM match WHERE status = 'live' ORDER BY id")
        }
        let rows = SQLiteMatchRows(store: path, match: nil)
        var matches: [MatchID] = []
        for value in ids {
            let id = try rows.integer(value, "id", 1...Int64.max)
            guard let match = MatchID(id) else { throw rows.damaged("id", "\(id)") }
            matches.append(match)
        }
        return matches
    }

    public func finish(_ match: MatchID, result: String) throws(MatchStoreError) {
        let path = self.path
        try write("finish", match: match) { db in
            try db.execute(sql: "UPDATE match SET status = 'finished', result = ? WHERE id = ? AND status = 'live'",
                           arguments: [result, match.value])
            guard db.changesCount == 1 else {
                let exists = try Bool.fetchOne(db, sql: "SELECT 1 FROM match WHERE id = ?", arguments: [match.value]) ?? false
                let rows = SQLiteMatchRows(store: path, match: match)
                throw exists ? MatchStoreError(.notLive, "the match is already finished", store: path, match: match,
                                               action: "finish", next: "") : rows.unknown()
            }
        }
    }

    // MARK: Reading and writing

    /// One write, in the writer's next group: committed (and synced) before
    /// it returns; a thrown error rolls back this write alone. Errors other
    /// than the store's own become `.unavailable`.
    private func write<T>(_ action: String, match: MatchID?, _ body: @escaping (Database) throws -> T) throws(MatchStoreError) -> T {
        try guarded(action, match, next: "nothing was written; check the disk and the file's permissions, then send the call again") {
            var result: T?
            try writer.perform { db in result = try body(db) }
            return result!
        }
    }

    private func read<T>(_ action: String, match: MatchID?, _ body: @escaping (Database) throws -> T) throws(MatchStoreError) -> T {
        try guarded(action, match, next: "check the disk and the file's permissions") { try queue.read(body) }
    }

    /// Runs a database access: the store's own errors come out as they are,
    /// any other (SQLite's, I/O) as `.unavailable`, with `next` to say what to do.
    private func guarded<T>(_ action: String, _ match: MatchID?, next: String, _ access: () throws -> T) throws(MatchStoreError) -> T {
        do {
            return try access()
        } catch let error as MatchStoreError {
            throw error
        } catch {
            throw MatchStoreError(.unavailable, "\(error)", store: path, match: match, action: action, next: next)
        }
    }

    /// The connection's journal mode and `synchronous` level (2 is FULL), as in force.
    func durability() throws -> (journalMode: String, synchronous: Int64) {
        try queue.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "", try Int64.fetchOne(db, sql: "PRAGMA synchronous") ?? -1)
        }
    }

    /// Runs SQL as it is, outside the store's checks: for tests that damage a store on purpose.
    func executeUnchecked(_ sql: String) throws {
        try queue.writeWithoutTransaction { db in try db.execute(sql: sql) }
    }

    /// The JSON text of options or params, as histories write them.
    static func json(_ values: [String: StateValue]) -> String {
        JSONValue.object(values.sorted { $0.key < $1.key }.map { ($0.key, JSONValue($0.value)) }).serialized(pretty: false)
    }

    /// A record's row, in the order of `append`'s INSERT.
    private static func arguments(_ record: MatchRecord, of match: MatchID) -> StatementArguments {
        let kind: String, action: String?, params: String?, takesBack: Int64?
        switch record.step {
        case .call(let call): (kind, action, params, takesBack) = ("call", call.name, json(call.params), nil)
        case .takeback(let version): (kind, action, params, takesBack) = ("takeback", nil, nil, Int64(version))
        }
        return [match.value, Int64(record.version), kind, record.seat, record.clientCallID.text, action, params, takesBack,
                record.hash.hex]
    }
}

