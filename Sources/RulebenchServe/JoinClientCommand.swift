import ArgumentParser
import Foundation
import Rulebench
import RulebenchCommandLine

/// `rulebench join URL --match N (--seat S --credential C | --watch)`: the
/// command-line client. It connects to the match's socket, asks for the
/// steps after `--since`, prints every message the server sends as one JSON
/// line, and sends each line of standard input (a JSON message, a typed call,
/// `takeback`, `consent`), waiting for the server's answer to one before it
/// sends the next, so a script's lines act in order on the version last seen.
struct JoinClientCommand: ParsableCommand {
    static let configuration: CommandConfiguration = {
        var configuration = JoinArguments.configuration
        configuration.commandName = "join"
        return configuration
    }()

    @OptionGroup var arguments: JoinArguments

    /// How long the client waits for any message before it gives up on the server.
    static let timeout = 30

    func run() throws {
        guard let url = URLComponents(string: arguments.url), url.scheme == "http", let host = url.host, let port = url.port,
              let port16 = UInt16(exactly: port),
              let token = url.queryItems?.first(where: { $0.name == "token" })?.value else {
            complain("\(arguments.url): not the address rulebench serve printed (http://HOST:PORT/?token=...)")
            throw Outcome.badInput.exitCode
        }
        var target = URLComponents()
        target.path = "/api/matches/\(arguments.match)/socket"
        target.queryItems = [URLQueryItem(name: "token", value: token)]
            + (arguments.seat.map { [URLQueryItem(name: "seat", value: $0), URLQueryItem(name: "credential", value: arguments.credential)] }
               ?? [URLQueryItem(name: "watch", value: "1")])
        let socket: BlockingWebSocket
        do {
            socket = try BlockingWebSocket(host: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port: port16,
                                           target: target.percentEncodedPath + "?" + (target.percentEncodedQuery ?? ""),
                                           timeout: Self.timeout)
        } catch {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        let session = JoinSession(socket: socket, seat: arguments.seat)
        Thread.detachNewThread { session.readUntilClosed() }
        session.send(MatchWireText.sync(since: arguments.since, viewHash: arguments.viewHash))
        while let line = readLine(strippingNewline: true) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, session.isOpen else { continue }
            switch session.message(for: trimmed) {
            case .success(let text): session.send(text)
            case .failure(let problem): session.print(MatchWireText.clientError(problem.message))
            }
        }
        session.waitForAnswers()
        socket.sendClose()
    }
}

/// The messages the client writes itself (a few; the server's side is `MatchWire`).
enum MatchWireText {
    static func sync(since: Int, viewHash: String?) -> String {
        JSONValue.object([("type", .string("sync")), ("since", .int(Int64(since)))] + (viewHash.map { [("viewHash", .string($0))] } ?? []))
            .serialized(pretty: false)
    }

    static func clientError(_ problem: String) -> String {
        JSONValue.object([("type", .string("client-error")), ("message", .string(problem))]).serialized(pretty: false)
    }
}
