import Foundation
import XCTest
import Rulebench

/// `rulebench serve` and `rulebench join` driven as a user's scripts drive
/// them: the built programs as subprocesses over loopback, desert matches of
/// two seats, every wait bounded by a count of lines (no timing asserted).
final class ServeTests: XCTestCase {
    /// Creates a desert match of two seats with seed 5 and joins both; the match number and each seat's credential.
    private func createAndJoin(port: UInt16, token: String) throws -> (match: Int64, credentials: [String: String]) {
        let joined = try createMatch(#"{"pack": "desert", "options": {"players": 2}, "seed": 5}"#, joining: ["p1", "p2"],
                                     port: port, token: token)
        let again = try http("POST", "/api/matches/\(joined.match)/join", port: port, token: token, body: #"{"seat": "p1"}"#)
        XCTAssertEqual(again.status, 409, "a taken seat is not handed out twice")
        return joined
    }

    /// Plays `steps` steps: each time the seat with a legal call sends its first one; the other seat's client sees the step.
    /// Returns the version reached and the last call sent (its id, version and call).
    @discardableResult
    private func play(_ steps: Int, from version: Int, clients: [String: ServeProcess], legal: inout [String: JSONValue],
                      idPrefix: String) throws -> (version: Int, last: (seat: String, text: String)?) {
        var version = version, last: (seat: String, text: String)?
        for _ in 0..<steps {
            guard let seat = ["p1", "p2"].first(where: { legal[$0] != nil }), let call = legal[seat] else {
                XCTFail("no seat has a legal call at version \(version)")
                return (version, last)
            }
            let text = callMessage("\(idPrefix)-\(version)", version: version, call)
            clients[seat]!.send(text)
            let accepted = try clients[seat]!.message("accepted")
            XCTAssertEqual(accepted["again"], .bool(false))
            XCTAssertEqual(accepted["step"]?["version"], .int(Int64(version + 1)))
            XCTAssertNil(accepted["step"]?["hash"], "the full state's hash never leaves the server")
            XCTAssertNotNil(accepted["step"]?["viewHash"], "the seat's own view hash")
            legal[seat] = firstLegal(accepted)
            let other = seat == "p1" ? "p2" : "p1"
            if let peer = clients[other] {
                let step = try peer.message("step")
                XCTAssertEqual(step["step"]?["version"], .int(Int64(version + 1)), "the other seat receives the step")
                XCTAssertEqual(step["step"]?["call"], call)
                legal[other] = firstLegal(step)
            }
            version += 1
            last = (seat, text)
        }
        return (version, last)
    }

    func testTwoSeatsPlayAndEveryRefusalChangesNothing() throws {
        let data = try scratchFolder("serve-play")
        let (server, address, port) = try startServer(data: data)
        let token = token(address)
        let (match, credentials) = try createAndJoin(port: port, token: token)
        let p1 = try join(address, match: match, seat: "p1", credential: credentials["p1"]!)
        let p2 = try join(address, match: match, seat: "p2", credential: credentials["p2"]!)
        let watcher = try startRulebench(["join", address, "--match", "\(match)", "--watch"])
        var legal: [String: JSONValue] = [:]
        for (seat, client) in [("p1", p1), ("p2", p2)] { legal[seat] = firstLegal(try client.message("synced")) }
        try watcher.message("synced")
        let (version, last) = try play(6, from: 0, clients: ["p1": p1, "p2": p2], legal: &legal, idPrefix: "c")
        XCTAssertEqual(version, 6)
        for expected in 1...6 {
            XCTAssertEqual(try watcher.message("step")["step"]?["version"], .int(Int64(expected)), "the spectator sees every step")
        }
        let seat = legal["p1"] != nil ? "p1" : "p2", other = seat == "p1" ? "p2" : "p1"
        let call = try XCTUnwrap(legal[seat])

        // A call made against an old version is refused with the current one.
        clients(seat, p1, p2).send(callMessage("stale-1", version: 4, call))
        let stale = try clients(seat, p1, p2).message("stale")
        XCTAssertEqual(stale["current"], .int(6))

        // The last call sent again with its id is answered from the log, not performed again.
        let resent = try XCTUnwrap(last)
        clients(resent.seat, p1, p2).send(resent.text)
        let again = try clients(resent.seat, p1, p2).message("accepted")
        XCTAssertEqual(again["again"], .bool(true))
        XCTAssertEqual(again["step"]?["version"], .int(6))

        // The other seat may not make this seat's call: refused, and nothing changed.
        clients(other, p1, p2).send(callMessage("not-mine", version: 6, call))
        let refused = try clients(other, p1, p2).message("refused")
        XCTAssertEqual(refused["kind"], .string("rejected"))
        XCTAssertEqual(refused["current"], .int(6))

        // A malformed message gets an error, and the connection goes on.
        p1.send(#"{"type": "call", "id": "has space", "version": 6}"#)
        XCTAssertNotNil(try p1.message("error")["message"])
        p1.send(#"{"type": "sync", "since": 6}"#)
        XCTAssertEqual(try p1.message("synced")["version"], .int(6))

        // Still at version 6: the call is accepted as version 7, once.
        clients(seat, p1, p2).send(callMessage("after", version: 6, call))
        XCTAssertEqual(try clients(seat, p1, p2).message("accepted")["step"]?["version"], .int(7))

        // Nobody takes back another seat's call; its own seat takes it back, and every other connection sees it.
        clients(other, p1, p2).send(#"{"type": "takeback", "id": "tb-other", "version": 7}"#)
        XCTAssertEqual(try clients(other, p1, p2).message("refused")["kind"], .string("not-yours"))
        clients(seat, p1, p2).send(#"{"type": "takeback", "id": "tb", "version": 7}"#)
        let takeback = try clients(seat, p1, p2).message("accepted")
        XCTAssertEqual(takeback["step"]?["takeback"], .int(7))
        XCTAssertEqual(try clients(other, p1, p2).message("step")["step"]?["takeback"], .int(7))
        let listing = try http("GET", "/api/matches", port: port, token: token)
        XCTAssertTrue(listing.body.contains("\"version\":8"), listing.body)
        XCTAssertFalse(listing.body.contains(credentials["p1"]!), "the listing holds no credential")

        XCTAssertEqual(p1.finish(), 0)
        XCTAssertEqual(p2.finish(), 0)
        XCTAssertEqual(watcher.finish(), 0)
        XCTAssertEqual(server.terminate(), 0, "SIGTERM ends the server cleanly")
    }

    private func clients(_ seat: String, _ p1: ServeProcess, _ p2: ServeProcess) -> ServeProcess { seat == "p1" ? p1 : p2 }

    func testReconnectionGetsExactlyTheMissedStepsAndARestartResumes() throws {
        let data = try scratchFolder("serve-resume")
        var (server, address, port) = try startServer(data: data)
        let (match, credentials) = try createAndJoin(port: port, token: token(address))
        var p1 = try join(address, match: match, seat: "p1", credential: credentials["p1"]!)
        var p2 = try join(address, match: match, seat: "p2", credential: credentials["p2"]!)
        var legal: [String: JSONValue] = [:]
        for (seat, client) in [("p1", p1), ("p2", p2)] { legal[seat] = firstLegal(try client.message("synced")) }
        var version = try play(3, from: 0, clients: ["p1": p1, "p2": p2], legal: &legal, idPrefix: "a").version

        // The seat not to move drops; the other plays on; the dropped one comes back with the last version
        // it holds and gets exactly what it missed.
        let mover = legal["p1"] != nil ? "p1" : "p2", dropped = mover == "p1" ? "p2" : "p1"
        var clients = ["p1": p1, "p2": p2]
        XCTAssertEqual(clients[dropped]!.finish(), 0)
        let held = version
        legal[dropped] = nil
        clients[dropped] = nil
        while legal[mover] != nil, version < held + 2 {
            version = try play(1, from: version, clients: clients, legal: &legal, idPrefix: "b").version
        }
        XCTAssertGreaterThan(version, held, "\(mover) played while \(dropped) was away")
        let back = try join(address, match: match, seat: dropped, credential: credentials[dropped]!, since: held)
        for expected in (held + 1)...max(held + 1, version) {
            XCTAssertEqual(try back.message("step")["step"]?["version"], .int(Int64(expected)))
        }
        let synced = try back.message("synced")
        XCTAssertEqual(synced["version"], .int(Int64(version)))
        XCTAssertFalse(back.pending().contains { $0.contains("\"type\":\"step\"") }, "no step twice")
        if dropped == "p1" { p1 = back } else { p2 = back }

        // The server is killed (SIGKILL, nothing to tidy up) and starts again on the same folder: the match is
        // resumed at the version every client was told, the credentials hold.
        server.stop()
        XCTAssertEqual(p1.finish(), 0)
        XCTAssertEqual(p2.finish(), 0)
        (server, address, port) = try startServer(data: data)
        _ = port
        p1 = try join(address, match: match, seat: "p1", credential: credentials["p1"]!)
        p2 = try join(address, match: match, seat: "p2", credential: credentials["p2"]!)
        let resumed = try p1.message("synced")
        XCTAssertEqual(resumed["version"], .int(Int64(version)), "the credentials and every step survive the restart")
        legal = [:]
        legal["p1"] = firstLegal(resumed)
        legal["p2"] = firstLegal(try p2.message("synced"))
        XCTAssertEqual(try play(1, from: version, clients: ["p1": p1, "p2": p2], legal: &legal, idPrefix: "r").version, version + 1)
        XCTAssertEqual(p1.finish(), 0)
        XCTAssertEqual(p2.finish(), 0)
        XCTAssertEqual(server.terminate(), 0)
    }

    func testTheGuardRefusesForeignPagesAndWrongCredentials() throws {
        let data = try scratchFolder("serve-guard")
        let (server, address, port) = try startServer(data: data)
        let token = token(address)
        XCTAssertEqual(try http("GET", "/api/matches", port: port, token: token).status, 200)
        XCTAssertEqual(try http("GET", "/api/matches", port: port, token: nil).status, 403, "no token")
        XCTAssertEqual(try http("GET", "/api/matches", port: port, token: String(repeating: "0", count: 64)).status, 403, "wrong token")
        XCTAssertEqual(try http("GET", "/api/matches", port: port, token: token, headers: ["Origin": "http://evil.example"]).status, 403)
        XCTAssertEqual(try http("GET", "/api/matches", port: port, token: token, headers: ["Host": "evil.example:\(port)"]).status, 403)
        let created = try http("POST", "/api/matches", port: port, token: nil, body: #"{"pack": "desert"}"#)
        XCTAssertEqual(created.status, 403, "no match is created without the token")
        XCTAssertEqual(try http("POST", "/api/matches", port: port, token: token, body: #"{"pack": "cards"}"#).status, 400,
                       "only the packs named on the command line")
        let (match, _) = try createAndJoin(port: port, token: token)
        let intruder = try join(address, match: match, seat: "p1", credential: String(repeating: "a", count: 64))
        guard case .string(let refusal)? = try intruder.message("error")["message"] else { return XCTFail("no error message") }
        XCTAssertTrue(refusal.contains("wrong credential"), refusal)
        XCTAssertEqual(intruder.finish(), 0)
        XCTAssertEqual(server.terminate(), 0)
    }
}
