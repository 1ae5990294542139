import XCTest
@testable import Rulebench

/// The JSON Schema of sequence files (scenarios/sequence.schema.json, for
/// editors) and the reader agree: the shipped packs' sequences pass both, and
/// an unknown position or animation fails both.
final class SequenceSchemaTests: XCTestCase {
    private func schema() throws -> SchemaSubset {
        try SchemaSubset(try JSONValue.parse(String(contentsOf: TestPaths.repository("scenarios/sequence.schema.json"), encoding: .utf8)))
    }

    private func files(_ folder: URL) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "yaml" }.sorted { $0.path < $1.path }
    }

    func testTheShippedSequencesPassTheReaderAndTheSchema() throws {
        let schema = try schema()
        let urls = files(TestPaths.repository("rules/desert/sequences")) + files(TestPaths.repository("rules/template/sequences"))
        XCTAssertEqual(urls.count, 6)
        for url in urls {
            XCTAssertNoThrow(try SequenceReader.read(url, display: url.path), url.path)
            XCTAssertEqual(schema.problems(try ScenarioParser.json(String(contentsOf: url, encoding: .utf8), file: url.path)), [], url.path)
        }
    }

    func testAnUnknownPositionOrAnimationFailsBoth() throws {
        let schema = try schema()
        for name in ["position", "animation"] {
            let url = TestPaths.fixtures.appendingPathComponent("sequences/broken/sequences/\(name).yaml")
            XCTAssertThrowsError(try SequenceReader.read(url, display: url.path), name)
            XCTAssertFalse(schema.problems(try ScenarioParser.json(String(contentsOf: url, encoding: .utf8), file: url.path)).isEmpty, name)
        }
    }
}
