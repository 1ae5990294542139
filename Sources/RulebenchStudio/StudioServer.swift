import FlyingFox
import FlyingSocks
import Foundation
import Rulebench
import RulebenchCommandLine

/// The studio's HTTP server: the page at `/`, the game's WebSocket at
/// `/socket`, and a watch on the pack's files that reloads it when one
/// changes. It runs until SIGINT or SIGTERM, then closes every socket.
struct StudioServer {
    let session: StudioSession
    let address: any SocketAddress
    /// The address as the user gave it (`127.0.0.1:8040`), for messages.
    let asked: String
    let hub = StudioHub()

    /// How often the pack's files are looked at for changes.
    static let reloadInterval: Duration = .milliseconds(250)

    /// Serves until Ctrl-C; prints the address once listening.
    func runUntilInterrupted() throws {
        catchInterrupts()
        let server = HTTPServer(address: address, logger: .disabled)
        let done = DispatchSemaphore(value: 0)
        let failure = Failure()
        let hub = self.hub, session = self.session
        Task {
            await server.appendRoute("GET /socket", to: WebSocketHTTPHandler.webSocket(StudioSocket(session: session, hub: hub)))
            await server.appendRoute("GET /pack/*") { request in
                StudioPage.packResponse(await session.packFile(String(request.path.dropFirst("/pack/".count))))
            }
            await server.appendRoute("GET /sound/*") { request in
                StudioPage.packResponse(await session.soundFile(String(request.path.dropFirst("/sound/".count))))
            }
            await server.appendRoute("GET /*") { request in StudioPage.response(for: request) }
            do {
                try await server.run()
            } catch where !wasInterrupted {
                failure.set("cannot serve on \(asked): \(error) (another port with --port, or --port 0 for any free one)")
            } catch {
                // Stopping the server ends `run` with an error: Ctrl-C asked for it.
            }
            done.signal()
        }
        Task {
            do {
                try await server.waitUntilListening()
                print("Rulebench Studio: http://\(await Self.shown(server.listeningAddress))/  (Ctrl-C ends it)")
                fflush(nil)
            } catch {
                failure.set("cannot serve on \(asked): \(error) (another port with --port, or --port 0 for any free one)")
                done.signal()
            }
        }
        Task { await watch(server) }
        done.wait()
        if let message = failure.message {
            complain(message)
            throw Outcome.badInput.exitCode
        }
    }

    /// Polls the pack's files for changes, and Ctrl-C, until the server stops.
    private func watch(_ server: HTTPServer) async {
        while !wasInterrupted {
            if let position = await session.reloadIfChanged() { await hub.broadcast(position) }
            try? await Task.sleep(for: Self.reloadInterval)
        }
        await hub.closeAll()
        await server.stop(timeout: 1)
    }

    private static func shown(_ address: Socket.Address?) -> String {
        switch address {
        case .ip4(let ip, let port): return "\(ip):\(port)"
        case .ip6(let ip, let port): return "[\(ip)]:\(port)"
        case .unix(let path): return path
        case nil: return "?"
        }
    }

    /// The first reason the server could not run, set from its tasks.
    private final class Failure: @unchecked Sendable {
        private let lock = NSLock()
        private var text: String?
        func set(_ message: String) { lock.withLock { if text == nil { text = message } } }
        var message: String? { lock.withLock { text } }
    }
}
