import Foundation
import Rulebench
import RulebenchServer

/// The studio's web page: plain HTML, CSS and JavaScript modules compiled
/// into the binary (`Studio/Page`, embedded by SwiftPM), served as they are,
/// under the server's strict Content-Security-Policy (no inline script or
/// style anywhere in the page).
enum StudioPage {
    /// The files by URL path, with their content types.
    static let files: [String: (type: String, bytes: [UInt8])] = [
        "/": ("text/html; charset=utf-8", PackageResources.index_html),
        "/studio.css": ("text/css; charset=utf-8", PackageResources.studio_css),
        "/studio.js": ("text/javascript; charset=utf-8", PackageResources.studio_js),
        "/board.js": ("text/javascript; charset=utf-8", PackageResources.board_js),
    ]

    /// Content types of the pack files a view uses.
    static let packTypes = Game.viewFileTypes

    /// A pack file (`/pack/PATH`) as a response: 404 when missing or outside the pack. A pack's
    /// file is the user's pack's, not the studio's: it is served sandboxed (`HTTPResponse.sandboxPolicy`).
    static func packResponse(_ url: URL?) -> HTTPResponse {
        // Read by the one input limit: a 1 GiB image is refused, never held whole per request.
        guard let url, let type = packTypes[url.pathExtension.lowercased()],
              let data = try? InputFile.bytes(url, display: url.lastPathComponent) else {
            return .text(404, "not found")
        }
        return HTTPResponse(contentType: type, body: data, headers: [("Content-Security-Policy", HTTPResponse.sandboxPolicy)])
    }

    /// The page's file at `path`, or 404.
    static func response(for path: String) -> HTTPResponse {
        guard let file = files[path] else { return .text(404, "not found") }
        return HTTPResponse(contentType: file.type, body: Data(file.bytes))
    }
}
