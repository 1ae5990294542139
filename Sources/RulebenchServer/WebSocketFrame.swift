/// One WebSocket frame (RFC 6455 section 5) and its codec. A client's
/// frame is read header first: what the header declares (masking, reserved
/// bits, opcode, a control frame's size, a payload over what the message
/// may still take) is checked before any payload byte is read, so a frame
/// that declares 256 MiB costs 14 bytes of reading and a close.
struct WebSocketFrame {
    static let continuation: UInt8 = 0x0, text: UInt8 = 0x1, binary: UInt8 = 0x2
    static let close: UInt8 = 0x8, ping: UInt8 = 0x9, pong: UInt8 = 0xA

    var fin = true
    var opcode: UInt8
    var payload: [UInt8]

    /// Why a connection is being closed: a close code and a short reason (at most 123 bytes).
    struct Close: Error, Equatable {
        let code: UInt16
        let reason: String
        static let normal = Close(code: 1000, reason: "")
        static func protocolError(_ reason: String) -> Close { Close(code: 1002, reason: reason) }
    }

    var isControl: Bool { opcode >= 0x8 }

    /// Reads one client frame; `allowance` is how many payload bytes the message it belongs to may still take.
    static func read(from reader: ConnectionReader, allowance: Int) async throws -> WebSocketFrame {
        let head = try await reader.read(exactly: 2)
        let opcode = head[0] & 0x0F
        guard head[0] & 0x70 == 0 else { throw Close.protocolError("reserved bits set (no extension was agreed)") }
        guard [continuation, text, binary, close, ping, pong].contains(opcode) else { throw Close.protocolError("unknown opcode \(opcode)") }
        guard head[1] & 0x80 != 0 else { throw Close.protocolError("a client's frames must be masked") }
        let fin = head[0] & 0x80 != 0
        var length = UInt64(head[1] & 0x7F)
        if length == 126 {
            length = try await bigEndian(reader.read(exactly: 2))
        } else if length == 127 {
            length = try await bigEndian(reader.read(exactly: 8))
        }
        if opcode >= 0x8 {
            guard fin, length <= 125 else { throw Close.protocolError("a control frame must be whole and at most 125 bytes") }
        } else if length > UInt64(max(0, allowance)) {
            throw Close(code: 1009, reason: "message over the limit")
        }
        let mask = try await reader.read(exactly: 4)
        var payload = try await reader.read(exactly: Int(length))
        for index in payload.indices { payload[index] ^= mask[index & 3] }
        return WebSocketFrame(fin: fin, opcode: opcode, payload: payload)
    }

    private static func bigEndian(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The frame as a server sends it: unmasked.
    var encoded: [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        switch payload.count {
        case ..<126: bytes.append(UInt8(payload.count))
        case ..<65536: bytes += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: bytes.append(127); bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(payload.count) >> UInt64($0 * 8)) }
        }
        return bytes + payload
    }

    /// A close frame carrying `close`'s code and reason (cut to fit a control frame).
    static func closing(_ close: Close) -> WebSocketFrame {
        WebSocketFrame(opcode: Self.close, payload: [UInt8(close.code >> 8), UInt8(close.code & 0xFF)] + Array(close.reason.utf8.prefix(123)))
    }
}
