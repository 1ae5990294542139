import Dispatch

extension LocalServer {
    /// Serves `routes` from a program's main thread until `watch` returns
    /// (a program's watch returns once Ctrl-C or SIGTERM came) or the
    /// server fails, whichever comes first; the other is then cancelled.
    /// Returns the server's failure, or nil when the watch ended it.
    public func runBlocking(_ routes: some ServerRoutes, beside watch: @escaping @Sendable () async -> Void) -> String? {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: String?
        Task {
            await withTaskGroup(of: String?.self) { group in
                group.addTask { await watch(); return nil }
                group.addTask {
                    do { try await self.run(routes) } catch { return "\(error)" }
                    return nil
                }
                failure = await group.next() ?? nil
                group.cancelAll()
            }
            done.signal()
        }
        done.wait()
        return failure
    }
}
