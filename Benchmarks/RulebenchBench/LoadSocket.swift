import Foundation

/// One client of the serve load bench (row 13): a WebSocket to a loopback
/// server, its handshake made blocking (bounded by a 10 s socket timeout),
/// then non-blocking so one thread can poll hundreds of them. Sends masked
/// text frames; reads whole unfragmented text frames (what `rulebench serve`
/// sends), at most `maximumMessage` bytes each.
final class LoadSocket {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var chunk = [UInt8](repeating: 0, count: 65536)
    static let maximumMessage = 1 << 20

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Connects to 127.0.0.1:`port` and asks for the socket at `target`.
    init(port: UInt16, target: String) throws {
        descriptor = try Self.connected(port)
        let request = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        guard Self.writeAll(descriptor, Array(request.utf8)) else { throw Failure(description: "the server closed the connection") }
        while true {
            if let end = headEnd() {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                guard head.hasPrefix("HTTP/1.1 101") else { throw Failure(description: "socket refused: \(head.prefix(80))") }
                start = end + 4
                break
            }
            guard buffer.count < 16 * 1024, fill() == true else { throw Failure(description: "no answer to the handshake") }
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(descriptor) }

    /// A blocking loopback TCP connection, each read and write bounded by 10 s.
    static func connected(_ port: UInt16) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var wait = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connectedOK = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connectedOK else {
            close(descriptor)
            throw Failure(description: "cannot connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
        return descriptor
    }

    /// Sends a text message (masked, as a client must); false when the connection is gone.
    @discardableResult
    func send(_ text: String) -> Bool {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        switch payload.count {
        case ..<126: frame.append(0x80 | UInt8(payload.count))
        case ..<65536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: return false
        }
        let key: [UInt8] = [0x5A, 0x1E, 0xC3, 0x07]
        frame += key
        for (index, byte) in payload.enumerated() { frame.append(byte ^ key[index & 3]) }
        return Self.writeAll(descriptor, frame)
    }

    /// Reads what the socket holds now; false when the server closed it.
    func readAvailable() -> Bool {
        while true {
            switch fill() {
            case true: continue
            case false: return false
            case nil: return true
            }
        }
    }

    /// The next whole text message read, nil when none is complete yet. A close frame reads as "".
    func nextMessage() -> String? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        var length = Int(buffer[start + 1] & 0x7F), header = 2
        if length == 126 {
            guard available >= 4 else { return nil }
            length = Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
            header = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            length = buffer[(start + 2)..<(start + 10)].reduce(0) { $0 << 8 | Int($1) }
            header = 10
        }
        guard length <= Self.maximumMessage else { return "" }
        guard available >= header + length else { return nil }
        let opcode = buffer[start] & 0x0F
        let text = String(decoding: buffer[(start + header)..<(start + header + length)], as: UTF8.self)
        start += header + length
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        return opcode == 0x8 ? "" : text
    }

    /// One read into the buffer: true when bytes came, false when the peer closed, nil when none are waiting.
    private func fill() -> Bool? {
        let count = recv(descriptor, &chunk, chunk.count, 0)
        if count > 0 {
            if start > 0, start == buffer.count { buffer.removeAll(keepingCapacity: true); start = 0 }
            buffer += chunk[..<count]
            return true
        }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return nil }
        return false
    }

    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        return (0...(buffer.count - 4)).first { buffer[$0] == 13 && buffer[$0 + 1] == 10 && buffer[$0 + 2] == 13 && buffer[$0 + 3] == 10 }
    }

    /// Writes every byte, waiting (at most 10 s in all) while a non-blocking socket's buffer is full.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0, waits = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                sent += count
            } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK, waits < 10_000 {
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, 1)
                waits += 1
            } else {
                return false
            }
        }
        return true
    }
}
