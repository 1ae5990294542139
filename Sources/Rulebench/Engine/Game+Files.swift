import Foundation

/// Where a game's pack lives on disk, for tools that follow its files
/// (the studio reloads a pack when one of them changes).
extension Game {
    /// The pack's folder, as an absolute URL.
    public var packFolder: URL { packURL.standardizedFileURL }

    /// The pack's folder, then the folder of each base pack it extends
    /// (`extends`, down the chain): every folder the pack was loaded from.
    public var packFolders: [URL] { kernel.files.folders.map(\.standardizedFileURL) }

    /// The files a view may show or play, by extension, with their content
    /// types: images (a node's, an atlas's, a background) and sounds.
    public static let viewFileTypes = [
        "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "wav": "audio/wav", "ogg": "audio/ogg", "mp3": "audio/mpeg",
    ]

    /// Whether a file is one the pack loads: its Lua (pack.lua, actions,
    /// modules) or a view's image or sound. A history, a scenario or notes
    /// saved beside the pack are not pack files.
    public static func isPackFile(_ url: URL) -> Bool {
        let type = url.pathExtension.lowercased()
        return type == "lua" || viewFileTypes[type] != nil
    }

    /// Every file of the pack (`isPackFile`) under its folders (its own and
    /// its base packs') with its modification time, by path: two calls differ
    /// exactly when a file of the pack or of a base it extends was added,
    /// removed or written in between (to the file system's time resolution).
    /// A history saved into the pack's folder changes nothing here.
    public func packFileTimes() -> [String: Date] {
        var times: [String: Date] = [:]
        let keys: [URLResourceKey] = [.contentModificationDateKey, .isRegularFileKey]
        for folder in packFolders {
            guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys) else { continue }
            for case let url as URL in walker where Game.isPackFile(url) {
                guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
                times[url.path] = values.contentModificationDate ?? .distantPast
            }
        }
        return times
    }
}
