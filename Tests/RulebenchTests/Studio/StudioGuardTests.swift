import Foundation
import XCTest

/// The built studio (`rulebench studio`, a subprocess on a free loopback
/// port) as a web page of another origin, a DNS-rebinding page or another
/// local user would reach it: the printed address carries the run's token,
/// and without it, from another Host or Origin, every request and the
/// WebSocket are refused with 403; a 128 KiB request line gets 431; what is
/// served carries its Content-Security-Policy; Ctrl-C still ends it with 0.
final class StudioGuardTests: XCTestCase {
    private var process: Process!
    private var output: (Pipe, Pipe)!
    private var port: UInt16 = 0
    private var token = ""
    private var host: String { "127.0.0.1:\(port)" }

    override func setUpWithError() throws {
        let (process, out, err) = try RulebenchCommand.start(["studio", "template", "--port", "0"], in: EngineFixtures.repository)
        self.process = process
        output = (out, err)
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let more = out.fileHandleForReading.availableData
            guard !more.isEmpty else { break }
            line += more
        }
        let text = String(decoding: line, as: UTF8.self)
        let pattern = try NSRegularExpression(pattern: #"^Rulebench Studio: http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{64})  \(Ctrl-C ends it\)\n$"#)
        guard let match = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let portRange = Range(match.range(at: 1), in: text), let tokenRange = Range(match.range(at: 2), in: text) else {
            process.terminate()
            return XCTFail("the studio printed no address with a token: \(text)")
        }
        port = UInt16(text[portRange]) ?? 0
        token = String(text[tokenRange])
    }

    override func tearDown() {
        guard let process, process.isRunning else { return }
        process.interrupt()
        let result = RulebenchCommand.finish(process, output.0, output.1)
        XCTAssertEqual(result.status, 0, "Ctrl-C ends the studio with 0: \(result.stderr)")
    }

    private func handshake(_ target: String, _ headers: [String: String]) throws -> LoopbackClient {
        let client = try LoopbackClient(port: port)
        client.send("GET \(target) HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" + headers.map { "\($0.key): \($0.value)\r\n" }.joined() + "\r\n")
        return client
    }

    func testOnlyTheAddressItPrintedOpensThePageAndTheSocket() throws {
        for (target, headers) in [("/", ["Host": host]), ("/studio.js", ["Host": host]), ("/?token=0", ["Host": host]),
                                  ("/?token=\(token)", ["Host": "evil.example:\(port)"]),
                                  ("/?token=\(token)", ["Host": host, "Origin": "http://evil.example"])] {
            XCTAssertEqual(try LoopbackClient(port: port).get(target, headers)?.status, 403, "\(target) \(headers)")
        }
        let page = try LoopbackClient(port: port).get("/?token=\(token)", ["Host": host])
        XCTAssertEqual(page?.status, 200)
        XCTAssertTrue(page?.body.contains("Rulebench Studio") == true)
        XCTAssertTrue(page?.headers["content-security-policy"]?.contains("script-src 'self'") == true)

        for (target, origin) in [("/socket?token=\(token)", "null"), ("/socket?token=\(token)", "http://localhost:1"), ("/socket", "http://\(host)")] {
            XCTAssertEqual(try handshake(target, ["Host": host, "Origin": origin]).response()?.status, 403, "\(target) \(origin)")
        }
        let socket = try handshake("/socket?token=\(token)", ["Host": host, "Origin": "http://\(host)"])
        XCTAssertEqual(socket.response()?.status, 101)
        let first = try socket.frame().map { try JSONSerialization.jsonObject(with: Data($0.payload)) as? [String: Any] }
        XCTAssertEqual(first??["type"] as? String, "position", "the page's socket gets the position first")
    }

    func testA128KiBRequestLineIsRefusedAndThePageStillLoads() throws {
        let client = try LoopbackClient(port: port)
        client.send("GET /" + String(repeating: "a", count: 128 * 1024) + " HTTP/1.1\r\nHost: \(host)\r\n\r\n")
        XCTAssertEqual(client.response()?.status, 431)
        XCTAssertEqual(try LoopbackClient(port: port).get("/?token=\(token)", ["Host": host])?.status, 200)
    }
}
