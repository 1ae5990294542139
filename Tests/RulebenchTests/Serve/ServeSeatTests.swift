import Foundation
import XCTest
import Rulebench
@testable import RulebenchMatch

/// `rulebench serve` with the engine's seats, through `rulebench join`: what
/// each seat and spectator is sent (never a secret), reconnection by version
/// and view hash, a finished turn taken back with consent, a bot's seat, and
/// the per-connection rate limit.
final class ServeSeatTests: XCTestCase {
    /// Whether `value` is a list whose every card is face down.
    private func faceDown(_ value: JSONValue?) -> Bool {
        guard case .array(let cards)? = value, !cards.isEmpty else { return false }
        return cards.allSatisfy { $0 == .string(SeatView.hidden) }
    }

    /// The calls of a seat in a message (`legal`), or nil when the message carries none.
    private func calls(_ message: JSONValue) -> [JSONValue]? {
        guard case .array(let calls)? = message["legal"] else { return nil }
        return calls
    }

    /// Plays desert through the clients: the seat whose turn it is (`end_turn`
    /// among its calls) makes up to three calls that are not free ones, then
    /// ends its turn; every other client (and each watcher) receives each step.
    /// Stops after `steps` or when no seat may end a turn (the game is over). The version reached.
    private func playDesert(_ steps: Int, from version: Int, clients: [String: ServeProcess], watchers: [ServeProcess],
                            legal: inout [String: [JSONValue]]) throws -> Int {
        var version = version, inTurn = 0
        let free: Set<JSONValue> = [.string("end_turn"), .string("give_water"), .string("pass_equipment")]
        for _ in 0..<steps {
            guard let seat = clients.keys.sorted().first(where: { legal[$0]?.contains { $0["name"] == .string("end_turn") } ?? false }),
                  let seatCalls = legal[seat] else { break }
            let actions = seatCalls.filter { !free.contains($0["name"] ?? .null) }
            let call: JSONValue
            if inTurn < 3, !actions.isEmpty {
                call = actions[version % actions.count]
                inTurn += 1
            } else {
                call = seatCalls.first { $0["name"] == .string("end_turn") }!
                inTurn = 0
            }
            clients[seat]!.send(callMessage("s-\(version)", version: version, call))
            let accepted = try clients[seat]!.message("accepted")
            XCTAssertEqual(accepted["step"]?["version"], .int(Int64(version + 1)), "\(accepted)")
            legal[seat] = calls(accepted)
            for (other, client) in clients where other != seat {
                let step = try client.message("step")
                XCTAssertEqual(step["step"]?["version"], .int(Int64(version + 1)))
                legal[other] = calls(step)
            }
            for watcher in watchers { XCTAssertEqual(try watcher.message("step")["step"]?["version"], .int(Int64(version + 1))) }
            version += 1
        }
        return version
    }

    /// What no seat may be sent at any version of a desert match: the full
    /// state hash, and the storm and gear decks' order (every run of four
    /// cards as JSON writes them side by side, and each whole deck). The
    /// match's log replayed from its store, every hash checked.
    private func secrets(of match: Int64, in data: URL) throws -> Set<String> {
        let store = try SQLiteMatchStore(folder: data)
        let log = try store.log(of: try XCTUnwrap(MatchID(match)))
        var configuration = Game.Configuration()
        configuration.rulesDirectory = EngineFixtures.repository.appendingPathComponent("rules")
        configuration.printHandler = { _ in }
        let game = try Game(pack: log.setup.pack, options: log.setup.options, seed: log.setup.seed, configuration: configuration)
        var secrets: Set<String> = []
        func note() throws {
            secrets.insert(game.stateHash.hex)
            for deck in ["storm_deck", "gear_deck"] {
                let cards = try XCTUnwrap(game.state(at: StatePath(parsing: deck))?.listItems).map { JSONValue($0).serialized(pretty: false) }
                if cards.count >= 4 {
                    for start in 0...(cards.count - 4) { secrets.insert(cards[start..<(start + 4)].joined(separator: ",")) }
                }
                if cards.count >= 2 { secrets.insert("[" + cards.joined(separator: ",") + "]") }
            }
        }
        try note()
        for record in log.records {
            switch record.step {
            case .call(let call): try game.perform(call, as: record.seat)
            case .takeback: try game.undo()
            }
            XCTAssertEqual(game.stateHash, record.hash, "the log replays: \(record.summary)")
            try note()
        }
        return secrets
    }

