import XCTest
import Rulebench

/// TypedCall: the one grammar of a call typed by hand, which `play` and the
/// studio's Call field both read through.
final class TypedCallTests: XCTestCase {
    func testWordsKeepQuotedBlanks() throws {
        XCTAssertEqual(try TypedCall.words("  label text=\"two words\"  n=3 "), ["label", "text=\"two words\"", "n=3"])
        XCTAssertEqual(try TypedCall.words("say it='a \"b\" c'"), ["say", "it='a \"b\" c'"])
    }

    func testAQuotedValueWithABlankIsOneParam() throws {
        let call = try TypedCall.call("move to=\"a b\" steps=2 code=\"007\"")
        XCTAssertEqual(call, ActionCall("move", ["to": .string("a b"), "steps": .int(2), "code": .string("007")]))
    }

    func testAnUnclosedQuoteNamesItsColumn() {
        XCTAssertThrowsError(try TypedCall.call("move to=\"a b")) { error in
            XCTAssertEqual(error as? TypedCall.Problem, .unclosedQuote(column: 9, line: "move to=\"a b"))
            XCTAssertTrue("\(error)".contains("column 9"), "\(error)")
        }
        // Column counts characters, not bytes.
        XCTAssertThrowsError(try TypedCall.words("é x='")) { error in
            XCTAssertEqual(error as? TypedCall.Problem, .unclosedQuote(column: 5, line: "é x='"))
        }
    }

    func testAWordThatIsNotAPairAndAnEmptyLineAreRefused() {
        XCTAssertThrowsError(try TypedCall.call("move north")) { error in
            XCTAssertEqual(error as? TypedCall.Problem, .notAPair("north"))
        }
        XCTAssertThrowsError(try TypedCall.call("  ")) { error in
            XCTAssertEqual(error as? TypedCall.Problem, .empty)
        }
    }
}
