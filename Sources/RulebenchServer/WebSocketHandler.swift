/// What a route does with one WebSocket: told when it opens, given each
/// whole message in the order the client sent them (the next is not read
/// until this one is handled, so a fast sender waits on the server, not in
/// its memory), told when it closes. Answers go through the peer.
public protocol WebSocketHandler: Sendable {
    func opened(_ peer: WebSocketPeer) async
    func received(_ message: WebSocketMessage, from peer: WebSocketPeer) async
    func closed(_ peer: WebSocketPeer) async
}
