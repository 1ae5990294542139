import FlyingFox

/// One page's WebSocket: it gets the position when it connects, then each
/// of its messages is handed to the session, whose answers go back to it or
/// to every page. A message that is not text gets an error reply; the
/// socket stays open either way.
struct StudioSocket: WSMessageHandler {
    let session: StudioSession
    let hub: StudioHub

    func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        let (outgoing, page) = AsyncStream<WSMessage>.makeStream()
        let id = await hub.add(page)
        page.yield(.text(await session.position()))
        Task {
            for await message in client {
                switch message {
                case .text(let text):
                    await deliver(await session.handle(text), to: page)
                case .data:
                    let reply = StudioReply.error(.malformed, message: "binary messages are not read; send JSON text such as {\"type\": \"undo\"}", id: nil)
                    page.yield(.text(reply.text))
                case .close:
                    break
                }
            }
            await hub.remove(id)
        }
        return outgoing
    }

    private func deliver(_ answers: [StudioSession.Outgoing], to page: AsyncStream<WSMessage>.Continuation) async {
        for answer in answers {
            switch answer {
            case .sender(let text): page.yield(.text(text))
            case .everyone(let text): await hub.broadcast(text)
            }
        }
    }
}
