import Foundation
import Rulebench
import RulebenchMatch
import RulebenchServer

/// One match being served: its `Match` (which is not thread-safe, so this
/// actor is its one owner and hands it one request at a time), the seats'
/// credentials and bots, the connections playing or watching it, and the
/// last steps as each audience saw them (to bring a client that missed a
/// few back in step).
///
/// Invariants: every connection receives each step once, in version order,
/// as its own audience sees it (its seat's view, or the spectators' public
/// view): a step is acknowledged to its sender and sent to every other
/// connection inside the actor turn that performed it, and a `sync` is
/// answered inside one turn too. Nothing sent holds the full state's hash
/// or a view other than the connection's own.
actor MatchRoom {
    let id: MatchID
    private let match: Match
    /// Each seat's credential, once joined (a random secret, compared in constant time).
    private var credentials: [String: String]
    /// The seats the server plays, and how.
    private let bots: [String: MatchBot]
    /// The open connections and the audience each is (a seat, or a spectator).
    private var connections: [Int: (peer: WebSocketPeer, audience: Audience)] = [:]
    /// The seats that consented to a takeback, and the version they consented at.
    private var consents: (version: Int, seats: Set<String>) = (0, [])
    /// Where the room runs: off the cooperative pool, as it waits for the store's commit.
    private nonisolated let executor: RoomExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    /// The last steps, as each audience saw them (the spectators' only while
    /// one watched), in version order; the last is the match's version.
    private var window: [(record: MatchRecord, views: [Audience: StepView])] = []
    /// The most steps kept in `window`: a client further behind gets its whole view.
    static let windowSteps = 64
    /// Whether a bot's turn is already scheduled, and how many steps in a row the last bot made.
    private var botScheduled = false
    private var botRun: (seat: String, steps: Int) = ("", 0)

    init(match handed: Handover, credentials: [String: String], bots: [String: MatchBot]) {
        let match = handed.match
        self.id = match.id
        self.match = match
        self.executor = RoomExecutor()
        self.credentials = credentials
        self.bots = bots
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
                     var members: [(String, JSONValue)] = [
                         ("seat", .string(seat)), ("taken", .bool(credentials[seat] != nil || bots[seat] != nil)),
                         ("connected", .bool(connections.values.contains { $0.audience == .seat(seat) })),
                     ]
                     if let bot = bots[seat] { members.append(("bot", .string(bot.rawValue))) }
                     return .object(members)
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

    /// Hands `seat` a new credential, or nil (with why) when the seat is not the match's, is taken, or is a bot's.
    func join(_ seat: String, save: @Sendable ([String: String]) throws -> Void) -> Result<String, LobbyRefusal> {
        guard match.setup.seats.contains(seat) else {
            return .failure(LobbyRefusal(404, "no seat \(seat.prefix(40)) in match \(id.value) (seats: \(match.setup.seats.joined(separator: ", ")))"))
        }
        guard bots[seat] == nil else { return .failure(LobbyRefusal(409, "seat \(seat) of match \(id.value) is played by a bot")) }
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

    /// Whether `credential` is `seat`'s (compared in time that depends on the lengths only). A bot's seat admits nobody.
    func admits(_ seat: String, credential: String) -> Bool {
        guard bots[seat] == nil, let kept = credentials[seat] else { return false }
        let a = Array(kept.utf8), b = Array(credential.utf8)
        return a.count == b.count && zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    // MARK: Connections

    func opened(_ peer: WebSocketPeer, seat: String?) {
        connections[peer.id] = (peer, Audience(seat))
        peer.send(MatchWire.text("welcome", [
            ("match", .int(id.value)), ("seat", seat.map { .string($0) } ?? .null), ("version", .int(Int64(match.version))),
            ("pack", .string(match.setup.pack)), ("seats", .array(match.setup.seats.map { .string($0) })),
            ("takebacks", .string(match.setup.takebacks.rawValue)),
            ("bots", .object(bots.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value.rawValue)) })),
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
        if case .sync(let since, let viewHash) = message {
            sync(peer, connection.audience, since: since, viewHash: viewHash)
            return
        }
        guard let seat = connection.audience.seat else {
            peer.send(MatchWire.error("a spectator only watches: it may send sync, not calls"))
            return
        }
        switch message {
        case .sync: return
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

    // MARK: Bringing a connection in step

    /// Brings a connection in step from version `since`: the steps it
    /// missed, each as its audience saw it, when they are all in the window
    /// and the view hash it holds (when it says) is its view's at `since`;
    /// otherwise its whole view. Then `synced`, with its view hash now.
    private func sync(_ peer: WebSocketPeer, _ audience: Audience, since: Int, viewHash: String?) {
        let current = match.version
        let missed = since <= current ? steps(after: since, for: audience) : nil
        let held = since == current ? currentHash(audience) : window.first { $0.record.version == since }?.views[audience]?.viewHash
        let inStep = missed != nil && (viewHash == nil || viewHash == held)
        let legal = legal(for: audience)
        if inStep, let missed {
            for entry in missed {
                guard peer.send(MatchWire.text("step", [("step", StepWire.json(entry.record, entry.views[audience]))])) else { return }
            }
        } else {
            guard let view = try? match.view(as: audience) else {
                peer.send(MatchWire.error("the server could not read your view of the match; try again"))
                return
            }
            guard peer.send(MatchWire.text("view", [("version", .int(Int64(current))), ("state", JSONValue(view.state)),
                                                     ("viewHash", .string(view.hash)), ("legal", legal)])) else { return }
        }
        peer.send(MatchWire.text("synced", [("version", .int(Int64(current))), ("current", .int(Int64(current))),
                                            ("viewHash", currentHash(audience).map { .string($0) } ?? .null), ("legal", legal)]))
    }

    /// The steps after `since` as `audience` saw them, or nil when the window does not hold them all.
    private func steps(after since: Int, for audience: Audience) -> [(record: MatchRecord, views: [Audience: StepView])]? {
        let wanted = match.version - since
        if wanted == 0 { return [] }
        let missed = window.suffix(wanted)
        guard missed.count == wanted, missed.first?.record.version == since + 1,
              missed.allSatisfy({ $0.views[audience] != nil }) else { return nil }
        return Array(missed)
    }

    /// The audience's view hash now: from the last step's views, else read from the game.
    private func currentHash(_ audience: Audience) -> String? {
        if let last = window.last, last.record.version == match.version, let view = last.views[audience] { return view.viewHash }
        return try? match.viewHash(as: audience)
    }

    // MARK: Requests

    /// Hands a request to the match and answers its sender (`peer`; nil for a bot's).
    @discardableResult
    private func answer(_ request: MatchRequest, _ peer: WebSocketPeer?) -> MatchReply {
        let id: (String, JSONValue) = ("id", .string(request.clientCallID.text))
        let reply = match.handle(request)
        if case .accepted(let record, let detail) = reply {
            accepted(record, detail, request: request, sender: peer)
            return reply
        }
        guard let peer else { return reply }
        switch reply {
        case .accepted: break
        case .answeredAgain(let record, let current):
            peer.send(MatchWire.text("accepted", [id, ("again", .bool(true)), ("step", StepWire.json(record, nil)),
                                                  ("current", .int(Int64(current)))]))
        case .stale(let current):
            peer.send(MatchWire.text("stale", [id, ("current", .int(Int64(current)))]))
        case .refused(let refusal):
            peer.send(MatchWire.text("refused", [id, ("kind", .string(refusal.kind.rawValue)),
                                                 ("reason", .string(Self.reason(refusal, match: self.id))),
                                                 ("current", .int(Int64(refusal.current)))]))
        }
        return reply
    }

    /// A step is durable: each connection is sent its own view of it (the
    /// sender as `accepted`, the others as `step`), the window keeps it, and the bots may act.
    private func accepted(_ record: MatchRecord, _ detail: MatchReply.Detail, request: MatchRequest, sender: WebSocketPeer?) {
        let watched = connections.values.contains { $0.audience == .spectators }
        let views: [Audience: StepView]
        do {
            views = try match.views(of: detail, spectators: watched)
        } catch {
            // The step is in the log; a connection that cannot be sent its view of it is closed, to sync again.
            FileHandle.standardError.write(Data("rulebench serve: match \(id.value): the views of step \(record.version): \(error)\n".utf8))
            window = []
            closeAll()
            return
        }
        window.append((record, views))
        if record.seat != botRun.seat || isCheckpoint(record) { botRun = (record.seat, 0) }
        if window.count > Self.windowSteps { window.removeFirst(window.count - Self.windowSteps) }
        // Every seat's calls from one enumeration, each seat's written once
        // for all its connections; the step's parts written once for every
        // audience that sees them alike (StepWire).
        let calls: [String: [ActionCall]] = connections.isEmpty ? [:] : (try? match.legalCallsBySeat()) ?? [:]
        var legalBy: [Audience: String] = [:], stepBy: [Audience: String] = [:]
        var wire = StepWire(record)
        var callID = ""
        JSONValue.compact(string: request.clientCallID.text, into: &callID)
        for (key, connection) in connections {
            let audience = connection.audience
            let legal = legalBy[audience] ?? StepWire.text(audience.seat.flatMap { calls[$0] } ?? [])
            legalBy[audience] = legal
            let step = stepBy[audience] ?? wire.text(views[audience])
            stepBy[audience] = step
            let text: String
            if let sender, key == sender.id {
                text = MatchWire.text("accepted", written: [("id", callID), ("again", "false"), ("step", step), ("legal", legal)])
            } else {
                text = MatchWire.text("step", written: [("step", step), ("legal", legal)])
            }
            if !connection.peer.send(text) { connections.removeValue(forKey: key) }
        }
        scheduleBots()
    }

    /// What a seat is told about a refusal. A Lua error's message is the pack
    /// author's text and may name a hidden value: the seat hears that the
    /// pack failed, and the detail goes to the server's standard error.
    private static func reason(_ refusal: MatchRefusal, match: MatchID) -> String {
        guard refusal.kind == .scriptError else { return refusal.reason }
        FileHandle.standardError.write(Data("rulebench serve: match \(match.value): \(refusal.reason)\n".utf8))
        return "the pack's rules failed on this call (the detail is in the server's log)"
    }

    private func broadcast(_ text: String, except sender: Int?) {
        for (key, connection) in connections where key != sender {
            if !connection.peer.send(text) { connections.removeValue(forKey: key) }
        }
    }

    /// The calls the audience may make now: a seat's own legal calls; a spectator, none.
    private func legal(for audience: Audience) -> JSONValue {
        guard let seat = audience.seat, let calls = try? match.legalCalls(as: seat) else { return .array([]) }
        return .array(calls.map(StepWire.json))
    }

    // MARK: Bots

    /// Whether the step is a call that ends a turn (a checkpoint): a bot's run starts again after it.
    private func isCheckpoint(_ record: MatchRecord) -> Bool {
        guard case .call(let call) = record.step else { return false }
        return match.game.pack.actions[call.name]?.isCheckpoint ?? false
    }

    /// Lets the bots act (after a step, and when the room opens): one bot
    /// step per actor turn, so connections' messages are answered between them.
    func scheduleBots() {
        guard !bots.isEmpty, !botScheduled else { return }
        botScheduled = true
        Task { await self.botTurn() }
    }

    /// One step of the first bot (in seat order) that acts now, through
    /// `Match.handle` as any seat's request; the next is scheduled by its step.
    private func botTurn() {
        botScheduled = false
        for seat in match.setup.seats {
            guard let bot = bots[seat] else { continue }
            let run = botRun.seat == seat ? botRun.steps : 0
            let request: MatchRequest?
            do { request = try bot.request(in: match, seat: seat, run: run) } catch {
                FileHandle.standardError.write(Data("rulebench serve: match \(id.value): bot \(seat): \(error)\n".utf8))
                continue
            }
            guard let request else { continue }
            botRun = (seat, run + 1)
            if case .refused(let refusal) = answer(request, nil) {
                // A bot's pick is a function of the state: refused once, it would be refused again. It waits for the next step.
                FileHandle.standardError.write(Data("rulebench serve: match \(id.value): bot \(seat): \(refusal)\n".utf8))
            }
            return
        }
    }
}
