import Foundation
import Rulebench
import RulebenchServer

/// The board's web parts that both servers' pages share (the studio's and
/// the match page of `rulebench serve`): the board module `/scene.js`, which
/// draws a view's scene, and how a pack's own files (its images, its sounds)
/// are served to it: sandboxed, since a pack's file is the user's pack's,
/// not the page's (an SVG opened by itself runs nothing in the page's origin).
public enum BoardPage {
    /// The board module, served as `/scene.js` by each page.
    public static let sceneScript: (type: String, bytes: [UInt8]) = ("text/javascript; charset=utf-8", PackageResources.scene_js)

    /// Content types of the pack files a view uses.
    public static let packTypes = Game.viewFileTypes

    /// A pack file as a response: 404 when missing, outside the pack or not a view's file type; else
    /// the file under `HTTPResponse.sandboxPolicy`.
    public static func packResponse(_ url: URL?) -> HTTPResponse {
        // Read by the one input limit: a 1 GiB image is refused, never held whole per request.
        guard let url, let type = packTypes[url.pathExtension.lowercased()],
              let data = try? InputFile.bytes(url, display: url.lastPathComponent) else {
            return .text(404, "not found")
        }
        return HTTPResponse(contentType: type, body: data, headers: [("Content-Security-Policy", HTTPResponse.sandboxPolicy)])
    }
}
