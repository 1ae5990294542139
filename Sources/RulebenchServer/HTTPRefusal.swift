/// Why the server will not answer a request as asked: an HTTP status and one
/// line for the client (`431 request head over 8192 bytes`). Thrown by the
/// request reader and the WebSocket handshake; the server answers it as a
/// plain-text response and closes the connection.
public struct HTTPRefusal: Error, Equatable, Sendable {
    public let status: Int
    public let reason: String

    public init(_ status: Int, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    /// The refusal as the response the client gets.
    public var response: HTTPResponse { .text(status, reason) }
}
