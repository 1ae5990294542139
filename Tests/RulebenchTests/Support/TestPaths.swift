// TestPaths: where the tests find the repository and its fixtures.
//
// Owns the one way a test names a file of the repository. The repository
// is found by walking up from this file to the folder holding
// Package.swift, so a test file may live at any depth under Tests/.
import Foundation

enum TestPaths {
    /// The repository's root folder (the one holding Package.swift).
    static let repository: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        fatalError("TestPaths: no Package.swift above \(#filePath)")
    }()

    /// Tests/RulebenchTests/Fixtures.
    static let fixtures = repository.appendingPathComponent("Tests/RulebenchTests/Fixtures")

    /// A file or folder of the repository, by its path from the root.
    static func repository(_ path: String) -> URL {
        repository.appendingPathComponent(path)
    }
}
