import Foundation

/// A small blocking WebSocket client over a loopback or LAN TCP socket, for
/// `rulebench join`: the handshake, masked text frames out, whole text
/// messages in (fragments joined, pings answered). One thread reads, any
/// thread may send (sends are serialised by a lock). Every message read is
/// bounded (`maximumMessage`); every read waits at most `timeout` seconds.
final class BlockingWebSocket: @unchecked Sendable {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private let sendLock = NSLock()
    static let maximumMessage = 4 << 20

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Connects to `host` (an IP address) on `port` and asks for the socket at `target`.
    init(host: String, port: UInt16, target: String, timeout: Int) throws(Failure) {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, "\(port)", &hints, &found) == 0, let info = found else {
            throw Failure(description: "\(host) is not an IP address")
        }
        defer { freeaddrinfo(found) }
        descriptor = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        guard connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "cannot connect to \(host):\(port): \(reason)")
        }
        let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var key = [UInt8](repeating: 0, count: 16)
        for index in key.indices { key[index] = UInt8.random(in: .min ... .max) }
        let request = "GET \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(Data(key).base64EncodedString())\r\nSec-WebSocket-Version: 13\r\n\r\n"
        guard write(Array(request.utf8)) else { throw Failure(description: "the server closed the connection") }
        let head = try readHead()
        guard head.hasPrefix("HTTP/1.1 101") else {
            throw Failure(description: "the server refused the socket: \(head.split(separator: "\r\n").first ?? "")")
        }
    }

    deinit { close(descriptor) }

    /// Sends a text message (masked, as a client must); false when the connection is gone.
    @discardableResult
    func send(_ text: String) -> Bool {
        sendLock.withLock { write(Self.frame(0x1, Array(text.utf8))) }
    }

    /// Sends a close frame.
    func sendClose() {
        sendLock.withLock { _ = write(Self.frame(0x8, [0x03, 0xE8])) }
    }

    /// The next whole text message; nil when the connection closed, failed or timed out.
    func receive() -> String? {
        var message: [UInt8] = []
        while true {
            guard let head = read(2) else { return nil }
            let opcode = head[0] & 0x0F
            var length = Int(head[1] & 0x7F)
            if length == 126 {
                guard let more = read(2) else { return nil }
                length = Int(more[0]) << 8 | Int(more[1])
            } else if length == 127 {
                guard let more = read(8), more[0] == 0 else { return nil }
                length = more.reduce(0) { $0 << 8 | Int($1) }
            }
            guard length <= Self.maximumMessage - message.count, let payload = read(length) else { return nil }
            switch opcode {
            case 0x8: return nil
            case 0x9: sendLock.withLock { _ = write(Self.frame(0xA, payload)) }
            case 0xA: break
            default:
                message += payload
                if head[0] & 0x80 != 0 { return String(decoding: message, as: UTF8.self) }
            }
        }
    }

    private func readHead() throws(Failure) -> String {
        while true {
            if let end = buffer.indices.dropLast(3).first(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 && buffer[$0 + 2] == 13 && buffer[$0 + 3] == 10 }) {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
                return head
            }
            guard buffer.count < 16 * 1024, fill() else { throw Failure(description: "the server did not answer the handshake") }
        }
    }

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(descriptor, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }

    private func read(_ count: Int) -> [UInt8]? {
        while buffer.count < count { guard fill() else { return nil } }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    private func write(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    private static func frame(_ opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x80 | opcode]
        switch payload.count {
        case ..<126: bytes.append(0x80 | UInt8(payload.count))
        case ..<65536: bytes += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: bytes.append(0x80 | 127); bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: payload.count >> ($0 * 8)) }
        }
        var key = [UInt8](repeating: 0, count: 4)
        for index in key.indices { key[index] = UInt8.random(in: .min ... .max) }
        return bytes + key + payload.enumerated().map { $0.element ^ key[$0.offset & 3] }
    }
}
