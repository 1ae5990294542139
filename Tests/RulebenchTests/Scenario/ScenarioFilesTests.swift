import Foundation
import XCTest
@testable import Rulebench

/// What `ScenarioFiles.collect` finds below a folder, and in which order:
/// regular *.yaml / *.yml files only (no symbolic link, no schema, nothing
/// hidden), sorted by path component by component.
final class ScenarioFilesTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = try scratchFolder("files")
    }

    private func write(_ relative: String) throws {
        let url = scratch.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("scenario: x\n".utf8).write(to: url)
    }

    func testAFolderGivesItsRegularScenarioFilesSortedByComponent() throws {
        for file in ["a-b/one.yaml", "a/two.yml", "a/zero.YAML", "b.yaml", "notes.txt", "scenario.schema.yaml", ".hidden/h.yaml"] {
            try write(file)
        }
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: scratch.appendingPathComponent("link.yaml").path, withDestinationPath: "b.yaml")
        try fm.createSymbolicLink(atPath: scratch.appendingPathComponent("dangling.yaml").path, withDestinationPath: "nowhere.yaml")

        let (items, problems) = ScenarioFiles.collect([scratch.path])
        XCTAssertEqual(problems, [])
        let prefix = scratch.path + "/"
        // "a" sorts before "a-b" by component, though "a-b/" < "a/" as strings.
        XCTAssertEqual(items.map(\.display), ["a/two.yml", "a/zero.YAML", "a-b/one.yaml", "b.yaml"].map { prefix + $0 })
    }
}
