import Foundation
import GRDB

/// The one writer of a `SQLiteMatchStore`: a thread of its own that takes
/// every write submitted from any thread, runs the writes waiting at that
/// moment in one transaction (each in a savepoint of its own), commits that
/// transaction with one fsync (WAL, `synchronous=FULL`), and only then
/// answers each write's caller.
///
/// Why: an fsync costs about a millisecond on this disk and far more on a
/// busy one, so one transaction per call caps a server at a few hundred
/// calls a second however many matches it plays. Calls of different
/// matches that arrive while a commit is running are committed together by
/// the next one: the group grows with the load, and an idle server commits
/// each write alone, as soon as it comes (no timer, no waiting to fill a group).
///
/// Invariant: `perform` returns success only after the commit of the
/// transaction holding its write has returned. A write that throws is
/// rolled back to its own savepoint and its error goes to its caller alone;
/// a commit that fails answers every write of its group with that failure,
/// none of which is then in the file.
final class SQLiteGroupCommit: @unchecked Sendable {
    typealias Write = (Database) throws -> Void

    /// What a test watches of a group's commit: `willCommit` runs after the
    /// group's writes and before its commit, `didCommit` after the commit
    /// returned and before any caller is answered; both on the writer's thread, with the group's size.
    struct Observer: Sendable {
        var willCommit: @Sendable (Int) -> Void = { _ in }
        var didCommit: @Sendable (Int) -> Void = { _ in }
    }

    /// The most writes one transaction takes; the rest wait for the next.
    static let largestGroup = 512

    private let queue: DatabaseQueue
    private let observer: Observer
    private let condition = NSCondition()
    private var waiting: [Submitted] = []
    private var stopping = false

    /// One write and the answer its caller waits for.
    private final class Submitted: @unchecked Sendable {
        let write: Write
        var outcome: Result<Void, any Error> = .success(())
        let answered = DispatchSemaphore(value: 0)
        init(_ write: @escaping Write) { self.write = write }
    }

    struct Stopped: Error, CustomStringConvertible {
        var description: String { "the store is closing: its writer takes no more writes" }
    }

    init(queue: DatabaseQueue, name: String, observer: Observer) {
        self.queue = queue
        self.observer = observer
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Runs `write` in the next group and returns once that group's commit
    /// returned (its error, or the commit's, thrown).
    func perform(_ write: @escaping Write) throws {
        let submitted = Submitted(write)
        condition.lock()
        guard !stopping else {
            condition.unlock()
            throw Stopped()
        }
        waiting.append(submitted)
        condition.signal()
        condition.unlock()
        submitted.answered.wait()
        try submitted.outcome.get()
    }

    /// Writes submitted and not yet taken into a group (for tests that build a group on purpose).
    var waitingCount: Int { condition.withLock { waiting.count } }

    /// Lets the thread end once every write submitted so far is answered.
    func stop() {
        condition.withLock {
            stopping = true
            condition.signal()
        }
    }

    private func run() {
        while let group = nextGroup() { commit(group) }
    }

    /// The writes waiting now (at most `largestGroup`), waiting for one when none is; nil once stopped and drained.
    private func nextGroup() -> [Submitted]? {
        condition.lock()
        defer { condition.unlock() }
        while waiting.isEmpty, !stopping { condition.wait() }
        guard !waiting.isEmpty else { return nil }
        let group = Array(waiting.prefix(Self.largestGroup))
        waiting.removeFirst(group.count)
        return group
    }

    private func commit(_ group: [Submitted]) {
        var outcomes: [Result<Void, any Error>] = []
        outcomes.reserveCapacity(group.count)
        do {
            try queue.writeWithoutTransaction { db in
                try db.inTransaction {
                    for submitted in group { outcomes.append(Self.run(submitted.write, in: db)) }
                    observer.willCommit(group.count)
                    return .commit
                }
            }
            observer.didCommit(group.count)
        } catch {
            outcomes = group.map { _ in .failure(error) }
        }
        for (submitted, outcome) in zip(group, outcomes) {
            submitted.outcome = outcome
            submitted.answered.signal()
        }
    }

    /// One write in its own savepoint: rolled back alone when it throws.
    private static func run(_ write: Write, in db: Database) -> Result<Void, any Error> {
        do {
            try db.inSavepoint {
                try write(db)
                return .commit
            }
            return .success(())
        } catch {
            return .failure(error)
        }
    }
}
