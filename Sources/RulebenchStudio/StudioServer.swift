import Foundation
import Rulebench
import RulebenchCommandLine
import RulebenchServer

/// The studio's server: `StudioRoutes` behind the shared `LocalServer`
/// (its limits, and its guard: Host, Origin and the run's token), and a
/// watch on the pack's files that reloads it when one changes. It runs
/// until SIGINT or SIGTERM, then closes every socket.
struct StudioServer {
    let session: StudioSession
    let endpoint: ServerEndpoint
    let hub = StudioHub()

    /// How often the pack's files are looked at for changes.
    static let reloadInterval: Duration = .milliseconds(250)

    /// Serves until Ctrl-C; prints the address, with its token, once listening.
    func runUntilInterrupted() throws {
        catchInterrupts()
        let server: LocalServer
        do {
            server = try LocalServer(endpoint: endpoint)
        } catch {
            complain("cannot serve on \(endpoint.asked): \(error) (another port with --port, or --port 0 for any free one)")
            throw Outcome.badInput.exitCode
        }
        if let warning = endpoint.exposureWarning { complain(warning) }
        print("Rulebench Studio: \(server.access.address)  (Ctrl-C ends it)")
        fflush(nil)
        // Whichever ends first ends the other: Ctrl-C ends the watch, or the server fails.
        let session = self.session, hub = self.hub
        let failure = server.runBlocking(StudioRoutes(session: session, hub: hub)) {
            await StudioServer.watch(session: session, hub: hub)
        }
        if let failure {
            complain("cannot serve on \(endpoint.asked): \(failure)")
            throw Outcome.badInput.exitCode
        }
    }

    /// Polls the pack's files for changes, and Ctrl-C; closes the pages' sockets once interrupted.
    private static func watch(session: StudioSession, hub: StudioHub) async {
        while !wasInterrupted, !Task.isCancelled {
            if let position = await session.reloadIfChanged() { await hub.broadcast(position) }
            try? await Task.sleep(for: Self.reloadInterval)
        }
        await hub.closeAll()
    }
}
