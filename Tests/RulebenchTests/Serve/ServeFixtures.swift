import Foundation
import XCTest
import Rulebench

/// What the server's tests share: `rulebench serve` on a free port over a
/// scratch folder, the lobby's HTTP API, `rulebench join` clients, and the
/// protocol's messages as the tests write them.
extension XCTestCase {
    /// Starts `rulebench ARGUMENTS` in the repository; it is stopped when the test ends, passed or failed.
    func startRulebench(_ arguments: [String]) throws -> ServeProcess {
        let started = try ServeProcess(arguments, in: EngineFixtures.repository)
        addTeardownBlock { started.stop() }
        return started
    }

    /// A server of `packs` on a free port over a scratch data folder; its address (with the token) and port.
    func startServer(data: URL, packs: [String] = ["desert"], options: [String] = []) throws -> (ServeProcess, address: String, port: UInt16) {
        let server = try startRulebench(["serve"] + packs + ["--port", "0", "--data", data.path] + options)
        let line = try server.next("the address") { $0.hasPrefix("Rulebench matches: ") }
        let address = String(line.dropFirst("Rulebench matches: ".count).split(separator: " ")[0])
        let port = UInt16(URLComponents(string: address)!.port!)
        return (server, address, port)
    }

    func token(_ address: String) -> String {
        URLComponents(string: address)!.queryItems!.first { $0.name == "token" }!.value!
    }

    /// One HTTP request to the server; status and body as JSON (or text).
    func http(_ method: String, _ path: String, port: UInt16, token: String?, body: String? = nil,
              headers: [String: String] = [:]) throws -> (status: Int, body: String) {
        let client = try LoopbackClient(port: port)
        let target = token.map { path + (path.contains("?") ? "&" : "?") + "token=" + $0 } ?? path
        var all = ["Host": "127.0.0.1:\(port)"].merging(headers) { $1 }
        if let body { all["Content-Length"] = "\(body.utf8.count)"; all["Content-Type"] = "application/json" }
        let lines = all.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)\r\n" }.joined()
        client.send("\(method) \(target) HTTP/1.1\r\n\(lines)\r\n\(body ?? "")")
        let response = try XCTUnwrap(client.response())
        return (response.status, response.body)
    }

    /// Creates a match (`body`, the lobby's JSON) and joins `seats`; the match number and each seat's credential.
    func createMatch(_ body: String, joining seats: [String], port: UInt16, token: String,
                     file: StaticString = #filePath, line: UInt = #line) throws -> (match: Int64, credentials: [String: String]) {
        let created = try http("POST", "/api/matches", port: port, token: token, body: body)
        XCTAssertEqual(created.status, 201, created.body, file: file, line: line)
        guard case .int(let match)? = try JSONValue.parse(created.body)["id"] else { throw XCTSkip("no id in \(created.body)") }
        var credentials: [String: String] = [:]
        for seat in seats {
            let joined = try http("POST", "/api/matches/\(match)/join", port: port, token: token, body: #"{"seat": "\#(seat)"}"#)
            XCTAssertEqual(joined.status, 200, joined.body, file: file, line: line)
            guard case .string(let credential)? = try JSONValue.parse(joined.body)["credential"] else { throw XCTSkip(joined.body) }
            credentials[seat] = credential
        }
        return (match, credentials)
    }

    /// A `rulebench join` client of `seat`, asking for the steps after `since` (with the view hash it holds there).
    func join(_ address: String, match: Int64, seat: String, credential: String, since: Int = 0,
              viewHash: String? = nil) throws -> ServeProcess {
        try startRulebench(["join", address, "--match", "\(match)", "--seat", seat, "--credential", credential, "--since", "\(since)"]
                           + (viewHash.map { ["--view-hash", $0] } ?? []))
    }

    /// The legal call a message carries that the tests make: the first that does not end the turn, else the first.
    func firstLegal(_ message: JSONValue) -> JSONValue? {
        guard case .array(let calls)? = message["legal"], let first = calls.first else { return nil }
        return calls.first { $0["name"] != .string("end_turn") } ?? first
    }

    func callMessage(_ id: String, version: Int, _ call: JSONValue) -> String {
        JSONValue.object([("type", .string("call")), ("id", .string(id)), ("version", .int(Int64(version))), ("call", call)])
            .serialized(pretty: false)
    }
}
