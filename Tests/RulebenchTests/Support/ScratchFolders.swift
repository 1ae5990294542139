import XCTest

/// Folders a test writes into, removed when the test ends.
extension XCTestCase {
    /// A new empty folder under the temporary directory, named
    /// `rulebench-PREFIX-UUID`, removed when the test ends.
    func scratchFolder(_ prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// A pack in a scratch folder: `manifest` as its pack.lua and one file
    /// under actions/ per entry of `actions` (name -> source).
    func temporaryPack(_ actions: [String: String], manifest: String, prefix: String = "pack") throws -> URL {
        let pack = try scratchFolder(prefix)
        try FileManager.default.createDirectory(at: pack.appendingPathComponent("actions"), withIntermediateDirectories: true)
        try manifest.write(to: pack.appendingPathComponent("pack.lua"), atomically: true, encoding: .utf8)
        for (name, source) in actions {
            try source.write(to: pack.appendingPathComponent("actions/\(name).lua"), atomically: true, encoding: .utf8)
        }
        return pack
    }
}
