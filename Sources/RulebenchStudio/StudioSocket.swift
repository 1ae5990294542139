import RulebenchServer

/// One page's WebSocket: it gets the position when it connects, then each
/// of its messages is handed to the session, whose answers go back to it or
/// to every page. A message that is not text gets an error reply; the
/// socket stays open either way.
struct StudioSocket: WebSocketHandler {
    let session: StudioSession
    let hub: StudioHub

    func opened(_ peer: WebSocketPeer) async {
        await hub.add(peer)
        peer.send(await session.position())
    }

    func received(_ message: WebSocketMessage, from peer: WebSocketPeer) async {
        switch message {
        case .text(let text):
            for answer in await session.handle(text) {
                switch answer {
                case .sender(let text): peer.send(text)
                case .everyone(let text): await hub.broadcast(text)
                }
            }
        case .binary:
            peer.send(StudioReply.error(.malformed, message: "binary messages are not read; send JSON text such as {\"type\": \"undo\"}", id: nil).text)
        }
    }

    func closed(_ peer: WebSocketPeer) async {
        await hub.remove(peer)
    }
}
