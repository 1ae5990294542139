/// Runs work that must end by a deadline: the work is cancelled when the
/// time runs out (a socket read or write waiting in FlyingSocks' pool ends
/// with CancellationError), and `Deadline.Passed` is thrown.
enum Deadline {
    struct Passed: Error {}

    static func run<T: Sendable>(within limit: Duration, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw Passed() }
            return value
        }
    }
}
