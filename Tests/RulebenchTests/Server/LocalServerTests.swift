import Foundation
import RulebenchServer
import XCTest

/// `LocalServer`, the studio's (and the match server's) HTTP and WebSocket
/// server, driven over loopback by raw sockets: its guard (Host, Origin,
/// token) on requests and handshakes, its limits (request head, message
/// size, outgoing queue, connections, time to send a request), and its
/// frame checks. Every wait is bounded by a count or the client's receive
/// timeout; nothing here measures time.
final class LocalServerTests: XCTestCase {
    private var server: LocalServer!
    private var serving: Task<Void, Never>!
    private let events = ServerEvents()
    private var port: UInt16 { server.access.port }
    private var token: String { server.access.token }
    private var host: String { "127.0.0.1:\(port)" }

    private func start(_ change: (inout ServerLimits) -> Void = { _ in }) throws {
        var limits = ServerLimits()
        change(&limits)
        server = try LocalServer(endpoint: ServerEndpoint(host: "127.0.0.1", port: 0)!, limits: limits)
        let server = self.server!, routes = EchoRoutes(events: events)
        serving = Task { try? await server.run(routes) }
    }

    override func tearDown() {
        if let serving {
            serving.cancel()
            blocking { await serving.value }
        }
    }

    private func handshake(_ client: LoopbackClient, _ headers: [String: String]) -> Int? {
        client.get("/socket?token=\(token)", ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
                                               "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Host": host].merging(headers) { $1 })?.status
    }

    func testOnlyThisServersHostOriginAndTokenAreServed() throws {
        try start()
        let refused: [(String, [String: String])] = [
            ("/?token=\(token)", ["Host": "evil.example:\(port)"]),                       // DNS rebinding
            ("/?token=\(token)", ["Host": "127.0.0.1:\(port &+ 1)"]),                      // another port
            ("/?token=\(token)", ["Host": host, "Origin": "http://evil.example"]),
            ("/?token=\(token)", ["Host": host, "Origin": "http://127.0.0.1:\(port &+ 1)"]),
            ("/?token=\(token)", ["Host": host, "Origin": "null"]),
            ("/", ["Host": host]),
            ("/?token=wrong", ["Host": host]),
            ("/?token=\(token)&token=\(token)", ["Host": host]),
            ("/", ["Host": host, "Cookie": "\(server.access.cookieName)=wrong"]),
            ("/", ["Host": host, "Cookie": "\(server.access.cookieName)=\(token)", "Sec-Fetch-Site": "same-site"]),
        ]
        for (target, headers) in refused {
            let answer = try LoopbackClient(port: port).get(target, headers)
            XCTAssertEqual(answer?.status, 403, "\(target) \(headers)")
            XCTAssertEqual(answer?.body.filter { $0 == "\n" }.count, 1, "one line: \(answer?.body ?? "")")
        }
        let client = try LoopbackClient(port: port)
        let allowed = client.get("/page?token=\(token)", ["Host": "localhost:\(port)", "Origin": "http://127.0.0.1:\(port)"])
        XCTAssertEqual(allowed?.status, 200)
        XCTAssertEqual(allowed?.body, "path /page\n")
        XCTAssertEqual(allowed?.headers["set-cookie"], "\(server.access.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict")
        XCTAssertEqual(allowed?.headers["content-security-policy"], HTTPResponse.strictPolicy)
        XCTAssertEqual(allowed?.headers["x-content-type-options"], "nosniff")
        // The same connection goes on, now with the cookie alone (as the page's own files and socket are fetched).
        let byCookie = client.get("/board.js", ["Host": host, "Cookie": "a=b; \(server.access.cookieName)=\(token)", "Sec-Fetch-Site": "same-origin"])
        XCTAssertEqual(byCookie?.status, 200)
        XCTAssertNil(byCookie?.headers["set-cookie"])
    }

    func testTheWebSocketHandshakeIsGuardedAsEveryRequest() throws {
        try start()
        for headers in [["Host": "evil.example:\(port)"], ["Origin": "null"], ["Origin": "http://evil.example"]] {
            XCTAssertEqual(handshake(try LoopbackClient(port: port), headers), 403, "\(headers)")
        }
        let tokenless = try LoopbackClient(port: port)
        tokenless.send("GET /socket HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                       + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
        XCTAssertEqual(tokenless.response()?.status, 403)
        XCTAssertEqual(blocking { [events] in await events.openedCount }, 0, "no refused handshake reached the handler")

        let client = try LoopbackClient(port: port)
        XCTAssertEqual(handshake(client, ["Origin": "http://localhost:\(port)"]), 101)
        client.send(LoopbackClient.frame(0x1, Array("hello".utf8)))
        XCTAssertEqual(client.frame().map { String(decoding: $0.payload, as: UTF8.self) }, "echo: hello")
    }

    func testA128KiBRequestLineIsRefusedAfterTheHeadLimitAndTheServerGoesOn() throws {
        try start()
        let client = try LoopbackClient(port: port)
        client.send("GET /" + String(repeating: "a", count: 128 * 1024) + "?token=\(token) HTTP/1.1\r\nHost: \(host)\r\n\r\n")
        let answer = client.response()
        XCTAssertEqual(answer?.status, 431)
        XCTAssertEqual(answer?.body, "request head (request line and headers) over 8192 bytes\n")
        let tooMany = try LoopbackClient(port: port)
        let headers = (0..<101).map { "X-\($0): 1\r\n" }.joined()
        tooMany.send("GET /?token=\(token) HTTP/1.1\r\nHost: \(host)\r\n\(headers)\r\n")
        XCTAssertEqual(tooMany.response()?.status, 431)
        XCTAssertEqual(try LoopbackClient(port: port).get("/?token=\(token)", ["Host": host])?.status, 200)
    }

    func testMalformedRequestsAndBodiesAreRefusedWithTheirStatus() throws {
        try start { $0.bodyBytes = 16 }
        let cases: [(String, Int)] = [
            ("GET /?token=\(token) HTTP/1.1\r\nHost: \(host)\r\nContent-Length: 17\r\n\r\n", 413),
            ("POST /?token=\(token) HTTP/1.1\r\nHost: \(host)\r\nTransfer-Encoding: chunked\r\n\r\n", 411),
            ("GET /?token=\(token) HTTP/1.1\r\nHost: \(host)\r\nContent-Length: -1\r\n\r\n", 400),
            ("GET /?token=\(token) HTTP/2.0\r\nHost: \(host)\r\n\r\n", 505),
            ("GET http://evil.example/ HTTP/1.1\r\nHost: \(host)\r\n\r\n", 400),
            ("GET /%zz HTTP/1.1\r\nHost: \(host)\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost \(host)\r\n\r\n", 400),
        ]
        for (request, status) in cases {
            let client = try LoopbackClient(port: port)
            client.send(request)
            XCTAssertEqual(client.response()?.status, status, request)
        }
        let posted = try LoopbackClient(port: port)
        posted.send("POST /?token=\(token) HTTP/1.1\r\nHost: \(host)\r\nContent-Length: 5\r\n\r\nhello")
        XCTAssertEqual(posted.response()?.body, "path / body hello\n")
    }

    func testAMessageOverTheLimitClosesTheSocketBeforeItsPayloadIsRead() throws {
        try start { $0.messageBytes = 1024 }
        // One frame declaring 256 MiB: only its 14-byte header is sent, and that is enough to be closed.
        let whole = try LoopbackClient(port: port)
        XCTAssertEqual(handshake(whole, [:]), 101)
        whole.send([0x81, 0x80 | 127, 0, 0, 0, 0, 0x10, 0, 0, 0, 1, 2, 3, 4])
        let close = whole.frame()
        XCTAssertEqual(close?.opcode, 0x8)
        XCTAssertEqual(close.map { LoopbackClient.closeCode($0.payload) }, 1009)
        // Fragments that together pass the limit.
        let fragments = try LoopbackClient(port: port)
        XCTAssertEqual(handshake(fragments, [:]), 101)
        fragments.send(LoopbackClient.frame(0x1, Array(repeating: 0x61, count: 1000), fin: false))
        fragments.send(LoopbackClient.frame(0x0, Array(repeating: 0x61, count: 100), fin: true))
        XCTAssertEqual(fragments.frame().map { LoopbackClient.closeCode($0.payload) }, 1009)
        // Within the limit, fragments are one message.
        let fine = try LoopbackClient(port: port)
        XCTAssertEqual(handshake(fine, [:]), 101)
        fine.send(LoopbackClient.frame(0x1, Array("he".utf8), fin: false))
        fine.send(LoopbackClient.frame(0x9, Array("ping".utf8)))
        fine.send(LoopbackClient.frame(0x0, Array("llo".utf8)))
        XCTAssertEqual(fine.frame().map { [Int($0.opcode)] + $0.payload.map(Int.init) }, [0xA] + "ping".utf8.map(Int.init))
        XCTAssertEqual(fine.frame().map { String(decoding: $0.payload, as: UTF8.self) }, "echo: hello")
    }

    func testMalformedFramesAreClosedWithTheirCodeAndTheServerGoesOn() throws {
        try start()
        let cases: [([UInt8], Int)] = [
            (LoopbackClient.frame(0x1, Array("hi".utf8), masked: false), 1002),          // unmasked
            ([0xC1] + LoopbackClient.frame(0x1, Array("hi".utf8)).dropFirst(), 1002),      // a reserved bit
            (LoopbackClient.frame(0x3, []), 1002),                                          // an unknown opcode
            (LoopbackClient.frame(0x0, Array("x".utf8)), 1002),                            // a continuation of nothing
            (LoopbackClient.frame(0x9, Array(repeating: 1, count: 126)), 1002),            // a control frame too big
            (LoopbackClient.frame(0x1, [0xFF, 0xFE]), 1007),                                // text that is not UTF-8
        ]
        for (bytes, code) in cases {
            let client = try LoopbackClient(port: port)
            XCTAssertEqual(handshake(client, [:]), 101)
            client.send(bytes)
            let close = client.frame()
            XCTAssertEqual(close?.opcode, 0x8, "\(bytes.prefix(2))")
            XCTAssertEqual(close.map { LoopbackClient.closeCode($0.payload) }, code, "\(bytes.prefix(2))")
        }
        let client = try LoopbackClient(port: port)
        XCTAssertEqual(handshake(client, [:]), 101)
        client.send(LoopbackClient.frame(0x2, [1, 2, 3]))
        XCTAssertEqual(client.frame().map { String(decoding: $0.payload, as: UTF8.self) }, "binary 3")
    }

    func testAClientThatNeverReadsIsDroppedWhileTheOthersKeepReceiving() throws {
        try start {
            $0.queuedMessages = 8
            $0.queuedBytes = 1024 * 1024
        }
        let slow = try LoopbackClient(port: port)
        XCTAssertEqual(handshake(slow, [:]), 101)
        let fast = try LoopbackClient(port: port)
        XCTAssertEqual(handshake(fast, [:]), 101)
        let rounds = 300, size = 64 * 1024
        var received = 0
        for _ in 0..<rounds {
            fast.send(LoopbackClient.frame(0x1, Array("broadcast \(size)".utf8)))
            if fast.frame()?.payload.count == size { received += 1 }
        }
        XCTAssertEqual(received, rounds, "the reading client got every broadcast")
        XCTAssertEqual(blocking { [events] in await events.closedCount }, 1, "the client that never read was dropped")
        let slowGot = slow.readToEnd().count
        XCTAssertLessThan(slowGot, rounds * size, "its connection ended before it could have everything")
        XCTAssertTrue(slow.ended)
    }

    func testConnectionsPastTheLimitAreRefusedAndTheServerGoesOn() throws {
        try start { $0.connections = 4 }
        let open = try (0..<4).map { _ in try LoopbackClient(port: port) }
        for client in open { XCTAssertEqual(client.get("/?token=\(token)", ["Host": host])?.status, 200) }
        let refused = try LoopbackClient(port: port)
        XCTAssertEqual(refused.response()?.status, 503)
        XCTAssertEqual(refused.readToEnd(), [])
        XCTAssertTrue(refused.ended, "and closed")
        _ = open.first.map { $0.send("GET /?token=\(token) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n") }
        XCTAssertEqual(open.first?.response()?.status, 200)
        var status: Int?
        for _ in 0..<100 where status != 200 {
            status = try LoopbackClient(port: port).get("/?token=\(token)", ["Host": host])?.status
            if status != 200 { Thread.sleep(forTimeInterval: 0.02) }
        }
        XCTAssertEqual(status, 200, "a connection that ends frees its place")
    }

    func testAClientThatSendsNoRequestIsClosedAfterTheRequestTime() throws {
        try start { $0.requestTime = .milliseconds(200) }
        let idle = try LoopbackClient(port: port)
        idle.send("GET / HTTP/1.1\r\n")
        XCTAssertEqual(idle.readToEnd(), [], "no answer")
        XCTAssertTrue(idle.ended, "the connection was closed")
        XCTAssertEqual(try LoopbackClient(port: port).get("/?token=\(token)", ["Host": host])?.status, 200)
    }

    func testTheTokenIsRandomAndTheExposureIsNamed() {
        let tokens = Set((0..<8).map { _ in LocalGuard.newToken() })
        XCTAssertEqual(tokens.count, 8)
        XCTAssertTrue(tokens.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
        XCTAssertNil(ServerEndpoint(host: "127.0.0.1", port: 1)?.exposureWarning)
        XCTAssertNil(ServerEndpoint(host: "::1", port: 1)?.exposureWarning)
        XCTAssertTrue(ServerEndpoint(host: "0.0.0.0", port: 1)?.exposureWarning?.contains("every network this machine is on") == true)
        XCTAssertNil(ServerEndpoint(host: "nowhere", port: 1))
    }
}

/// The test server's routes: GET answers `path P` (and the body when there
/// is one); a WebSocket echoes text, counts binary bytes, and on
/// `broadcast N` sends N bytes to every open socket.
private struct EchoRoutes: ServerRoutes {
    let events: ServerEvents

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        .text(200, "path \(request.path)" + (request.body.isEmpty ? "" : " body \(String(decoding: request.body, as: UTF8.self))"))
    }

    func webSocket(for request: HTTPRequest) -> (any WebSocketHandler)? {
        request.path == "/socket" ? EchoSocket(events: events) : nil
    }
}

