import FlyingFox
import Foundation
import Rulebench

/// The studio's web page: plain HTML, CSS and JavaScript modules compiled
/// into the binary (`Studio/Page`, embedded by SwiftPM), served as they are.
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

    /// A pack file (`/pack/PATH`) as a response: 404 when missing or outside the pack.
    static func packResponse(_ url: URL?) -> HTTPResponse {
        // Read by the one input limit: a 1 GiB image is refused, never held whole per request.
        guard let url, let type = packTypes[url.pathExtension.lowercased()],
              let data = try? InputFile.bytes(url, display: url.lastPathComponent) else {
            return HTTPResponse(statusCode: .notFound, headers: [.contentType: "text/plain"], body: Data("not found\n".utf8))
        }
        return HTTPResponse(statusCode: .ok, headers: [.contentType: type, .cacheControl: "no-store"], body: data)
    }

    /// The file at the request's path, or 404.
    static func response(for request: HTTPRequest) -> HTTPResponse {
        guard let file = files[request.path] else {
            return HTTPResponse(statusCode: .notFound, headers: [.contentType: "text/plain"], body: Data("not found\n".utf8))
        }
        return HTTPResponse(statusCode: .ok, headers: [.contentType: file.type, .cacheControl: "no-store"], body: Data(file.bytes))
    }
}
