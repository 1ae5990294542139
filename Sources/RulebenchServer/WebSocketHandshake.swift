import Foundation

/// The server's side of the opening handshake (RFC 6455 section 4.2): a
/// GET that asks to upgrade to `websocket`, version 13, with a 16-byte key,
/// answered 101 with the key's accept value. The guard has already passed
/// the request (Host, Origin, token); this checks only the protocol.
enum WebSocketHandshake {
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    static func accept(_ request: HTTPRequest) throws(HTTPRefusal) -> HTTPResponse {
        guard request.method == "GET" else { throw HTTPRefusal(405, "a WebSocket opens with GET") }
        let connection = request.headerValues("connection").joined(separator: ",").lowercased()
        guard connection.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "upgrade" }) else {
            throw HTTPRefusal(400, "a WebSocket handshake needs Connection: Upgrade")
        }
        guard request.header("sec-websocket-version") == "13" else {
            throw HTTPRefusal(426, "only WebSocket version 13 is served")
        }
        guard let key = request.header("sec-websocket-key"), let decoded = Data(base64Encoded: key), decoded.count == 16 else {
            throw HTTPRefusal(400, "Sec-WebSocket-Key must be 16 bytes in base64")
        }
        let accept = Data(SHA1.digest(Array((key + guid).utf8))).base64EncodedString()
        var response = HTTPResponse(status: 101, contentType: "text/plain", body: Data())
        response.headers = [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", accept)]
        return response
    }
}