    func testNoSeatNorSpectatorIsSentTheDecksOrTheFullHash() throws {
        let data = try scratchFolder("serve-secrets")
        let (server, address, port) = try startServer(data: data)
        let seats = ["p1", "p2", "p3"]
        let (match, credentials) = try createMatch(#"{"pack": "desert", "options": {"players": 3, "roles": ["meteorologist", "explorer", "navigator"]}, "seed": 11}"#,
                                                   joining: seats, port: port, token: token(address))
        var clients: [String: ServeProcess] = [:], legal: [String: [JSONValue]] = [:]
        for seat in seats {
            clients[seat] = try join(address, match: match, seat: seat, credential: credentials[seat]!)
            legal[seat] = calls(try clients[seat]!.message("synced"))
        }
        let watcher = try startRulebench(["join", address, "--match", "\(match)", "--watch"])
        try watcher.message("synced")
        var everyone = Array(clients.values) + [watcher]
        let version = try playDesert(60, from: 0, clients: clients, watchers: [watcher], legal: &legal)
        XCTAssertGreaterThan(version, 20, "enough of the game was played")
        // A seat and a spectator whose hash differs are sent their whole view: searched too.
        let back = try join(address, match: match, seat: "p2", credential: credentials["p2"]!, since: 0, viewHash: "00")
        let whole = try back.message("view")
        XCTAssertEqual(whole["version"], .int(Int64(version)))
        XCTAssertTrue(faceDown(whole["state"]?["storm_deck"]), "the storm deck is face down in p2's view")
        let watchedAgain = try startRulebench(["join", address, "--match", "\(match)", "--watch", "--since", "0", "--view-hash", "00"])
        XCTAssertTrue(faceDown(try watchedAgain.message("view")["state"]?["gear_deck"]), "the gear deck is face down in the public view")
        everyone += [back, watchedAgain]
        for client in everyone { XCTAssertEqual(client.finish(), 0) }
        XCTAssertEqual(server.terminate(), 0)

        let secrets = try secrets(of: match, in: data)
        var searched = 0
        for client in everyone {
            for line in client.allLines() {
                searched += 1
                for secret in secrets where line.contains(secret) {
                    XCTFail("a client was sent a secret (\(secret)) in \(line.prefix(200))")
                }
            }
        }
        XCTAssertGreaterThan(searched, 4 * version, "every message of every client was searched")
    }

    func testAClientThatComesBackWithItsVersionAndViewHashIsBackInStep() throws {
        let data = try scratchFolder("serve-view-hash")
        let (server, address, port) = try startServer(data: data)
        let (match, credentials) = try createMatch(#"{"pack": "desert", "options": {"players": 2}, "seed": 5}"#,
                                                   joining: ["p1", "p2"], port: port, token: token(address))
        var clients: [String: ServeProcess] = [:], legal: [String: [JSONValue]] = [:]
        for seat in ["p1", "p2"] {
            clients[seat] = try join(address, match: match, seat: seat, credential: credentials[seat]!)
            legal[seat] = calls(try clients[seat]!.message("synced"))
        }
        // p1 plays its turn; p2, who waits, drops after the first step, holding its version and view hash.
        var version = try playDesert(1, from: 0, clients: clients, watchers: [], legal: &legal)
        let held = version
        guard case .string(let heldHash)? = try JSONValue.parse(clients["p2"]!.allLines().last { $0.contains("\"viewHash\"") }!)["step"]?["viewHash"] else {
            return XCTFail("p2 holds no view hash")
        }
        XCTAssertEqual(clients["p2"]!.finish(), 0)
        clients["p2"] = nil
        version = try playDesert(2, from: version, clients: clients, watchers: [], legal: &legal)
        XCTAssertEqual(version, held + 2)

        // Back with its version and hash: exactly the steps it missed, then in step (its last hash is the server's).
        let back = try join(address, match: match, seat: "p2", credential: credentials["p2"]!, since: held, viewHash: heldHash)
        var last = heldHash
        for expected in (held + 1)...version {
            let step = try back.message("step")
            XCTAssertEqual(step["step"]?["version"], .int(Int64(expected)))
            guard case .string(let hash)? = step["step"]?["viewHash"] else { return XCTFail("a step without a view hash") }
            last = hash
        }
        let synced = try back.message("synced")
        XCTAssertEqual(synced["version"], .int(Int64(version)))
        XCTAssertEqual(synced["viewHash"], .string(last), "the client's view hash is the server's")
        XCTAssertFalse(back.allLines().contains { $0.contains("\"type\":\"view\"") }, "no whole view when steps will do")

        // Back with a hash that is not its view's at that version: its whole view, whose hash is the server's.
        let wrong = try join(address, match: match, seat: "p2", credential: credentials["p2"]!, since: held, viewHash: "0123")
        let view = try wrong.message("view")
        XCTAssertEqual(view["version"], .int(Int64(version)))
        XCTAssertEqual(view["viewHash"], .string(last))
        XCTAssertEqual(try wrong.message("synced")["viewHash"], .string(last))
        XCTAssertFalse(wrong.allLines().contains { $0.contains("\"type\":\"step\"") }, "no step sent to a client out of step")
        for client in [back, wrong, clients["p1"]!] { XCTAssertEqual(client.finish(), 0) }
        XCTAssertEqual(server.terminate(), 0)
    }

