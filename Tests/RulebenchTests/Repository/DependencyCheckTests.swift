import XCTest

/// scripts/check-deps.py, which `make test` runs: dependencies point down the
/// layers docs/architecture.md draws, except the known uses its allowlist
/// names, and that list can only shrink. Each test checks a scratch copy of
/// the repository's sources, layers and allowlist, changed one way.
final class DependencyCheckTests: XCTestCase {
    private static let repository = EngineFixtures.repository
    private static let copied = ["docs/architecture.md", "scripts/check-deps-allowlist.txt", "Sources",
                                 "Benchmarks/RulebenchBench", "Tests/RulebenchMatchCrashDriver"]

    func testTheRepositoryPasses() throws {
        let result = try check(Self.repository)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.stdout.contains("every use points down"), result.output)
    }

    func testAPlantedUpwardReferenceFails() throws {
        // The engine naming the solver, two layers above it.
        let result = try check(planting: "func planted(_ solver: Solver) {}\n", at: "Sources/Rulebench/Engine/Planted.swift")
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.stdout.contains("Sources/Rulebench/Engine/Planted.swift:1: Sources/Rulebench/Engine uses Solver of Sources/Rulebench/Solve, a folder above it"), result.output)
    }

    func testAPlantedReferenceBetweenTargetsFails() throws {
        // The server, which knows no game, importing the match model.
        let result = try check(planting: "import RulebenchMatch\n", at: "Sources/RulebenchServer/Planted.swift")
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.stdout.contains("Planted.swift:1: Sources/RulebenchServer uses RulebenchMatch of Sources/RulebenchMatch"), result.output)
    }

    func testANameInACommentOrStringDoesNotCount() throws {
        let result = try check(planting: "// Solver\nlet planted = \"Solver\"\n/* Solver */\n", at: "Sources/Rulebench/Engine/Planted.swift")
        XCTAssertEqual(result.status, 0, result.output)
    }

    func testTheAllowlistOnlyShrinks() throws {
        let copy = try repositoryCopy()
        let allowlist = copy.appendingPathComponent("scripts/check-deps-allowlist.txt")
        let text = try String(contentsOf: allowlist, encoding: .utf8)
        try (text + "Sources/Rulebench/Engine -> Sources/Rulebench/Solve: Solver\n").write(to: allowlist, atomically: true, encoding: .utf8)
        let result = try check(copy)
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.stdout.contains("no longer uses Solver of Sources/Rulebench/Solve: remove this line"), result.output)
    }

    func testAFolderOnNoLayerFails() throws {
        // A new folder of the library that nobody placed in the layers.
        let result = try check(planting: "struct Orphan {}\n", at: "Sources/Rulebench/Orphan.swift")
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.stdout.contains("Sources/Rulebench/Orphan.swift lies in no folder of the layers"), result.output)
    }

    private func repositoryCopy() throws -> URL {
        let copy = try scratchFolder("deps")
        for path in Self.copied {
            let target = copy.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Self.repository.appendingPathComponent(path), to: target)
        }
        return copy
    }

    /// The check of a copy of the repository with `text` written at `path`.
    private func check(planting text: String, at path: String) throws -> RulebenchCommand.Result {
        let copy = try repositoryCopy()
        try text.write(to: copy.appendingPathComponent(path), atomically: true, encoding: .utf8)
        return try check(copy)
    }

    private func check(_ root: URL) throws -> RulebenchCommand.Result {
        let script = Self.repository.appendingPathComponent("scripts/check-deps.py")
        let (process, out, err) = try RulebenchCommand.start(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, "--root", root.path])
        return RulebenchCommand.finish(process, out, err)
    }
}
