import Foundation
import Rulebench
import RulebenchBoard
import RulebenchServer

/// The studio's web page: plain HTML, CSS and JavaScript modules compiled
/// into the binary (`Studio/Page`, embedded by SwiftPM), served as they are,
/// under the server's strict Content-Security-Policy (no inline script or
/// style anywhere in the page). The board module (`/scene.js`) and pack
/// files are `RulebenchBoard`'s, shared with the match page.
enum StudioPage {
    /// The files by URL path, with their content types.
    static let files: [String: (type: String, bytes: [UInt8])] = [
        "/": ("text/html; charset=utf-8", PackageResources.index_html),
        "/studio.css": ("text/css; charset=utf-8", PackageResources.studio_css),
        "/studio.js": ("text/javascript; charset=utf-8", PackageResources.studio_js),
        "/board.js": ("text/javascript; charset=utf-8", PackageResources.board_js),
        "/levels.js": ("text/javascript; charset=utf-8", PackageResources.levels_js),
        "/bots.js": ("text/javascript; charset=utf-8", PackageResources.bots_js),
        "/sequence.js": ("text/javascript; charset=utf-8", PackageResources.sequence_js),
        "/sequence.css": ("text/css; charset=utf-8", PackageResources.sequence_css),
        "/stage.js": ("text/javascript; charset=utf-8", PackageResources.stage_js),
        "/moves.js": ("text/javascript; charset=utf-8", PackageResources.moves_js),
        "/scene.js": BoardPage.sceneScript,
    ]

    /// The page's file at `path`, or 404.
    static func response(for path: String) -> HTTPResponse {
        guard let file = files[path] else { return .text(404, "not found") }
        return HTTPResponse(contentType: file.type, body: Data(file.bytes))
    }
}