    func testAFinishedTurnIsTakenBackThroughTheServerOnceTheOtherSeatConsents() throws {
        let pack = try tallyPack().path
        let data = try scratchFolder("serve-consent")
        let (server, address, port) = try startServer(data: data, packs: [pack])
        let (match, credentials) = try createMatch(#"{"pack": "\#(pack)", "seed": 1, "takebacks": "finished-turn-with-consent"}"#,
                                                   joining: ["p1", "p2"], port: port, token: token(address))
        let p1 = try join(address, match: match, seat: "p1", credential: credentials["p1"]!)
        let p2 = try join(address, match: match, seat: "p2", credential: credentials["p2"]!)
        for client in [p1, p2] { try client.message("synced") }
        p1.send("pass player=p1")
        XCTAssertEqual(try p1.message("accepted")["step"]?["version"], .int(1))
        XCTAssertEqual(try p2.message("step")["step"]?["call"]?["name"], .string("pass"))
        p1.send("takeback")
        let asked = try p1.message("refused")
        XCTAssertEqual(asked["kind"], .string("needs-consent"))
        XCTAssertEqual(asked["current"], .int(1))
        p2.send("consent")
        XCTAssertEqual(try p1.message("consent")["seat"], .string("p2"), "every connection hears the consent")
        p1.send("takeback")
        let taken = try p1.message("accepted")
        XCTAssertEqual(taken["step"]?["takeback"], .int(1))
        XCTAssertEqual(taken["step"]?["version"], .int(2))
        let seen = try p2.message("step")
        XCTAssertEqual(seen["step"]?["takeback"], .int(1), "the other seat sees the takeback")
        XCTAssertNotNil(seen["step"]?["viewHash"])
        // Nobody takes back for another seat, consent or not.
        p2.send("consent")
        try p2.message("consent")
        p2.send("takeback")
        XCTAssertEqual(try p2.message("refused")["kind"], .string("nothing-to-take-back"))
        XCTAssertEqual(p1.finish(), 0)
        XCTAssertEqual(p2.finish(), 0)
        XCTAssertEqual(server.terminate(), 0)
    }

