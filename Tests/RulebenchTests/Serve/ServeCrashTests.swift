import Foundation
import XCTest
import Rulebench
@testable import RulebenchMatch

/// Nothing acknowledged is lost, nothing is performed twice, with the
/// server itself killed: `rulebench serve` plays three desert matches (one
/// with a bot's seat) for clients the test drives over loopback sockets, and
/// is killed with SIGKILL at seeded random moments 50 times (right after a
/// request was sent, while its step may be half done; and now and then
/// while it resumes its matches), then started again on the same folder.
/// Every client resends the request it had no answer to, with its id.
///
/// Bounded: 50 kills in at most 70 starts, each of at most 7 requests
/// before its kill; every wait is a socket's receive timeout. No timing is
/// asserted: a kill lands wherever the server is when the test gets to it.
final class ServeCrashTests: XCTestCase {
    /// A step some connection was told about: who made it, with which client call id.
    private struct Told: Hashable {
        let seat: String
        let id: String
    }

    /// One human seat's client: its socket (while the server runs), the
    /// version it saw, its calls, and the request it had no answer to.
    private final class Seat {
        let match: Int64
        let seat: String
        let credential: String
        var socket: MatchSocketClient?
        var version = 0
        var legal: [JSONValue] = []
        var pending: String?
        init(match: Int64, seat: String, credential: String) {
            self.match = match
            self.seat = seat
            self.credential = credential
        }
    }

    private var told: [Int64: [Int: Told]] = [:]
    private var answeredAgain = 0

    /// Records a step a connection was told about; a version told twice must be the same step.
    private func note(_ step: JSONValue?, match: Int64) {
        guard case .int(let version)? = step?["version"], case .string(let seat)? = step?["seat"], case .string(let id)? = step?["id"] else {
            return
        }
        let told = Told(seat: seat, id: id)
        if let before = self.told[match]?[Int(version)] {
            XCTAssertEqual(before, told, "match \(match) version \(version) was told as two different steps")
        }
        self.told[match, default: [:]][Int(version)] = told
    }

    /// Reads messages until one answers: `synced` for a sync, the answer with the request's id for a request.
    private func read(_ client: Seat, until answered: (JSONValue) -> Bool) throws -> JSONValue {
        guard let socket = client.socket else { throw CancellationError() }
        while true {
            let message = try socket.next()
            note(message["step"], match: client.match)
            if message["type"] == .string("view"), case .int(let version)? = message["version"] { client.version = Int(version) }
            if case .int(let version)? = message["step"]?["version"] { client.version = max(client.version, Int(version)) }
            if case .array(let calls)? = message["legal"] { client.legal = calls }
            if answered(message) { return message }
        }
    }

    /// Sends `text` (a request with `id`) and reads until its answer; nil when the server was killed meanwhile.
    private func request(_ client: Seat, _ text: String, id: String) throws -> JSONValue {
        client.pending = text
        client.socket?.sendAll([text])
        let answer = try read(client) { $0["id"] == .string(id) && $0["type"] != .string("error") }
        client.pending = nil
        if answer["again"] == .bool(true) { answeredAgain += 1 }
        if case .int(let current)? = answer["current"] { client.version = max(client.version, Int(current)) }
        return answer
    }

    /// The next request of a seat whose turn it is: one of its actions (not a
    /// free one), or now and then (and when it has none) the end of its turn.
    private func nextCall(_ client: Seat, random: inout FuzzRandom) -> JSONValue? {
        guard let end = client.legal.first(where: { $0["name"] == .string("end_turn") }) else { return nil }
        let free: Set<JSONValue> = [.string("end_turn"), .string("give_water"), .string("pass_equipment")]
        let actions = client.legal.filter { !free.contains($0["name"] ?? .null) }
        if actions.isEmpty || random.below(4) == 0 { return end }
        return actions[random.below(actions.count)]
    }

    private func connect(_ clients: [Seat], port: UInt16, token: String) throws {
        for client in clients {
            client.socket = try MatchSocketClient(port: port, token: token, match: client.match, seat: client.seat, credential: client.credential)
            _ = try read(client) { $0["type"] == .string("welcome") }
            // The request it had no answer to, sent again as it was: answered from the log, or performed now, or stale.
            if let pending = client.pending, case .string(let id)? = try JSONValue.parse(pending)["id"] {
                _ = try request(client, pending, id: id)
            }
        }
    }

    /// Creates a desert match (`bots`: its bot seats) and joins its other seats.
    private func newMatch(seed: Int, bots: String, port: UInt16, token: String) throws -> [Seat] {
        let humans = bots.isEmpty ? ["p1", "p2"] : ["p1"]
        let body = #"{"pack": "desert", "options": {"players": 2}, "seed": \#(seed)"# + (bots.isEmpty ? "" : #", "bots": \#(bots)"#) + "}"
        let (match, credentials) = try createMatch(body, joining: humans, port: port, token: token)
        return humans.map { Seat(match: match, seat: $0, credential: credentials[$0]!) }
    }

