import Foundation
import Rulebench
import RulebenchMatch

/// The server's matches: creating one, listing them, joining a seat, and
/// finding the room a socket plays in. The lobby's HTTP API
/// (`ServeRoutes`) and the resumed matches meet here; each match is then
/// played in its own `MatchRoom`.
actor Lobby {
    private let store: any MatchStore
    private let engine: MatchEngine
    private let credentials: SeatCredentials
    /// The packs matches may be created of; empty: any the engine finds.
    private let packs: [String]
    /// The bots of a new match whose request names none (`--bot SEAT=KIND`).
    private let defaultBots: [String: MatchBot]
    private var rooms: [MatchID: MatchRoom] = [:]

    /// The most matches served at once: one more is refused (503).
    static let maximumMatches = 1000

    /// What opening the store found: the matches resumed and those refused.
    nonisolated let recovery: MatchRecovery
    /// Each match resumed, with the version it was resumed at, in id order.
    nonisolated let resumedVersions: [(match: MatchID, version: Int)]

    /// A lobby serving every live match of `store`, each resumed by verified replay
    /// (`MatchRecovery`); a log that no longer replays is in `recovery.refused`, not served.
    init(store: any MatchStore, engine: MatchEngine, credentials: SeatCredentials, packs: [String],
         bots: [String: MatchBot] = [:]) throws(MatchStoreError) {
        self.store = store
        self.engine = engine
        self.credentials = credentials
        self.packs = packs
        self.defaultBots = bots
        var rooms: [MatchID: MatchRoom] = [:], versions: [(match: MatchID, version: Int)] = []
        recovery = try MatchRecovery.resumeLive(store: store, engine: engine) { match in
            versions.append((match.id, match.version))
            rooms[match.id] = MatchRoom(match: .init(match: match), credentials: credentials.seats(of: match.id),
                                        bots: credentials.bots(of: match.id))
        }
        self.rooms = rooms
        resumedVersions = versions
    }

    /// Lets the bots of every match act (once the server listens).
    func startBots() async {
        for room in rooms.values { await room.scheduleBots() }
    }

    func room(_ id: MatchID) -> MatchRoom? { rooms[id] }

    func listing() async -> JSONValue {
        var matches: [JSONValue] = []
        for id in rooms.keys.sorted() { matches.append(await rooms[id]!.listing()) }
        return .object([("matches", .array(matches))])
    }

    /// Creates a match from a request's body: `{"pack": ..., "options": {...}, "seed": N, "seats": [...], "takebacks": ...,
    /// "bots": {"p2": "random"}}`.
    func create(_ body: JSONValue) async throws(LobbyRefusal) -> JSONValue {
        guard case .string(let pack)? = body["pack"] else { throw LobbyRefusal(400, "a match names its \"pack\"") }
        guard packs.isEmpty || packs.contains(pack) else {
            throw LobbyRefusal(400, "this server serves \(packs.joined(separator: ", ")), not \(pack.prefix(60))")
        }
        guard rooms.count < Self.maximumMatches else { throw LobbyRefusal(503, "\(Self.maximumMatches) matches are served already") }
        var options: [String: StateValue] = [:]
        if let given = body["options"] {
            guard case .object(let members) = given else { throw LobbyRefusal(400, "\"options\" is an object") }
            for (key, value) in members {
                guard let state = value.stateValue else { throw LobbyRefusal(400, "option \(key.prefix(40)) is not a state value") }
                options[key] = state
            }
        }
        let seed: Int64
        switch body["seed"] {
        case nil: seed = Int64.random(in: 0...Int64(Int32.max))
        case .int(let given)?: seed = given
        default: throw LobbyRefusal(400, "\"seed\" is a whole number (leave it out and the server draws one)")
        }
        let seats = try Self.seats(body["seats"])
        var takebacks = TakebackPolicy.currentTurnOnly
        if let given = body["takebacks"] {
            guard case .string(let text) = given, let policy = TakebackPolicy(rawValue: text) else {
                throw LobbyRefusal(400, "\"takebacks\" is one of \(TakebackPolicy.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            takebacks = policy
        }
        // The server's own bots (--bot) play the seats a match has; a request's must name its seats.
        let asked = try body["bots"].map { given throws(LobbyRefusal) in try Self.bots(given) }
        let match: Match
        do {
            match = try Match.create(pack: pack, options: options, seed: seed, seats: seats, takebacks: takebacks,
                                     store: store, engine: engine, vetting: { packSeats in
                guard let asked, let stray = asked.keys.sorted().first(where: { !packSeats.contains($0) }) else { return nil }
                return "bot of seat \(stray.prefix(40)): pack \(pack.prefix(60)) has no such seat (its seats: \(packSeats.joined(separator: ", ")))"
            })
        } catch {
            if case .store = error { throw LobbyRefusal(503, "\(error)") }
            throw LobbyRefusal(400, "\(error)")
        }
        var bots = defaultBots.filter { match.setup.seats.contains($0.key) }
        if let asked { bots = asked }
        if !bots.isEmpty {
            do { try credentials.saveBots(bots, of: match.id) } catch {
                throw LobbyRefusal(503, "match \(match.id.value) was created, but its bots could not be stored (\(error))")
            }
        }
        let room = MatchRoom(match: .init(match: match), credentials: [:], bots: bots)
        rooms[match.id] = room
        await room.scheduleBots()
        return await room.listing()
    }

    /// The bots a request names: `{"p2": "random", "p3": "greedy"}`.
    private static func bots(_ given: JSONValue) throws(LobbyRefusal) -> [String: MatchBot] {
        guard case .object(let members) = given, members.count <= MatchSetup.maximumSeats else {
            throw LobbyRefusal(400, "\"bots\" is an object of seats and bots, such as {\"p2\": \"random\"}")
        }
        var bots: [String: MatchBot] = [:]
        for (seat, kind) in members {
            guard case .string(let text) = kind, let bot = MatchBot(rawValue: text) else {
                throw LobbyRefusal(400, "bot of seat \(seat.prefix(40)): one of \(MatchBot.forms)")
            }
            bots[seat] = bot
        }
        return bots
    }

    /// The seats a request names (they must be the pack's), or nil: the pack's seats for the options.
    private static func seats(_ given: JSONValue?) throws(LobbyRefusal) -> [String]? {
        var seats: [String]
        switch given {
        case nil: return nil
        case .array(let items)?:
            seats = []
            for item in items.prefix(MatchSetup.maximumSeats + 1) {
                guard case .string(let seat) = item else { throw LobbyRefusal(400, "\"seats\" is a list of names") }
                seats.append(seat)
            }
        default: throw LobbyRefusal(400, "\"seats\" is a list of names")
        }
        if let problem = MatchSetup.problem(seats: seats) { throw LobbyRefusal(400, problem) }
        return seats
    }

    /// Joins a seat: `{"seat": "p1"}` → `{"match": 1, "seat": "p1", "credential": "…"}`.
    func join(_ id: MatchID, _ body: JSONValue) async throws(LobbyRefusal) -> JSONValue {
        guard let room = rooms[id] else { throw LobbyRefusal(404, "no match \(id.value) is served here") }
        guard case .string(let seat)? = body["seat"] else { throw LobbyRefusal(400, "joining names the \"seat\"") }
        let credentials = self.credentials
        switch await room.join(seat, save: { try credentials.save($0, of: id) }) {
        case .success(let credential):
            return .object([("match", .int(id.value)), ("seat", .string(seat)), ("credential", .string(credential))])
        case .failure(let refusal): throw refusal
        }
    }

    /// The board a connection draws: `{"seat": S, "credential": C}` for a seat's
    /// (the credential checked as a socket's is), `{}` for a spectator's public one.
    func scene(_ id: MatchID, _ body: JSONValue) async throws(LobbyRefusal) -> JSONValue {
        guard let room = rooms[id] else { throw LobbyRefusal(404, "no match \(id.value) is served here") }
        var seat: String?
        if let given = body["seat"] {
            guard case .string(let name) = given, case .string(let credential)? = body["credential"],
                  await room.admits(name, credential: credential) else {
                throw LobbyRefusal(403, "wrong credential for that seat (join the seat first: POST /api/matches/\(id.value)/join)")
            }
            seat = name
        }
        switch await room.scene(for: seat) {
        case .success(let scene): return scene
        case .failure(let refusal): throw refusal
        }
    }

    func closeAll() async {
        for room in rooms.values { await room.closeAll() }
    }
}
