import FlyingSocks
import Foundation

/// One connection's incoming bytes, read through one buffer that never
/// holds more than the caller's bound plus one read (4 KiB). A request's
/// head is found by scanning only the bytes each read adds for its blank
/// line, so reading a head costs time linear in its length, and a head
/// longer than the limit is refused after `limit` bytes, whatever the
/// client goes on sending. Used by one task at a time.
final class ConnectionReader: @unchecked Sendable {
    let socket: AsyncSocket
    private var buffer: [UInt8] = []

    init(_ socket: AsyncSocket) { self.socket = socket }

    /// The next request (head and body); nil when the client closed the connection between requests.
    func readRequest(limits: ServerLimits) async throws -> HTTPRequest? {
        guard let headEnd = try await readHead(limit: limits.headBytes) else { return nil }
        var request = try HTTPRequest(head: buffer[..<headEnd], headerLimit: limits.headerCount)
        buffer.removeFirst(headEnd + 4)
        let length = try request.declaredBodyLength(limit: limits.bodyBytes)
        request.body = Data(try await read(exactly: length))
        return request
    }

    /// The offset of the head's blank line once the buffer holds it; nil on a clean close before any byte.
    private func readHead(limit: Int) async throws -> Int? {
        var scanned = 0
        while true {
            if let end = Self.blankLine(in: buffer, from: scanned) { return end }
            guard buffer.count < limit else {
                throw HTTPRefusal(431, "request head (request line and headers) over \(limit) bytes")
            }
            scanned = max(0, buffer.count - 3)
            do {
                buffer += try await socket.read(atMost: limit - buffer.count)
            } catch SocketError.disconnected where buffer.isEmpty {
                return nil
            }
        }
    }

    private static func blankLine(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 3 < bytes.count {
            if bytes[index] == 0x0D, bytes[index + 1] == 0x0A, bytes[index + 2] == 0x0D, bytes[index + 3] == 0x0A { return index }
            index += 1
        }
        return nil
    }

    /// Exactly `count` bytes (the caller has bounded `count`).
    func read(exactly count: Int) async throws -> [UInt8] {
        while buffer.count < count {
            buffer += try await socket.read(atMost: count - buffer.count)
        }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    /// After a refusal: stops writing, then reads and discards what the client is still sending, at most
    /// `limit` bytes, so closing does not reset the connection before the client has read the refusal.
    func drain(limit: Int) async {
        _ = shutdown(socket.socket.file.rawValue, Int32(SHUT_WR))
        var discarded = 0
        while discarded < limit, let bytes = try? await socket.read(atMost: limit - discarded) {
            discarded += bytes.count
        }
    }
}
