import XCTest
@testable import Rulebench

/// `Blame`: a finding's blamed action and Lua line as a value, and its one
/// text form, which reports and reproductions show and `Blame(text:)` reads.
final class BlameTests: XCTestCase {
    func testEachShapeIsWrittenAndReadBack() {
        let undo = Blame(action: "jetpack > move", location: SourceLocation(file: "rules/desert/actions/move.lua", line: 31),
                         inUndo: true)
        XCTAssertEqual(undo.description, "jetpack > move (undo at rules/desert/actions/move.lua:31)")
        let raised = Blame(action: "play", location: SourceLocation(file: "actions/play.lua", line: 12))
        XCTAssertEqual(raised.description, "play at actions/play.lua:12")
        let named = Blame(action: "draw")
        XCTAssertEqual(named.description, "draw")
        let placeOnly = Blame(action: "", location: SourceLocation(file: "pack.lua", line: 3))
        XCTAssertEqual(placeOnly.description, " at pack.lua:3")
        for blame in [undo, raised, named, placeOnly, Blame(action: "")] {
            XCTAssertEqual(Blame(text: blame.description), blame, blame.description)
        }
    }

    func testTextInNoShapeIsAllAction() {
        XCTAssertEqual(Blame(text: "look at me"), Blame(action: "look at me"))
        XCTAssertEqual(Blame(text: "x (undo at nowhere)"), Blame(action: "x (undo at nowhere)"))
        XCTAssertEqual(Blame(text: "x at file:0x1"), Blame(action: "x at file:0x1"))
    }

    /// The key of a finding reads the blame's parts, not its text: an action
    /// path with " at " in it keeps its place apart.
    func testTheKeyReadsTheParts() {
        let blame = Blame(action: "invariant look at me", location: SourceLocation(file: "pack.lua", line: 40))
        let finding = FuzzFinding(property: .invariantsHold, stepIndex: 2, message: "m", differences: [], blamed: blame)
        XCTAssertEqual(FindingKey(finding), FindingKey(property: .invariantsHold, action: "invariant look at me", location: "pack.lua:40"))
        XCTAssertEqual(finding.blame, "invariant look at me at pack.lua:40")
        XCTAssertEqual(FindingKey(FuzzFinding(property: .redoReproduces, stepIndex: 0, message: "", differences: [],
                                              blamed: Blame(action: ""))),
                       FindingKey(property: .redoReproduces, action: nil, location: nil))
    }

    /// `fuzz --json`'s `blamed`: the parts as data, null when nothing is blamed.
    func testTheReportCarriesThePartsAsData() {
        let blame = Blame(action: "deal > draw", location: SourceLocation(file: "actions/draw.lua", line: 9), inUndo: true)
        XCTAssertEqual(FuzzReportFormat.blamed(blame).serialized(pretty: false),
                       #"{"action":"deal > draw","file":"actions/draw.lua","line":9}"#)
        XCTAssertEqual(FuzzReportFormat.blamed(nil), .null)
        XCTAssertEqual(FuzzReportFormat.blamed(Blame(action: "")), .null)
    }
}
