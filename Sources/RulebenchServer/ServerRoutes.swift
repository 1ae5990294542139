/// What a server answers, once the guard has passed a request: a response
/// to a plain request, or the handler of a WebSocket. The server does the
/// rest (reading within limits, the guard, framing, the headers every
/// response carries, the handshake, the socket's frames and queue).
public protocol ServerRoutes: Sendable {
    func respond(to request: HTTPRequest) async -> HTTPResponse
    /// The handler of a WebSocket asked for at the request's path; nil answers 404.
    func webSocket(for request: HTTPRequest) -> (any WebSocketHandler)?
}
