import FlyingSocks
import Foundation

/// One open WebSocket after its handshake: a reader that reassembles the
/// client's frames into messages within `ServerLimits.messageBytes` and
/// answers pings and closes, and a writer that drains the peer's bounded
/// queue. Whichever ends first ends the other: a protocol error or a close
/// from the client queues a close frame (1002, 1007, 1009, or the
/// client's own) that the writer gets `closeTime` to send; a write that
/// fails, or a peer dropped for falling behind, cancels the reader.
enum WebSocketConnection {
    private enum Side { case reader, writer, timer }

    static func run(_ reader: ConnectionReader, id: Int, handler: any WebSocketHandler, limits: ServerLimits) async {
        let queue = OutgoingQueue(maxMessages: limits.queuedMessages, maxBytes: limits.queuedBytes)
        let cancel = CancelHandle()
        let peer = WebSocketPeer(id: id, queue: queue, drop: { cancel.cancel() })
        let task = Task {
            await handler.opened(peer)
            await withTaskGroup(of: Side.self) { group in
                group.addTask {
                    await write(queue, to: reader.socket)
                    return .writer
                }
                group.addTask {
                    let close = await read(reader, peer: peer, handler: handler, limits: limits)
                    queue.finish(last: close.map { WebSocketFrame.closing($0).encoded })
                    return .reader
                }
                if await group.next() == .reader {
                    group.addTask {
                        try? await Task.sleep(for: limits.closeTime)
                        return .timer
                    }
                    _ = await group.next()
                }
                group.cancelAll()
            }
            queue.finish(last: nil)
            await handler.closed(peer)
        }
        cancel.set(task)
        await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
    }

    private static func write(_ queue: OutgoingQueue, to socket: AsyncSocket) async {
        while let frame = await queue.next() {
            do { try await socket.write(Data(frame)) } catch { return }
        }
    }

    /// Reads messages until the client closes, breaks the protocol or goes; the close to send back, if any.
    private static func read(_ reader: ConnectionReader, peer: WebSocketPeer, handler: any WebSocketHandler,
                             limits: ServerLimits) async -> WebSocketFrame.Close? {
        var partial: (opcode: UInt8, payload: [UInt8])?
        while true {
            let frame: WebSocketFrame
            do {
                frame = try await WebSocketFrame.read(from: reader, allowance: limits.messageBytes - (partial?.payload.count ?? 0))
            } catch let close as WebSocketFrame.Close {
                return close.code == 1009 ? .init(code: 1009, reason: "message over \(limits.messageBytes) bytes") : close
            } catch {
                return nil
            }
            switch frame.opcode {
            case WebSocketFrame.ping:
                peer.push(WebSocketFrame(opcode: WebSocketFrame.pong, payload: frame.payload))
            case WebSocketFrame.pong:
                continue
            case WebSocketFrame.close:
                return .normal
            case WebSocketFrame.continuation:
                guard var message = partial else { return .protocolError("a continuation frame with no message begun") }
                message.payload += frame.payload
                partial = frame.fin ? nil : message
                if frame.fin, let close = await deliver(message.opcode, message.payload, peer: peer, handler: handler) { return close }
            default:
                guard partial == nil else { return .protocolError("a new message began before the last one ended") }
                if !frame.fin {
                    partial = (frame.opcode, frame.payload)
                } else if let close = await deliver(frame.opcode, frame.payload, peer: peer, handler: handler) {
                    return close
                }
            }
        }
    }

    private static func deliver(_ opcode: UInt8, _ payload: [UInt8], peer: WebSocketPeer,
                                handler: any WebSocketHandler) async -> WebSocketFrame.Close? {
        if opcode == WebSocketFrame.binary {
            await handler.received(.binary(payload), from: peer)
            return nil
        }
        guard let text = String(validating: payload, as: UTF8.self) else {
            return .init(code: 1007, reason: "a text message that is not UTF-8")
        }
        await handler.received(.text(text), from: peer)
        return nil
    }

    /// Cancels the connection's task, even when asked before the task is known.
    private final class CancelHandle: @unchecked Sendable {
        private let lock = NSLock()
        private var task: Task<Void, Never>?
        private var requested = false

        func set(_ task: Task<Void, Never>) {
            lock.withLock {
                self.task = task
                if requested { task.cancel() }
            }
        }

        func cancel() {
            lock.withLock {
                requested = true
                task?.cancel()
            }
        }
    }
}