    func testTheServerKilledAtRandomMomentsLosesNoAcknowledgedCallAndPerformsNoneTwice() throws {
        let data = try scratchFolder("serve-crash")
        var random = FuzzRandom(seed: 43)
        var (server, address, port) = try startServer(data: data)
        var clients: [Seat] = []
        for (index, bots) in ["", #"{"p2": "random"}"#, ""].enumerated() {
            clients += try newMatch(seed: 100 + index, bots: bots, port: port, token: token(address))
        }
        var kills = 0, starts = 1, created = 3, sent = 0, resuming = 0
        while kills < 50, starts < 70 {
            let killAfter = random.below(8)
            try connect(clients, port: port, token: token(address))
            for index in 0..<killAfter {
                guard let (client, text) = try nextRequest(clients, random: &random) else { break }
                sent += 1
                if index == killAfter - 1 {
                    // The last before the kill is not waited for: the kill lands while it is performed, written or answered.
                    client.pending = text
                    client.socket?.sendAll([text])
                } else if case .string(let id)? = try JSONValue.parse(text)["id"] {
                    _ = try request(client, text, id: id)
                }
            }
            // A seeded pause of up to 20 ms, so the kill lands before, during
            // and after the last request's commit (at once, it would nearly
            // always land before: the step passes the room's thread and the
            // store's writer thread first).
            usleep(UInt32(random.below(20_000)))
            server.stop()
            kills += 1
            for client in clients { client.socket = nil }
            // A match whose game is over is left; another is made in its place (on the next start).
            let humans = Dictionary(grouping: clients, by: \.match)
            let over = humans.filter { $0.value.count == 2 && $0.value.allSatisfy { $0.legal.isEmpty && $0.pending == nil } }.keys
            starts += 1
            // Now and then the kill lands while the server resumes its matches.
            if kills < 50, random.below(6) == 0 {
                let early = try startRulebench(["serve", "desert", "--port", "0", "--data", data.path])
                usleep(UInt32(random.below(200_000)))
                early.stop()
                starts += 1
                kills += 1
                resuming += 1
            }
            (server, address, port) = try startServer(data: data)
            for match in over.sorted() {
                clients.removeAll { $0.match == match }
                created += 1
                clients += try newMatch(seed: 100 + created, bots: "", port: port, token: token(address))
            }
        }
        XCTAssertEqual(kills, 50)
        try connect(clients, port: port, token: token(address))
        for client in clients {
            // Every client ends in step: a sync answered with the match's version.
            client.socket?.sendAll([#"{"type": "sync", "since": \#(client.version)}"#])
            _ = try read(client) { $0["type"] == .string("synced") }
        }
        XCTAssertEqual(server.terminate(), 0)
        try checkStore(at: data)
        XCTAssertGreaterThan(answeredAgain, 5, "requests resent after a kill were answered from the log")
        print("ServeCrashTests: \(kills) kills (\(resuming) while resuming) in \(starts) starts, \(sent) requests, \(told.values.map(\.count).reduce(0, +)) steps told, "
              + "\(answeredAgain) answered again")
    }

    /// The next request a client makes (a seat whose turn it is, after a sync), or nil when none may act now.
    private func nextRequest(_ clients: [Seat], random: inout FuzzRandom) throws -> (Seat, String)? {
        let first = random.below(clients.count)
        for client in clients[first...] + clients[..<first] {
            client.socket?.sendAll([#"{"type": "sync", "since": \#(client.version)}"#])
            let synced = try read(client) { $0["type"] == .string("synced") }
            if case .int(let current)? = synced["current"] { client.version = Int(current) }
            guard let call = nextCall(client, random: &random) else { continue }
            let id = "m\(client.match)-\(client.seat)-v\(client.version)"
            let text = callMessage(id, version: client.version, call)
            return (client, text)
        }
        return nil
    }

    /// The store, opened again: every match replays with every hash verified,
    /// every step a connection was told about is in its log as told, and no
    /// seat's client call id is in a log twice.
    private func checkStore(at data: URL) throws {
        let store = try SQLiteMatchStore(folder: data)
        let engine = matchEngine()
        let recovery = try MatchRecovery.resumeLive(store: store, engine: engine) { _ in }
        XCTAssertTrue(recovery.refused.isEmpty, "\(recovery.refused)")
        var steps = 0
        for (match, told) in told {
            let log = try store.log(of: try XCTUnwrap(MatchID(match)))
            steps += log.version
            let ids = log.records.map { "\($0.seat) \($0.clientCallID)" }
            XCTAssertEqual(Set(ids).count, ids.count, "match \(match): a client call id performed twice")
            for (version, step) in told {
                guard version <= log.version else { XCTFail("step \(version) of match \(match) was told and is missing"); continue }
                let record = log.records[version - 1]
                XCTAssertEqual(Told(seat: record.seat, id: record.clientCallID.text), step, "match \(match) version \(version)")
            }
            if log.status != .live {
                XCTAssertNoThrow(try Match.replay(log.records, of: log.setup, into: try engine.game(log.setup), seats: engine.seats,
                                                  place: Match.Place(store: store.location, match: log.id)))
            }
        }
        XCTAssertGreaterThan(steps, 100, "the matches were played")
    }
}
