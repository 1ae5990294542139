/// Every bound a `LocalServer` keeps, in one place: what a client can make
/// the server read, hold, queue or wait for. Each is checked before the
/// bytes it bounds are read or kept, so no client reaches memory or time
/// beyond them; a client that goes past one is refused (an HTTP status or
/// a WebSocket close code) and the server goes on.
public struct ServerLimits: Sendable {
    /// A request's line and headers together, CRLFs included (431 past it).
    public var headBytes = 8 * 1024
    /// Header lines in one request (431 past it).
    public var headerCount = 100
    /// A request body, declared by Content-Length (413 past it; chunked bodies are refused with 411).
    public var bodyBytes = 64 * 1024
    /// A WebSocket message, its fragments together (close 1009 past it, before its payload is read).
    public var messageBytes = 1024 * 1024
    /// Messages waiting to be written to one WebSocket; a client that falls further behind is dropped.
    public var queuedMessages = 256
    /// Bytes waiting to be written to one WebSocket; a client that falls further behind is dropped.
    public var queuedBytes = 32 * 1024 * 1024
    /// Connections open at once, sockets included; one more is answered 503 and closed.
    public var connections = 64
    /// From a connection's first byte (or the end of its last response) to the end of a request's
    /// head and body: a client slower than this, or idle this long, is closed.
    public var requestTime: Duration = .seconds(10)
    /// Writing one HTTP response; a client that does not read it in this time is closed.
    public var responseTime: Duration = .seconds(30)
    /// What is left to a closing WebSocket to write its close frame before it is cut.
    public var closeTime: Duration = .seconds(1)

    public init() {}
}
