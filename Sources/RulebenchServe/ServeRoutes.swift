import Foundation
import Rulebench
import RulebenchBoard
import RulebenchMatch
import RulebenchServer

/// The lobby's HTTP JSON API and the matches' sockets, behind the server's
/// guard (Host, Origin, the run's token):
///
/// - `GET /api/matches`: the matches, without secrets.
/// - `POST /api/matches`: create one (`{"pack", "options", "seed", "seats", "takebacks"}`).
/// - `POST /api/matches/ID/join`: `{"seat": "p1"}` → the seat's credential.
/// - `POST /api/matches/ID/scene`: `{"seat", "credential"}` → the seat's board; `{}` → the public one.
/// - `GET /api/matches/ID/pack/PATH`: a file of the match's pack its view names, sandboxed.
/// - WebSocket `/api/matches/ID/socket?seat=S&credential=C` to play, `?watch=1` to watch.
/// - `/`, `/match.js`, `/lobby.js`, `/match.css`, `/scene.js`: the match page (`ServePage`).
struct ServeRoutes: ServerRoutes {
    let lobby: Lobby

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        do {
            switch (request.method, parts) {
            case ("GET", ["", "api", "matches"]):
                return Self.json(200, await lobby.listing())
            case ("POST", ["", "api", "matches"]):
                return Self.json(201, try await lobby.create(try Self.body(request)))
            case ("POST", let path) where path.count == 5 && path[1] == "api" && path[2] == "matches" && path[4] == "join":
                return Self.json(200, try await lobby.join(try Self.matchID(path[3]), try Self.body(request)))
            case ("POST", let path) where path.count == 5 && path[1] == "api" && path[2] == "matches" && path[4] == "scene":
                return Self.json(200, try await lobby.scene(try Self.matchID(path[3]), try Self.body(request)))
            case ("GET", let path) where path.count > 5 && path[1] == "api" && path[2] == "matches" && path[4] == "pack":
                let file = path[5...].joined(separator: "/")
                return BoardPage.packResponse(await lobby.room(try Self.matchID(path[3]))?.packFile(file))
            case ("GET", _) where ServePage.files[request.path] != nil:
                return ServePage.response(for: request.path)!
            default:
                return .text(404, "no \(request.method) \(request.path.prefix(80)) here (see docs/multiplayer.md)")
            }
        } catch {
            return Self.json(error.status, .object([("error", .string(error.message))]))
        }
    }

    func webSocket(for request: HTTPRequest) -> (any WebSocketHandler)? {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, parts[1] == "api", parts[2] == "matches", parts[4] == "socket",
              let number = Int64(parts[3]), let id = MatchID(number) else { return nil }
        let seat = request.queryValues("seat").first
        let credential = request.queryValues("credential").first
        return MatchSocket(lobby: lobby, match: id, seat: seat, credential: credential)
    }

    private static func matchID(_ text: String) throws(LobbyRefusal) -> MatchID {
        guard text.utf8.count <= 18, let number = Int64(text), let id = MatchID(number) else {
            throw LobbyRefusal(404, "no match \(text.prefix(20))")
        }
        return id
    }

    private static func body(_ request: HTTPRequest) throws(LobbyRefusal) -> JSONValue {
        guard let value = try? JSONValue.parse(utf8: Array(request.body)), case .object = value else {
            throw LobbyRefusal(400, "the body is a JSON object")
        }
        return value
    }

    static func json(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: Data(value.serialized(pretty: false).utf8))
    }
}
