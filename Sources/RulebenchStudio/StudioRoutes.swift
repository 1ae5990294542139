import Foundation
import RulebenchBoard
import RulebenchServer

/// What the studio answers once the server's guard has passed a request:
/// the page's files, the pack's images and sounds (each sandboxed, so a
/// pack's SVG opened by itself runs nothing in the studio's origin), and
/// the game's WebSocket at `/socket`. Only GET is served.
struct StudioRoutes: ServerRoutes {
    let session: StudioSession
    let hub: StudioHub

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        guard request.method == "GET" else { return .text(405, "only GET is served here") }
        if request.path.hasPrefix("/pack/") {
            return BoardPage.packResponse(await session.packFile(String(request.path.dropFirst("/pack/".count))))
        }
        if request.path.hasPrefix("/sound/") {
            return BoardPage.packResponse(await session.soundFile(String(request.path.dropFirst("/sound/".count))))
        }
        return StudioPage.response(for: request.path)
    }

    func webSocket(for request: HTTPRequest) -> (any WebSocketHandler)? {
        request.path == "/socket" ? StudioSocket(session: session, hub: hub) : nil
    }
}
