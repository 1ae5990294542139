import Foundation
import Rulebench
import RulebenchMatch
import RulebenchServer

/// One match being served: its `Match` (which is not thread-safe, so this
/// actor is its one owner and hands it one request at a time), the seats'
/// credentials, and the connections playing or watching it.
///
/// Invariant: every connection receives each step once, in version order:
/// a step is acknowledged to its sender and sent to every other connection
/// inside the same actor turn that performed it, and a connection's `sync`
/// is answered inside one turn too, so no step falls between a sync and the
/// broadcasts after it.
actor MatchRoom {
    let id: MatchID
    private let match: Match
    /// Each seat's credential, once joined (a random secret, compared in constant time).
    private var credentials: [String: String]
    /// The open connections: the seat each plays (nil: a spectator).
    private var connections: [Int: (peer: WebSocketPeer, seat: String?)] = [:]
    /// The seats that consented to a takeback, and the version they consented at.
    private var consents: (version: Int, seats: Set<String>) = (0, [])
    /// The most steps one `sync` sends; a client further behind asks again.
    static let syncBatch = 500

    init(match handed: Handover, credentials: [String: String]) {
        let match = handed.match
        self.id = match.id
        self.match = match
        self.credentials = credentials
    }

    /// A match handed to its room: made (or resumed) and then touched only by
    /// the room, so passing it across the one actor boundary is safe though
    /// `Match` is not Sendable.
    struct Handover: @unchecked Sendable {
        let match: Match
    }

    /// The match as the lobby lists it: no secret (no credential, no seed, no hash, no state).
    func listing() -> JSONValue {
        .object([("id", .int(id.value)), ("pack", .string(match.setup.pack)), ("packName", .string(match.setup.packName)),
                 ("version", .int(Int64(match.version))),
                 ("takebacks", .string(match.setup.takebacks.rawValue)),
                 ("seats", .array(match.setup.seats.map { seat in
                     .object([("seat", .string(seat)), ("taken", .bool(credentials[seat] != nil)),
                              ("connected", .bool(connections.values.contains { $0.seat == seat }))])
                 }))])
    }

    // MARK: What the page draws

    /// The board as `seat` sees it now (nil: a spectator, who sees the public
    /// scene: every slot the pack's `secrets` marks is hidden from it), with
    /// the version it shows: `{"version", "seat", "scene"}`, the scene null when
    /// the pack declares no view. Drawn by the engine's redaction (`Game.scene(as:)`),
    /// never from the full state; a seat's scene only with that seat's credential.
    func scene(for seat: String?) -> Result<JSONValue, LobbyRefusal> {
        let drawn: Scene?
        do {
            drawn = try seat.map { seat throws(RulebenchError) in try match.game.scene(as: seat) } ?? match.game.publicScene()
        } catch {
            FileHandle.standardError.write(Data("rulebench serve: match \(id.value): the scene failed: \(error)\n".utf8))
            return .failure(LobbyRefusal(500, "the pack's view failed (the detail is in the server's log)"))
        }
        let json = drawn.flatMap { try? JSONValue.parse($0.json()) } ?? .null
        return .success(.object([("version", .int(Int64(match.version))), ("seat", seat.map { .string($0) } ?? .null),
                                 ("scene", json)]))
    }

    /// A file of the match's pack that its view names (an image), or nil.
    func packFile(_ path: String) -> URL? {
        match.game.packFile(path)
    }

    // MARK: Seats

    /// Hands `seat` a new credential, or nil (with why) when the seat is not the match's or is taken.
    func join(_ seat: String, save: @Sendable ([String: String]) throws -> Void) -> Result<String, LobbyRefusal> {
        guard match.setup.seats.contains(seat) else {
            return .failure(LobbyRefusal(404, "no seat \(seat.prefix(40)) in match \(id.value) (seats: \(match.setup.seats.joined(separator: ", ")))"))
        }
        guard credentials[seat] == nil else { return .failure(LobbyRefusal(409, "seat \(seat) of match \(id.value) is taken")) }
        let credential = LocalGuard.newToken()
        var next = credentials
        next[seat] = credential
        do { try save(next) } catch {
            return .failure(LobbyRefusal(503, "the seat could not be stored (\(error)); nothing was done: try again"))
        }
        credentials = next
        return .success(credential)
    }

    /// Whether `credential` is `seat`'s (compared in time that depends on the lengths only).
    func admits(_ seat: String, credential: String) -> Bool {
        guard let kept = credentials[seat] else { return false }
        let a = Array(kept.utf8), b = Array(credential.utf8)
        return a.count == b.count && zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    // MARK: Connections

    func opened(_ peer: WebSocketPeer, seat: String?) {
        connections[peer.id] = (peer, seat)
        peer.send(MatchWire.text("welcome", [
            ("match", .int(id.value)), ("seat", seat.map { .string($0) } ?? .null), ("version", .int(Int64(match.version))),
            ("pack", .string(match.setup.pack)), ("seats", .array(match.setup.seats.map { .string($0) })),
        ]))
    }

    func closed(_ peer: WebSocketPeer) {
        connections.removeValue(forKey: peer.id)
    }

    /// Closes every connection (the server is stopping).
    func closeAll() {
        for connection in connections.values { connection.peer.close() }
        connections = [:]
    }

    /// Answers one message of a connection.
    func received(_ message: MatchWire.Incoming, from peer: WebSocketPeer) {
        guard let connection = connections[peer.id] else {
            peer.send(MatchWire.error("this socket was not admitted to the match"))
            return
        }
        guard let seat = connection.seat else {
            if case .sync(let since) = message { sync(peer, since: since, seat: nil) } else {
                peer.send(MatchWire.error("a spectator only watches: it may send sync, not calls"))
            }
            return
        }
        switch message {
        case .sync(let since): sync(peer, since: since, seat: seat)
        case .call(let callID, let version, let call):
            answer(MatchRequest(seat: seat, clientCallID: callID, expectedVersion: version, action: .perform(call)), peer)
        case .takeBack(let callID, let version):
            let consent = consents.version == match.version ? consents.seats : []
            answer(MatchRequest(seat: seat, clientCallID: callID, expectedVersion: version, action: .takeBack(consent: consent)), peer)
        case .consent(let version):
            guard version == match.version else {
                peer.send(MatchWire.text("stale", [("current", .int(Int64(match.version)))]))
                return
            }
            if consents.version != version { consents = (version, []) }
            consents.seats.insert(seat)
            broadcast(MatchWire.text("consent", [("seat", .string(seat)), ("version", .int(Int64(version)))]), except: nil)
        }
    }

    /// The steps after `since` (at most `syncBatch`), then `synced` with the version they reach.
    private func sync(_ peer: WebSocketPeer, since: Int, seat: String?) {
        guard since <= match.version else {
            peer.send(MatchWire.error("version \(since) is ahead of the match (at \(match.version)): sync from 0"))
            return
        }
        let last = min(match.version, since + Self.syncBatch)
        for record in match.records[since..<last] where !peer.send(MatchWire.text("step", [("step", MatchWire.step(record))])) { return }
        peer.send(MatchWire.text("synced", [("version", .int(Int64(last))), ("current", .int(Int64(match.version))),
                                            ("legal", legal(for: seat))]))
    }

    private func answer(_ request: MatchRequest, _ peer: WebSocketPeer) {
        let id: (String, JSONValue) = ("id", .string(request.clientCallID.text))
        switch match.handle(request) {
        case .accepted(let record, _):
            peer.send(MatchWire.text("accepted", [id, ("again", .bool(false)), ("step", MatchWire.step(record)),
                                                  ("legal", legal(for: request.seat))]))
            broadcastStep(record, except: peer.id)
        case .answeredAgain(let record, let current):
            peer.send(MatchWire.text("accepted", [id, ("again", .bool(true)), ("step", MatchWire.step(record)),
                                                  ("current", .int(Int64(current)))]))
        case .stale(let current):
            peer.send(MatchWire.text("stale", [id, ("current", .int(Int64(current)))]))
        case .refused(let refusal):
            peer.send(MatchWire.text("refused", [id, ("kind", .string(refusal.kind.rawValue)),
                                                 ("reason", .string(Self.reason(refusal, match: self.id))),
                                                 ("current", .int(Int64(refusal.current)))]))
        }
    }

    /// What a seat is told about a refusal. A Lua error's message is the pack
    /// author's text and may name a hidden value: the seat hears that the
    /// pack failed, and the detail goes to the server's standard error.
    private static func reason(_ refusal: MatchRefusal, match: MatchID) -> String {
        guard refusal.kind == .scriptError else { return refusal.reason }
        FileHandle.standardError.write(Data("rulebench serve: match \(match.value): \(refusal.reason)\n".utf8))
        return "the pack's rules failed on this call (the detail is in the server's log)"
    }

    private func broadcastStep(_ record: MatchRecord, except sender: Int) {
        var legalBySeat: [String: JSONValue] = [:]
        for (key, connection) in connections where key != sender {
            let seatKey = connection.seat ?? ""
            let calls = legalBySeat[seatKey] ?? legal(for: connection.seat)
            legalBySeat[seatKey] = calls
            let text = MatchWire.text("step", [("step", MatchWire.step(record)), ("legal", calls)])
            if !connection.peer.send(text) { connections.removeValue(forKey: key) }
        }
    }

    private func broadcast(_ text: String, except sender: Int?) {
        for (key, connection) in connections where key != sender {
            if !connection.peer.send(text) { connections.removeValue(forKey: key) }
        }
    }

    /// The calls `seat` may make now, as `ParamSeats` decides (the seam: with the
    /// engine's seats, the seat's own legal calls and view). A spectator: none.
    private func legal(for seat: String?) -> JSONValue {
        guard let seat, let calls = try? match.game.legalActions() else { return .array([]) }
        return .array(calls.filter { $0.params["player"] == .string(seat) }.map(MatchWire.call))
    }
}
