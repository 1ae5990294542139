import Foundation

/// Where a game's pack lives on disk, for tools that follow its files
/// (the studio reloads a pack when one of them changes).
extension Game {
    /// The pack's folder, as an absolute URL.
    public var packFolder: URL { packURL.standardizedFileURL }

    /// The pack's folder, then the folder of each base pack it extends
    /// (`extends`, down the chain): every folder the pack was loaded from.
    public var packFolders: [URL] { kernel.files.folders.map(\.standardizedFileURL) }

    /// Every regular file under the pack's folders (its own and its base
    /// packs') with its modification time, by path: two calls differ exactly
    /// when a file of the pack or of a base it extends was added, removed or
    /// written in between (to the file system's time resolution).
    public func packFileTimes() -> [String: Date] {
        var times: [String: Date] = [:]
        let keys: [URLResourceKey] = [.contentModificationDateKey, .isRegularFileKey]
        for folder in packFolders {
            guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys) else { continue }
            for case let url as URL in walker {
                guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
                times[url.path] = values.contentModificationDate ?? .distantPast
            }
        }
        return times
    }
}
