import XCTest
@testable import Rulebench

/// `check` finds each defect of a pack's sequences at its file and line
/// (Fixtures/sequences/broken: one defect per file, and one trigger in Lua).
final class SequenceCheckTests: XCTestCase {
    func testEachDefectIsFoundAtItsFileAndLine() throws {
        var options = PackChecker.Options()
        options.seeds = [1]
        options.depth = 2
        options.searchStates = 0
        let pack = TestPaths.fixtures.appendingPathComponent("sequences/broken").path
        let problems = try PackChecker(pack: pack, options: options).check().filter { $0.file.contains("sequences/") || $0.file.contains("score.lua") }
        func found(_ file: String, _ line: Int, _ words: String, _ severity: PackProblem.Severity = .error,
                   _ where_: StaticString = #filePath, _ at: UInt = #line) {
            XCTAssertTrue(problems.contains { $0.file.hasSuffix(file) && $0.line == line && $0.message.contains(words) && $0.severity == severity },
                          "no \(severity) '\(words)' at \(file):\(line) in:\n" + problems.map(\.description).joined(separator: "\n"),
                          file: where_, line: at)
        }
        found("sequences/image.yaml", 5, "image 'art/missing.svg' is not a file of the pack")
        found("sequences/position.yaml", 5, "unknown position 'middle'")
        found("sequences/animation.yaml", 5, "unknown animation 'spin'")
        found("sequences/slot.yaml", 6, "reads {best.score}")
        found("sequences/choice.yaml", 9, "names no action: 'fly'")
        found("sequences/orphan.yaml", 1, "nothing starts sequence 'orphan'", .warning)
        found("sequences/goal.yaml", 1, "starts: { goal: finished } names no goal")
        found("actions/score.lua", 8, "anim.sequence(\"cheer\") names no sequence")
        XCTAssertEqual(problems.count, 8, problems.map(\.description).joined(separator: "\n"))
    }

    func testTheShippedPacksSequencesAreClean() throws {
        var options = PackChecker.Options()
        options.seeds = [1]
        options.depth = 2
        options.searchStates = 0
        for pack in ["desert", "template"] {
            let problems = try PackChecker(pack: TestPaths.repository("rules/\(pack)").path, options: options).check()
            XCTAssertEqual(problems.filter { $0.file.contains("sequences/") || $0.message.contains("sequence") }.map(\.description), [], pack)
        }
    }
}
