import Foundation
import XCTest
@testable import Rulebench

/// The rule file and line a finding's header names, and the source lines
/// the studio shows around it (`FindingSource`): found in one pass, read
/// only from the finding's pack.
final class FindingSourceTests: XCTestCase {
    func testThePlaceIsTheFirstLuaFileAndLine() {
        XCTAssertEqual(FindingSource.first(in: ["undo differs in actions/move.lua:12 (slot a)"]),
                       FindingSource(file: "actions/move.lua", line: 12))
        XCTAssertEqual(FindingSource.first(in: ["no place here", "at rules/race-2/actions/x_y.lua:7: boom"]),
                       FindingSource(file: "rules/race-2/actions/x_y.lua", line: 7))
        XCTAssertEqual(FindingSource.first(in: ["a.lua: no line, then b.lua:3"]), FindingSource(file: "b.lua", line: 3))
        XCTAssertNil(FindingSource.first(in: [".lua:3 has no name", "x.lua:", "x.lua:99999999999999999999999"]))
    }

    /// Text built to make a backtracking pattern quadratic (long runs of name
    /// characters with `.lua` and no `:LINE`): the scanner walks it once and still
    /// finds the place at its end, and finds nothing when there is none.
    func testAdversarialHeadersAreScannedAndAnsweredCorrectly() {
        let run = String(repeating: "a.lua", count: 6_554)   // 32,770 characters, every one a name character
        XCTAssertNil(FindingSource.first(in: [run]))
        XCTAssertNil(FindingSource.first(in: [String(repeating: "/", count: 32_768) + ".lua"]))
        XCTAssertEqual(FindingSource.first(in: [run + ":5"]), FindingSource(file: run, line: 5))
        XCTAssertEqual(FindingSource.first(in: [String(repeating: "x.lua: ", count: 4_681) + "y.lua:8"]),
                       FindingSource(file: "y.lua", line: 8))
    }

    func testAFileOutsideThePackIsNeverRead() throws {
        let root = try scratchFolder("finding-source")
        let pack = root.appendingPathComponent("race")
        try FileManager.default.createDirectory(at: pack.appendingPathComponent("actions"), withIntermediateDirectories: true)
        try "one\ntwo\nthree\n".write(to: pack.appendingPathComponent("actions/move.lua"), atomically: true, encoding: .utf8)
        let secrets = root.appendingPathComponent("secrets")
        try FileManager.default.createDirectory(at: secrets, withIntermediateDirectories: true)
        try "user\npassword = hunter2\n".write(to: secrets.appendingPathComponent("creds.lua"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: pack.appendingPathComponent("link.lua"),
                                                   withDestinationURL: secrets.appendingPathComponent("creds.lua"))
        let finding = root.appendingPathComponent("findings/f.yaml")

        let inside = FindingSource(file: "race/actions/move.lua", line: 2).lines(beside: finding, packFolders: [pack])
        XCTAssertEqual(inside.map(\.text), ["one", "two", "three", ""])
        for outside in [secrets.appendingPathComponent("creds.lua").path, "secrets/creds.lua", "race/link.lua"] {
            XCTAssertTrue(FindingSource(file: outside, line: 2).lines(beside: finding, packFolders: [pack]).isEmpty, outside)
        }
        XCTAssertTrue(FindingSource(file: "race/actions/move.lua", line: 50).lines(beside: finding, packFolders: [pack]).isEmpty)
        XCTAssertTrue(FindingSource(file: "race/actions/move.lua", line: .max).lines(beside: finding, packFolders: [pack]).isEmpty)
    }
}