private struct EchoSocket: WebSocketHandler {
    let events: ServerEvents

    func opened(_ peer: WebSocketPeer) async { await events.opened(peer) }

    func received(_ message: WebSocketMessage, from peer: WebSocketPeer) async {
        switch message {
        case .text(let text) where text.hasPrefix("broadcast "):
            await events.broadcast(String(repeating: "x", count: Int(text.dropFirst("broadcast ".count)) ?? 0))
        case .text(let text): peer.send("echo: \(text)")
        case .binary(let bytes): peer.send("binary \(bytes.count)")
        }
    }

    func closed(_ peer: WebSocketPeer) async { await events.closed(peer) }
}

private actor ServerEvents {
    private var peers: [Int: WebSocketPeer] = [:]
    private(set) var openedCount = 0
    private(set) var closedCount = 0

    func opened(_ peer: WebSocketPeer) {
        peers[peer.id] = peer
        openedCount += 1
    }

    func closed(_ peer: WebSocketPeer) {
        peers[peer.id] = nil
        closedCount += 1
    }

    func broadcast(_ text: String) {
        for peer in peers.values { peer.send(text) }
    }
}

/// Runs async work from a synchronous test (whose blocking socket calls must stay off Swift's cooperative threads).
private func blocking<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: T?
    Task {
        result = await work()
        done.signal()
    }
    done.wait()
    return result!
}
