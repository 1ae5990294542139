import FlyingFox
import Foundation

/// The studio's web page: plain HTML, CSS and JavaScript modules compiled
/// into the binary (`Studio/Page`, embedded by SwiftPM), served as they are.
enum StudioPage {
    /// The files by URL path, with their content types.
    static let files: [String: (type: String, bytes: [UInt8])] = [
        "/": ("text/html; charset=utf-8", PackageResources.index_html),
        "/studio.css": ("text/css; charset=utf-8", PackageResources.studio_css),
        "/studio.js": ("text/javascript; charset=utf-8", PackageResources.studio_js),
    ]

    /// The file at the request's path, or 404.
    static func response(for request: HTTPRequest) -> HTTPResponse {
        guard let file = files[request.path] else {
            return HTTPResponse(statusCode: .notFound, headers: [.contentType: "text/plain"], body: Data("not found\n".utf8))
        }
        return HTTPResponse(statusCode: .ok, headers: [.contentType: file.type, .cacheControl: "no-store"], body: Data(file.bytes))
    }
}
