import FlyingSocks
import Foundation

/// A bounded HTTP/1.1 and WebSocket server for a program that serves the
/// user's own machine (the studio now, the match server next): FlyingSocks'
/// non-blocking sockets and event pool underneath, everything above them
/// here. Each connection is read within `ServerLimits` (a head found
/// before it is parsed, bodies by Content-Length, WebSocket messages by
/// size, an outgoing queue per socket), every request passes the
/// `LocalGuard`, and a connection past the limit is answered 503 and
/// closed while the others go on; no error of one connection reaches the
/// server. It runs until the task running `run` is cancelled, then
/// cancels every connection, waits for them and closes the listener.
///
/// Why not FlyingFox's `HTTPServer`, which the studio used before: in
/// 0.27.1 its request-line and header reader has no bound and is quadratic
/// (a 128 KiB URL, which any page can send with an `<img>`, cost 7-12 s of
/// CPU), its WebSocket buffers a message of any size and accepts unmasked
/// frames, each socket's outgoing stream is unbounded, nothing limits
/// connections (an accept that fails for want of descriptors ended the
/// server), and it has no hook before it reads and parses a request where
/// a bound or a guard could go. Wrapping it could not bound what it reads
/// first, so the HTTP and WebSocket layer is written here, small and only
/// what a local server needs (GET and small bodies, no chunked encoding,
/// no extensions); FlyingSocks, its socket layer, stays underneath: the
/// async sockets and the epoll/kqueue pool are solved and well kept.
public final class LocalServer: Sendable {
    public let limits: ServerLimits
    /// The guard, which knows the port listened on and the run's token.
    public let access: LocalGuard
    private let listener: Socket
    private let connections = Connections()

    /// Why a server could not start.
    public struct CannotListen: Error, CustomStringConvertible {
        public let description: String
    }

    /// Binds and listens now (so the port is known, and taken, before `run`).
    public init(endpoint: ServerEndpoint, limits: ServerLimits = ServerLimits(), token: String = LocalGuard.newToken()) throws(CannotListen) {
        self.limits = limits
        do {
            let socket = try Socket(domain: Int32(type(of: endpoint.address).family))
            try socket.setValue(true, for: .localAddressReuse)
            try socket.bind(to: endpoint.address)
            try socket.listen()
            listener = socket
            let port: UInt16 = switch try socket.sockname() {
            case .ip4(_, let port), .ip6(_, let port): port
            case .unix: endpoint.port
            }
            access = LocalGuard(endpoint: endpoint, port: port, token: token)
        } catch SocketError.failed(let type, _, let message) {
            throw CannotListen(description: "\(type.lowercased()): \(message)")
        } catch {
            throw CannotListen(description: "\(error)")
        }
    }

    /// Serves until cancelled.
    public func run(_ routes: some ServerRoutes) async throws {
        let pool: some AsyncSocketPool = SocketPool.make(maxEvents: 64)
        try await pool.prepare()
        let listening = try AsyncSocket(socket: listener, pool: pool)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await pool.run() }
            await accept(on: listening, routes)
            await connections.cancelAll()
            group.cancelAll()
        }
        try? listener.close()
    }

    private func accept(on listening: AsyncSocket, _ routes: some ServerRoutes) async {
        while !Task.isCancelled {
            let client: AsyncSocket
            do {
                client = try await listening.accept()
            } catch {
                // Out of descriptors (EMFILE) or an aborted connection: the server goes on.
                try? await Task.sleep(for: .milliseconds(50))
                continue
            }
            guard let id = connections.admit(limit: limits.connections) else {
                let refusal = HTTPResponse.text(503, "more than \(limits.connections) connections are open; try again").encoded(keepAlive: false)
                _ = try? client.socket.write(refusal)
                try? client.close()
                continue
            }
            connections.started(id, Task {
                await serve(client, id: id, routes)
                try? client.close()
                connections.finished(id)
            })
        }
    }

    /// Answers one connection's requests until it closes, breaks a limit, is upgraded or is cancelled.
    private func serve(_ client: AsyncSocket, id: Int, _ routes: some ServerRoutes) async {
        let reader = ConnectionReader(client)
        while !Task.isCancelled {
            let request: HTTPRequest
            do {
                guard let read = try await Deadline.run(within: limits.requestTime, { [limits] in try await reader.readRequest(limits: limits) }) else { return }
                request = read
            } catch let refusal as HTTPRefusal {
                await refuse(refusal, reader)
                return
            } catch {
                return
            }
            let verdict = access.check(request)
            guard case .allowed(let byToken) = verdict else {
                if case .refused(let reason) = verdict { await refuse(HTTPRefusal(403, reason), reader) }
                return
            }
            if request.asksForWebSocket {
                await upgrade(reader, request, id: id, routes)
                return
            }
            var response = await routes.respond(to: request)
            if byToken { response.headers.append(("Set-Cookie", access.cookie)) }
            guard await send(response, to: client, keepAlive: request.keepsAlive), request.keepsAlive else { return }
        }
    }

    private func upgrade(_ reader: ConnectionReader, _ request: HTTPRequest, id: Int, _ routes: some ServerRoutes) async {
        guard let handler = routes.webSocket(for: request) else {
            await send(.text(404, "no WebSocket at \(request.path)"), to: reader.socket, keepAlive: false)
            return
        }
        do {
            let accepted = try WebSocketHandshake.accept(request)
            guard await send(accepted, to: reader.socket, keepAlive: true) else { return }
        } catch {
            await send(error.response, to: reader.socket, keepAlive: false)
            return
        }
        await WebSocketConnection.run(reader, id: id, handler: handler, limits: limits)
    }

    /// Answers a refusal and closes: what the client still sends is drained (at most 32 heads' worth,
    /// for `closeTime`) so that closing does not reset the connection before the refusal is read.
    private func refuse(_ refusal: HTTPRefusal, _ reader: ConnectionReader) async {
        await send(refusal.response, to: reader.socket, keepAlive: false)
        _ = try? await Deadline.run(within: limits.closeTime) { [limits] in await reader.drain(limit: limits.headBytes * 32) }
    }

    /// Writes a response within `responseTime`; false when it could not be written.
    @discardableResult
    private func send(_ response: HTTPResponse, to client: AsyncSocket, keepAlive: Bool) async -> Bool {
        let bytes = response.encoded(keepAlive: keepAlive)
        return (try? await Deadline.run(within: limits.responseTime) { try await client.write(bytes) }) != nil
    }

    /// The open connections: their count against the limit, and their tasks, cancelled when the server stops.
    private final class Connections: @unchecked Sendable {
        private let lock = NSLock()
        private var tasks: [Int: Task<Void, Never>?] = [:]
        private var lastID = 0

        /// A number for a new connection; nil when `limit` are open.
        func admit(limit: Int) -> Int? {
            lock.withLock {
                guard tasks.count < limit else { return nil }
                lastID += 1
                tasks[lastID] = .some(nil)
                return lastID
            }
        }

        func started(_ id: Int, _ task: Task<Void, Never>) {
            lock.withLock { if tasks[id] != nil { tasks[id] = task } }
        }

        func finished(_ id: Int) {
            _ = lock.withLock { tasks.removeValue(forKey: id) }
        }

        func cancelAll() async {
            let running = lock.withLock { tasks.values.compactMap { $0 } }
            for task in running { task.cancel() }
            for task in running { await task.value }
        }
    }
}
