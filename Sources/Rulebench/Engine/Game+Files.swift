import Foundation

/// Where a game's pack lives on disk, for tools that follow its files
/// (the studio reloads a pack when one of them changes).
extension Game {
    /// The pack's folder, as an absolute URL.
    public var packFolder: URL { packURL.standardizedFileURL }

    /// Every regular file under the pack's folder with its modification time,
    /// by path: two calls differ exactly when a file was added, removed or
    /// written in between (to the file system's time resolution).
    public func packFileTimes() -> [String: Date] {
        var times: [String: Date] = [:]
        let keys: [URLResourceKey] = [.contentModificationDateKey, .isRegularFileKey]
        guard let walker = FileManager.default.enumerator(at: packFolder, includingPropertiesForKeys: keys) else { return times }
        for case let url as URL in walker {
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
            times[url.path] = values.contentModificationDate ?? .distantPast
        }
        return times
    }
}
