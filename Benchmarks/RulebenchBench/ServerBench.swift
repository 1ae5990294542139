import FlyingSocks
import Foundation
import RulebenchServer

/// Row (11): what a hostile client costs `LocalServer` (the studio's server), in process on loopback:
/// CPU time (process user + system, client included) to refuse a 128 KiB request line, and the peak
/// resident memory after a WebSocket frame that declares 256 MiB and sends as much as the server reads.
/// Goal: a refusal within 10 ms of CPU, and the 256 MiB attempt adding under 16 MiB.
enum ServerBench {
    private struct Routes: ServerRoutes, WebSocketHandler {
        func respond(to request: HTTPRequest) async -> HTTPResponse { .text(200, "ok") }
        func webSocket(for request: HTTPRequest) -> (any WebSocketHandler)? { self }
        func opened(_ peer: WebSocketPeer) async {}
        func received(_ message: WebSocketMessage, from peer: WebSocketPeer) async {}
        func closed(_ peer: WebSocketPeer) async {}
    }

    static func rows() throws {
        let server = try LocalServer(endpoint: ServerEndpoint(host: "127.0.0.1", port: 0)!)
        let serving = Task { try? await server.run(Routes()) }
        defer { serving.cancel() }
        let line = Array(("GET /" + String(repeating: "a", count: 128 * 1024) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").utf8)
        let rounds = 50
        let before = cpuSeconds()
        var statuses: [String: Int] = [:]
        for _ in 0..<rounds { statuses[exchange(server.access.port, line), default: 0] += 1 }
        let perRefusal = (cpuSeconds() - before) / Double(rounds)
        print(String(format: "(11) a 128 KiB request line refused: %.2f ms of CPU each (%d rounds: %@)",
                     perRefusal * 1000, rounds, statuses.description))

        let peak = peakMiB()
        let handshake = "GET /socket?token=\(server.access.token) HTTP/1.1\r\nHost: 127.0.0.1:\(server.access.port)\r\n"
            + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        let frame: [UInt8] = [0x81, 0xFF, 0, 0, 0, 0, 0x10, 0, 0, 0, 1, 2, 3, 4]
        let answer = exchange(server.access.port, Array(handshake.utf8) + frame, then: 256 << 20)
        print("(11) a 256 MiB WebSocket message: peak resident \(peak) -> \(peakMiB()) MiB (\(answer))")
    }

    /// Sends `bytes`, then `then` blanks from one reused MiB (as far as the server reads them), and returns
    /// the first line it answered. A blocking FlyingSocks socket: the server's limits end every exchange.
    private static func exchange(_ port: UInt16, _ bytes: [UInt8], then: Int = 0) -> String {
        guard let socket = try? Socket(domain: AF_INET), (try? socket.connect(to: sockaddr_in.inet(ip4: "127.0.0.1", port: port))) != nil else {
            return "no connection"
        }
        defer { try? socket.close() }
        let sent = (try? socket.write(Data(bytes))) ?? 0
        let blanks = Data(repeating: 0x20, count: 1 << 20)
        var streamed = 0
        while sent == bytes.count, streamed < then, let count = try? socket.write(blanks.prefix(then - streamed)) {
            streamed += count
        }
        let answer = (try? socket.read(atMost: 4096)) ?? []
        let first = String(decoding: answer, as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
        return then == 0 ? first : "\(streamed >> 20) MiB of the \(then >> 20) MiB payload went out before the server closed the socket; it answered \(first.prefix(34))"
    }

    /// The process's CPU time so far, user and system, all threads.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    private static func peakMiB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss / 1024
    }
}
