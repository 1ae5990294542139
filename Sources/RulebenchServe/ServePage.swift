import Foundation
import RulebenchBoard
import RulebenchServer

/// The match page a browser opening `rulebench serve`'s address gets: the
/// lobby, then a seat's (or a spectator's) board. Plain HTML, CSS and
/// JavaScript modules compiled into the binary (`Page/`, embedded by
/// SwiftPM), served as they are under the server's strict
/// Content-Security-Policy (no inline script or style). The board module
/// (`/scene.js`) is `RulebenchBoard`'s, the one the studio draws with.
enum ServePage {
    /// The files by URL path, with their content types.
    static let files: [String: (type: String, bytes: [UInt8])] = [
        "/": ("text/html; charset=utf-8", PackageResources.index_html),
        "/match.css": ("text/css; charset=utf-8", PackageResources.match_css),
        "/match.js": ("text/javascript; charset=utf-8", PackageResources.match_js),
        "/lobby.js": ("text/javascript; charset=utf-8", PackageResources.lobby_js),
        "/scene.js": BoardPage.sceneScript,
    ]

    /// The page's file at `path`, or nil.
    static func response(for path: String) -> HTTPResponse? {
        guard let file = files[path] else { return nil }
        return HTTPResponse(contentType: file.type, body: Data(file.bytes))
    }
}
