import Foundation
import XCTest

/// A blocking TCP client on 127.0.0.1 for the server tests: raw bytes out,
/// responses and WebSocket frames in, every read bounded by a receive
/// timeout (a wait that runs out fails the test, it never hangs it).
final class LoopbackClient {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// The server closed or reset the connection (a receive timeout leaves this false).
    private(set) var ended = false

    /// Connects to 127.0.0.1:`port`; reads wait at most `timeout` seconds each.
    init(port: UInt16, timeout: Int = 10) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(descriptor); throw XCTSkip("cannot connect to 127.0.0.1:\(port) (errno \(errno))") }
    }

    deinit { close(descriptor) }

    /// Writes all of `bytes`; false when the server closed the connection first.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// More bytes into the buffer; false at the end of the stream, a reset or the timeout.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(descriptor, &chunk, chunk.count, 0)
        guard count > 0 else {
            if count == 0 || errno == ECONNRESET { ended = true }
            return false
        }
        buffer += chunk[..<count]
        return true
    }

    /// Exactly `count` bytes, or nil when the stream ends first.
    func read(_ count: Int) -> [UInt8]? {
        while buffer.count < count { guard fill() else { return nil } }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    /// Everything until the server closes the connection (`ended`) or the timeout.
    func readToEnd() -> [UInt8] {
        while fill() {}
        defer { buffer = [] }
        return buffer
    }

    /// One HTTP response: status, headers (names lower-cased), body (by Content-Length).
    func response() -> (status: Int, headers: [String: String], body: String)? {
        var end: Int?
        while end == nil {
            end = buffer.indices.dropLast(3).first { buffer[$0] == 13 && buffer[$0 + 1] == 10 && buffer[$0 + 2] == 13 && buffer[$0 + 3] == 10 }
            if end == nil { guard fill() else { return nil } }
        }
        let head = String(decoding: buffer[..<end!], as: UTF8.self).components(separatedBy: "\r\n")
        buffer.removeFirst(end! + 4)
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        let body = read(Int(headers["content-length"] ?? "0") ?? 0) ?? []
        return (status, headers, String(decoding: body, as: UTF8.self))
    }

    /// A GET of `target` with these headers (Host first unless given).
    func get(_ target: String, _ headers: [String: String]) -> (status: Int, headers: [String: String], body: String)? {
        let lines = headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)\r\n" }.joined()
        send("GET \(target) HTTP/1.1\r\n\(lines)\r\n")
        return response()
    }

    /// A masked client frame.
    static func frame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let mask: UInt8 = masked ? 0x80 : 0
        switch payload.count {
        case ..<126: bytes.append(mask | UInt8(payload.count))
        case ..<65536: bytes += [mask | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: bytes.append(mask | 127); bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: payload.count >> ($0 * 8)) }
        }
        guard masked else { return bytes + payload }
        let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        return bytes + key + payload.enumerated().map { $0.element ^ key[$0.offset & 3] }
    }

    /// The next frame the server sent: opcode and payload; nil when the stream ended first.
    func frame() -> (opcode: UInt8, payload: [UInt8])? {
        guard let head = read(2) else { return nil }
        var length = Int(head[1] & 0x7F)
        if length == 126 { guard let more = read(2) else { return nil }; length = Int(more[0]) << 8 | Int(more[1]) }
        if length == 127 { guard let more = read(8) else { return nil }; length = more.reduce(0) { $0 << 8 | Int($1) } }
        guard let payload = read(length) else { return nil }
        return (head[0] & 0x0F, payload)
    }

    /// The code of a close frame's payload.
    static func closeCode(_ payload: [UInt8]) -> Int { payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 1005 }
}
