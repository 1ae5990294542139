import Foundation
import XCTest
import Rulebench
import RulebenchServer

/// What the match page asks of `rulebench serve` beside the protocol: the
/// page's files under the strict Content-Security-Policy, a seat's board only
/// with its credential, the public board for a watcher, and the match's pack
/// files sandboxed, nothing outside the pack. (The page itself, in a browser:
/// Tests/Browser/test_play_together.py.)
final class ServePageTests: XCTestCase {
    func testThePageTheBoardsAndThePackFiles() throws {
        let data = try scratchFolder("serve-page")
        let (server, address, port) = try startServer(data: data)
        let token = token(address)
        let (match, credentials) = try createMatch(#"{"pack": "desert", "options": {"players": 2}, "seed": 4}"#,
                                                   joining: ["p1"], port: port, token: token)

        for path in ["/", "/match.js", "/lobby.js", "/match.css", "/scene.js"] {
            let client = try LoopbackClient(port: port)
            let answer = try XCTUnwrap(client.get("\(path)?token=\(token)", ["Host": "127.0.0.1:\(port)"]))
            XCTAssertEqual(answer.status, 200, path)
            XCTAssertEqual(answer.headers["content-security-policy"], HTTPResponse.strictPolicy, path)
        }
        let page = try http("GET", "/", port: port, token: token)
        XCTAssertFalse(page.body.contains("<script>") || page.body.contains("style="), "no inline script or style")

        let seat = try http("POST", "/api/matches/\(match)/scene", port: port, token: token,
                            body: #"{"seat": "p1", "credential": "\#(credentials["p1"]!)"}"#)
        XCTAssertEqual(seat.status, 200, seat.body)
        let board = try JSONValue.parse(seat.body)
        XCTAssertEqual(board["seat"], .string("p1"))
        XCTAssertEqual(board["version"], .int(0))
        guard case .array(let nodes)? = board["scene"]?["nodes"] else { return XCTFail("no nodes: \(seat.body.prefix(200))") }
        XCTAssertTrue(nodes.contains { $0["id"] == .string("pawn:p1") }, "the board draws the pawns")

        let wrong = try http("POST", "/api/matches/\(match)/scene", port: port, token: token,
                             body: #"{"seat": "p1", "credential": "\#(String(repeating: "0", count: 64))"}"#)
        XCTAssertEqual(wrong.status, 403, "a seat's board only with its credential")
        let untaken = try http("POST", "/api/matches/\(match)/scene", port: port, token: token, body: #"{"seat": "p2", "credential": ""}"#)
        XCTAssertEqual(untaken.status, 403, "nor a seat nobody joined")
        let watcher = try http("POST", "/api/matches/\(match)/scene", port: port, token: token, body: "{}")
        XCTAssertEqual(watcher.status, 200)
        XCTAssertEqual(try JSONValue.parse(watcher.body)["seat"], .null)
        let noToken = try http("POST", "/api/matches/\(match)/scene", port: port, token: nil, body: "{}")
        XCTAssertEqual(noToken.status, 403, "the guard holds for the board too")

        let art = try LoopbackClient(port: port).get("/api/matches/\(match)/pack/art/tile-back.svg?token=\(token)", ["Host": "127.0.0.1:\(port)"])
        XCTAssertEqual(art?.status, 200)
        XCTAssertEqual(art?.headers["content-security-policy"], HTTPResponse.sandboxPolicy, "a pack's file is served sandboxed")
        for outside in ["pack.lua", "../desert/pack.lua", "art/../pack.lua", "%2e%2e/%2e%2e/Package.swift"] {
            let answer = try LoopbackClient(port: port).get("/api/matches/\(match)/pack/\(outside)?token=\(token)", ["Host": "127.0.0.1:\(port)"])
            XCTAssertEqual(answer?.status, 404, outside)
        }
        XCTAssertEqual(server.terminate(), 0)
    }
}
