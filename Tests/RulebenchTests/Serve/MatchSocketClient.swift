import Foundation
import XCTest
import Rulebench

/// A match socket of `rulebench serve` opened by the test itself (the
/// WebSocket handshake and masked frames over `LoopbackClient`), for what
/// `rulebench join` does not do: many messages in one write, and the crash
/// test's clients, which must see each message as it arrives.
final class MatchSocketClient {
    private let client: LoopbackClient

    /// Opens the socket of `match` as `seat` (or, with no seat, as a spectator).
    init(port: UInt16, token: String, match: Int64, seat: String?, credential: String?, timeout: Int = 10) throws {
        client = try LoopbackClient(port: port, timeout: timeout)
        let query = seat.map { "seat=\($0)&credential=\(credential ?? "")" } ?? "watch=1"
        client.send("GET /api/matches/\(match)/socket?token=\(token)&\(query) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                    + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
        guard let answer = client.response(), answer.status == 101 else { throw XCTSkip("the socket of match \(match) was not opened") }
    }

    /// Sends each text as a frame, all in one write.
    @discardableResult
    func sendAll(_ texts: [String]) -> Bool {
        client.send(texts.flatMap { LoopbackClient.frame(0x1, Array($0.utf8)) })
    }

    /// The next text message, as JSON; throws when the connection ends or is silent past the timeout.
    func next() throws -> JSONValue {
        while true {
            guard let frame = client.frame() else { throw CancellationError() }
            if frame.opcode == 0x1 { return try JSONValue.parse(String(decoding: frame.payload, as: UTF8.self)) }
            if frame.opcode == 0x8 { throw CancellationError() }
        }
    }
}
