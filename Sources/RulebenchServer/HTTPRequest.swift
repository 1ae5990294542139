import Foundation

/// A request as the server read it: its head parsed from at most
/// `ServerLimits.headBytes` bytes (the reader finds the head's end first,
/// then this parses it once, in time linear in its length) and its body.
/// Everything is checked here or refused with the status that says why;
/// nothing the client sent is trusted further than these checks.
public struct HTTPRequest: Sendable {
    public let method: String
    /// The target's path, percent-decoded (`/pack/art.svg`).
    public let path: String
    /// The target's query, each name and value percent-decoded, in order.
    public let query: [(name: String, value: String)]
    /// Header names lower-cased, values trimmed, in order.
    public let headers: [(name: String, value: String)]
    /// `HTTP/1.1` or `HTTP/1.0`.
    public let version: String
    public var body = Data()

    /// Every value of the header `name` (any case).
    public func headerValues(_ name: String) -> [String] {
        let lower = name.lowercased()
        return headers.filter { $0.name == lower }.map(\.value)
    }

    /// The header `name`'s value when it is given once; nil when absent or repeated.
    public func header(_ name: String) -> String? {
        let values = headerValues(name)
        return values.count == 1 ? values[0] : nil
    }

    /// Every value of the query parameter `name`.
    public func queryValues(_ name: String) -> [String] {
        query.filter { $0.name == name }.map(\.value)
    }

    /// Whether the client keeps the connection open after the response.
    var keepsAlive: Bool {
        let connection = headerValues("connection").joined(separator: ",").lowercased()
        if version == "HTTP/1.0" { return connection.contains("keep-alive") }
        return !connection.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "close" }
    }

    /// Whether the client asks for a WebSocket (`Upgrade: websocket`).
    var asksForWebSocket: Bool {
        headerValues("upgrade").contains { $0.lowercased() == "websocket" }
    }

    /// The body's length the head declares: 0 without one; refused when chunked, malformed or over `limit`.
    func declaredBodyLength(limit: Int) throws(HTTPRefusal) -> Int {
        if !headerValues("transfer-encoding").isEmpty {
            throw HTTPRefusal(411, "Transfer-Encoding is not read here; send the body with a Content-Length")
        }
        let lengths = headerValues("content-length")
        guard let text = lengths.first else { return 0 }
        guard lengths.count == 1, text.count <= 19, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let length = Int(text) else {
            throw HTTPRefusal(400, "Content-Length must be one whole number")
        }
        guard length <= limit else { throw HTTPRefusal(413, "request body of \(length) bytes is over the limit of \(limit)") }
        return length
    }

    /// Parses a head (the bytes before its blank line, CRLF-separated).
    init(head: ArraySlice<UInt8>, headerLimit: Int) throws(HTTPRefusal) {
        var lines = Self.lines(head)
        guard !lines.isEmpty else { throw HTTPRefusal(400, "empty request") }
        let requestLine = lines.removeFirst()
        let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(Self.isTokenByte) else {
            throw HTTPRefusal(400, "the request line is not METHOD TARGET HTTP/1.1")
        }
        version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { throw HTTPRefusal(505, "only HTTP/1.1 and HTTP/1.0 are served") }
        method = String(decoding: parts[0], as: UTF8.self)
        let target = parts[1]
        guard target.first == UInt8(ascii: "/"), target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw HTTPRefusal(400, "the request target must be a path beginning with / in printable ASCII")
        }
        let questionMark = target.firstIndex(of: UInt8(ascii: "?"))
        guard let decodedPath = Self.percentDecoded(target[..<(questionMark ?? target.endIndex)]) else {
            throw HTTPRefusal(400, "the request path's percent-encoding is not UTF-8")
        }
        path = decodedPath
        query = try Self.queryItems(questionMark.map { target[target.index(after: $0)...] } ?? [])
        guard lines.count <= headerLimit else { throw HTTPRefusal(431, "more than \(headerLimit) header lines") }
        headers = try lines.map(Self.header)
    }

    private static func lines(_ head: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = head.startIndex, index = head.startIndex
        while index < head.endIndex {
            if head[index] == 0x0D, index + 1 < head.endIndex, head[index + 1] == 0x0A {
                lines.append(head[start..<index])
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        lines.append(head[start..<head.endIndex])
        return lines
    }

    private static func header(_ line: ArraySlice<UInt8>) throws(HTTPRefusal) -> (name: String, value: String) {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
              line[..<colon].allSatisfy(isTokenByte) else {
            throw HTTPRefusal(400, "a header line is not NAME: VALUE")
        }
        let value = line[(colon + 1)...]
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            throw HTTPRefusal(400, "a header value holds a control character")
        }
        let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
        return (name, String(decoding: value, as: UTF8.self).trimmingCharacters(in: .whitespaces))
    }

    private static func queryItems(_ query: ArraySlice<UInt8>) throws(HTTPRefusal) -> [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        for pair in query.split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
            guard let name = percentDecoded(pair[..<equals]),
                  let value = percentDecoded(equals < pair.endIndex ? pair[(equals + 1)...] : []) else {
                throw HTTPRefusal(400, "the query's percent-encoding is not UTF-8")
            }
            items.append((name, value))
        }
        return items
    }

    /// `%XX` sequences decoded (and `+` kept); nil when one is malformed or the result is not UTF-8.
    static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else { return nil }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// RFC 9110's token characters (methods, header names).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
