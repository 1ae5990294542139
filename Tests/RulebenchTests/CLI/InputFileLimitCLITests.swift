import Foundation
import XCTest
@testable import Rulebench

/// One size limit and one message for every input file (`InputFile`): `run`
/// of a scenario, `replay` of a history and `studio` of a scenario, finding or
/// history all refuse a file past 16 MiB before reading it, with the same words.
/// The files are sparse: no 17 MiB is written.
final class InputFileLimitCLITests: XCTestCase {
    private func sparse(_ name: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data("# Finding: x\n".utf8)))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(17 << 20))
        try handle.close()
        return url
    }

    private let message = "the file has 17825792 bytes, more than the 16 MiB (16777216 bytes) Rulebench reads from one input file"

    func testRunReplayAndStudioRefuseAFileOverTheLimitWithOneMessage() throws {
        let folder = try scratchFolder("input-limit")
        _ = try sparse("big.yaml", in: folder)
        _ = try sparse("big.json", in: folder)
        for arguments in [["run", "big.yaml"], ["replay", "big.json"], ["studio", "big.yaml", "--port", "0"],
                          ["studio", "big.json", "--port", "0"]] {
            let result = try RulebenchCommand.run(arguments, in: folder)
            XCTAssertNotEqual(result.status, 0, "\(arguments): \(result.output)")
            XCTAssertTrue(result.output.contains(message), "\(arguments): \(result.output)")
            XCTAssertTrue(result.output.contains("big."), "the file is named: \(result.output)")
        }
    }

    func testTheLimitIsOneConstant() throws {
        let folder = try scratchFolder("input-limit-lib")
        let big = try sparse("big.json", in: folder)
        XCTAssertThrowsError(try SavedHistory(contentsOf: big)) { XCTAssertTrue("\($0)".contains(message), "\($0)") }
        XCTAssertThrowsError(try ScenarioParser.parse(contentsOf: big)) { XCTAssertTrue("\($0)".contains(message), "\($0)") }
        XCTAssertThrowsError(try Reproduction.read(contentsOf: big)) { XCTAssertTrue("\($0)".contains(message), "\($0)") }
        XCTAssertEqual(YAMLReader.maximumFileBytes, InputFile.maximumBytes)
        XCTAssertEqual(Reproduction.maximumFileSize, InputFile.maximumBytes)
        // A FIFO is refused, never opened (it would block).
        let fifo = folder.appendingPathComponent("pipe.json")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        XCTAssertThrowsError(try InputFile.bytes(fifo, display: "pipe.json")) { XCTAssertTrue("\($0)".contains("not a regular file"), "\($0)") }
    }
}
