/// A whole message a client sent over a WebSocket, its fragments joined.
/// Text is valid UTF-8 (a message that is not is closed with 1007).
public enum WebSocketMessage: Sendable, Equatable {
    case text(String)
    case binary([UInt8])
}
