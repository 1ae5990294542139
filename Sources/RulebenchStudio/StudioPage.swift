import Foundation
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
    static let packTypes = ["svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
                            "gif": "image/gif", "webp": "image/webp", "wav": "audio/wav", "ogg": "audio/ogg", "mp3": "audio/mpeg"]

    /// `url` when, symbolic links resolved, it is still inside `folder` (the library's
    /// `Game.packFile` refuses `..` and absolute paths; a link in the pack pointing out is refused here).
    static func keptInside(_ url: URL, folder: URL) -> URL? {
        let root = folder.resolvingSymlinksInPath().path + "/"
        return url.resolvingSymlinksInPath().path.hasPrefix(root) ? url : nil
    }

    /// A pack file (`/pack/PATH`) as a response: 404 when missing or outside the pack. A pack's
    /// file is the user's pack's, not the studio's: it is served sandboxed (`HTTPResponse.sandboxPolicy`).
    static func packResponse(_ url: URL?) -> HTTPResponse {
        guard let url, let type = packTypes[url.pathExtension.lowercased()], let data = FileManager.default.contents(atPath: url.path) else {
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
