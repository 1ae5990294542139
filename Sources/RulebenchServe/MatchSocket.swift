import Foundation
import RulebenchMatch
import RulebenchServer

/// One WebSocket on a match: a seat (its credential checked when it opens)
/// or a spectator. Each text message is read (`MatchWire`) and handed to the
/// match's room; a malformed message, a binary one, or one past the rate
/// limit gets an `error` and the connection goes on. A socket whose match
/// or credential is wrong gets an `error` and is closed (4403 / 4404).
struct MatchSocket: WebSocketHandler {
    let lobby: Lobby
    let match: MatchID
    let seat: String?
    let credential: String?
    let limiter = MessageRate()

    func opened(_ peer: WebSocketPeer) async {
        guard let room = await lobby.room(match) else {
            peer.send(MatchWire.error("no match \(match.value) is served here"))
            peer.close(code: 4404, reason: "no such match")
            return
        }
        if let seat {
            guard let credential, await room.admits(seat, credential: credential) else {
                peer.send(MatchWire.error("wrong credential for seat \(seat.prefix(40)) (join the seat first: POST /api/matches/\(match.value)/join)"))
                peer.close(code: 4403, reason: "wrong credential")
                return
            }
        }
        await room.opened(peer, seat: seat)
    }

    func received(_ message: WebSocketMessage, from peer: WebSocketPeer) async {
        guard limiter.take() else {
            peer.send(MatchWire.error("over \(MessageRate.perSecond) messages a second: this one was not read; slow down"))
            return
        }
        guard case .text(let text) = message else {
            peer.send(MatchWire.error("binary messages are not read; send JSON text"))
            return
        }
        guard let room = await lobby.room(match) else { return }
        do {
            await room.received(try MatchWire.read(text), from: peer)
        } catch {
            peer.send(MatchWire.error(error.message))
        }
    }

    func closed(_ peer: WebSocketPeer) async {
        await lobby.room(match)?.closed(peer)
    }
}
