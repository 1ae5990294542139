import XCTest
@testable import Rulebench

/// Runs the kernel's tests written in Lua (`Tests/KernelTests/*.lua`), one
/// fresh kernel per file: they test the kernel's parts from the inside,
/// where Swift sees only whole operations.
final class KernelLuaTests: XCTestCase {
    static let folder = EngineFixtures.repository.appendingPathComponent("Tests/KernelTests")

    func testEveryKernelTestFilePasses() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
            .filter { $0.hasSuffix(".lua") }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 4, "one test file per kernel part")
        for name in names {
            let source = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
            var configuration = Game.Configuration()
            configuration.printHandler = { _ in }
            let kernel = try Kernel(configuration: configuration, files: PackFiles())
            do {
                try kernel.selfTest(file: "Tests/KernelTests/" + name, source: source)
            } catch {
                XCTFail("\(name): \(error)")
            }
        }
    }

    /// A failing kernel test is reported with its file and line, so the runner cannot pass vacuously.
    func testAFailingKernelTestIsReported() throws {
        let kernel = try Kernel(configuration: Game.Configuration(), files: PackFiles())
        XCTAssertThrowsError(try kernel.selfTest(file: "Tests/KernelTests/broken.lua", source: "local K = ...\nassert(K.sortedkeys({}) == nil)")) { error in
            XCTAssertTrue("\(error)".contains("Tests/KernelTests/broken.lua:2:"), "\(error)")
        }
    }
}
