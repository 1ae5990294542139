/// The sending side of one open WebSocket, as a route holds it: `send`
/// never waits and never buffers without bound. Messages go to the
/// connection's `OutgoingQueue`; a client that falls `ServerLimits`'
/// queued messages or bytes behind is dropped (its connection cancelled),
/// and every later `send` to it returns false.
public final class WebSocketPeer: Sendable, Identifiable {
    /// Unique among the server's connections while it runs.
    public let id: Int
    let queue: OutgoingQueue
    private let drop: @Sendable () -> Void

    init(id: Int, queue: OutgoingQueue, drop: @escaping @Sendable () -> Void) {
        self.id = id
        self.queue = queue
        self.drop = drop
    }

    /// Queues a text message; false when the peer is closed or was just dropped for falling behind.
    @discardableResult
    public func send(_ text: String) -> Bool {
        push(WebSocketFrame(opcode: WebSocketFrame.text, payload: Array(text.utf8)))
    }

    /// Queues a frame; a queue that overflows drops the client.
    @discardableResult
    func push(_ frame: WebSocketFrame) -> Bool {
        switch queue.push(frame.encoded) {
        case .queued: return true
        case .closed: return false
        case .overflowed:
            drop()
            return false
        }
    }

    /// Closes the socket after what is queued (1001: the server is going away).
    public func close(code: UInt16 = 1001, reason: String = "the server is stopping") {
        queue.finish(last: WebSocketFrame.closing(.init(code: code, reason: reason)).encoded)
    }
}