    func testABotSeatPlaysItsTurnsThroughTheLog() throws {
        let data = try scratchFolder("serve-bot")
        let (server, address, port) = try startServer(data: data)
        // A bot for a seat the pack does not have is refused, naming it and the pack's seats; no match is made.
        let stray = try http("POST", "/api/matches", port: port, token: token(address),
                             body: #"{"pack": "desert", "options": {"players": 2}, "seed": 7, "bots": {"p2": "random", "p3": "greedy"}}"#)
        XCTAssertEqual(stray.status, 400, stray.body)
        XCTAssertTrue(stray.body.contains("seat p3") && stray.body.contains("p1, p2"), stray.body)
        let listed = try http("GET", "/api/matches", port: port, token: token(address))
        XCTAssertEqual(try JSONValue.parse(listed.body)["matches"], .array([]), listed.body)
        let (match, credentials) = try createMatch(#"{"pack": "desert", "options": {"players": 2}, "seed": 7, "bots": {"p2": "random"}}"#,
                                                   joining: ["p1"], port: port, token: token(address))
        XCTAssertEqual(try http("POST", "/api/matches/\(match)/join", port: port, token: token(address), body: #"{"seat": "p2"}"#).status,
                       409, "a bot's seat is not joined")
        let p1 = try join(address, match: match, seat: "p1", credential: credentials["p1"]!)
        var legal = calls(try p1.message("synced")) ?? []
        // p1 ends its turn; the bot plays p2's turn to its end; p1 sees every step, made by p2 as bot-v<version>.
        var version = 0
        for _ in 0..<2 {
            guard let end = legal.first(where: { $0["name"] == .string("end_turn") }) else { return XCTFail("p1 cannot end its turn: \(legal)") }
            p1.send(callMessage("end-\(version)", version: version, end))
            let accepted = try p1.message("accepted")
            guard case .int(let reached)? = accepted["step"]?["version"] else { return XCTFail("\(accepted)") }
            version = Int(reached)
            var botSteps = 0
            while true {
                let step = try p1.message("step")
                XCTAssertEqual(step["step"]?["seat"], .string("p2"))
                XCTAssertEqual(step["step"]?["id"], .string("bot-v\(version)"))
                version += 1
                botSteps += 1
                legal = calls(step) ?? []
                if step["step"]?["call"]?["name"] == .string("end_turn") || legal.contains(where: { $0["name"] == .string("end_turn") }) { break }
            }
            XCTAssertGreaterThan(botSteps, 0)
            if !legal.contains(where: { $0["name"] == .string("end_turn") }) { break }
        }
        XCTAssertEqual(p1.finish(), 0)
        XCTAssertEqual(server.terminate(), 0)
        let log = try SQLiteMatchStore(folder: data).log(of: try XCTUnwrap(MatchID(match)))
        XCTAssertEqual(log.version, version, "every bot step is in the log")
        XCTAssertTrue(log.records.contains { $0.seat == "p2" && $0.clientCallID.text.hasPrefix("bot-v") })
    }

    func testABurstOverTheRateLimitIsAnsweredWithErrorsAndTheConnectionGoesOn() throws {
        let data = try scratchFolder("serve-rate")
        let (server, address, port) = try startServer(data: data)
        let (match, credentials) = try createMatch(#"{"pack": "desert", "options": {"players": 2}, "seed": 5}"#,
                                                   joining: ["p1"], port: port, token: token(address))
        let client = try MatchSocketClient(port: port, token: token(address), match: match, seat: "p1", credential: credentials["p1"]!)
        XCTAssertEqual(try client.next()["type"], .string("welcome"))
        // 200 messages in one write: far past the burst of 100 and what 50 a second refills meanwhile.
        client.sendAll((0..<200).map { _ in #"{"type": "sync", "since": 0}"# })
        var synced = 0, limited = 0
        while synced + limited < 200 {
            let message = try client.next()
            switch message["type"] {
            case .string("synced")?: synced += 1
            case .string("error")?:
                XCTAssertTrue("\(message)".contains("messages a second"), "\(message)")
                limited += 1
            default: continue
            }
        }
        XCTAssertGreaterThanOrEqual(synced, 100, "the burst is read")
        XCTAssertGreaterThan(limited, 0, "messages past the limit get an error")
        // Later the connection goes on (the bucket refills at 50 a second; the read waits for it, the test asserts no time).
        var answered = false
        for _ in 0..<100 where !answered {
            client.sendAll([#"{"type": "sync", "since": 0}"#])
            while true {
                let message = try client.next()
                if message["type"] == .string("synced") { answered = true; break }
                if message["type"] == .string("error") { usleep(50_000); break }
            }
        }
        XCTAssertTrue(answered, "the connection goes on after the burst")
        XCTAssertEqual(server.terminate(), 0)
    }
}
