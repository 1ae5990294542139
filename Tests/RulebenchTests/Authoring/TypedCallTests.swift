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

    /// A call written by `typed(_:)` reads back as the same call, whatever
    /// its strings hold: blanks, either quote mark, digits, backslashes.
    func testATypedCallReadsBackAsTheSameCall() throws {
        let values: [StateValue] = [
            .string("p1"), .string("a b"), .string("it's"), .string("say \"hi\""), .string("007"), .string(""),
            .string("C:\\dir\\"), .string(" padded "), .string("true"), .string("[1,2]"), .string("'x"), .string("it's \"so\""),
            .int(-3), .double(2.5), .bool(false), .list([.int(1), .int(2)]), .list([.string("a"), .string("b")]), .list([]),
            .list([.int(1), .list([.int(2), .int(3)])]), .list([.list([]), .list([.list([.string("x")])])]),
        ]
        for value in values {
            let call = ActionCall("move", ["to": value, "n": .int(1)])
            let line = TypedCall.typed(call)
            XCTAssertEqual(try TypedCall.call(line), call, "\(value) typed as: \(line)")
        }
        XCTAssertEqual(TypedCall.typed(ActionCall("step", ["token": .string("p1")])), "step token=p1")
        XCTAssertEqual(TypedCall.typed(.string("it's")), "\"it's\"")
        XCTAssertEqual(TypedCall.typed(.string("say \"hi\"")), "'say \"hi\"'")
        XCTAssertEqual(TypedCall.typed(.string("007")), "\"007\"")
    }

    /// A string no typed word gives (a blank between its two kinds of quote
    /// mark) is written as `play` prints it, so the label still shows what it is.
    func testAStringNoWordCanGiveIsWrittenAsPlayPrintsIt() {
        let value = StateValue.string("a\" 'b")
        XCTAssertEqual(TypedCall.typed(value), value.description)
        XCTAssertEqual(TypedCall.typed(.string("it's \"so\"")), "\"it's \"so\"\"", "both marks, but a word still gives it")
    }

    /// `go path=[1,[2,3]]` was read as `{1, "[2", "3]"}`: a list nests.
    func testANestedListIsReadAsAList() throws {
        XCTAssertEqual(try TypedCall.call("go path=[1,[2,3]]"),
                       ActionCall("go", ["path": .list([.int(1), .list([.int(2), .int(3)])])]))
        XCTAssertEqual(try TypedCall.call("go path=[[],[[a]],b]"),
                       ActionCall("go", ["path": .list([.list([]), .list([.list([.string("a")])]), .string("b")])]))
        // An item that opens with a quote runs to the same quote, commas and brackets included.
        XCTAssertEqual(StateValue(argument: "[\"a,[b\",c]"), .list([.string("a,[b"), .string("c")]))
        XCTAssertEqual(StateValue(argument: "[it's,x]"), .list([.string("it's"), .string("x")]), "a quote inside an item is text")
        XCTAssertEqual(StateValue(argument: "[1, [2, 3] ]"), .list([.int(1), .list([.int(2), .int(3)])]))
    }

    /// Lists nested deeper than the reader reads are refused with the param's
    /// name (no recursion without bound on a typed line, which a page may send).
    func testAListNestedTooDeeplyIsRefusedWithTheParamsName() throws {
        let deepest = String(repeating: "[", count: StateValue.maximumArgumentDepth) + String(repeating: "]", count: StateValue.maximumArgumentDepth)
        XCTAssertNoThrow(try TypedCall.call("go path=\(deepest)"))
        let deeper = "[" + deepest + "]"
        XCTAssertThrowsError(try TypedCall.call("go path=\(deeper)")) { error in
            XCTAssertEqual(error as? TypedCall.Problem, .tooDeep("path"))
            XCTAssertTrue("\(error)".contains("'path' nests lists more than 32 deep"), "\(error)")
        }
        let huge = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
        XCTAssertThrowsError(try TypedCall.call("go path=\(huge)"))
        XCTAssertNotNil(StateValue(argument: huge).listItems, "the outer levels are still a list")
    }

    /// `token=p1 token=p2` took the last silently: a param given twice is refused by name.
    func testAParamGivenTwiceIsRefusedByName() {
        XCTAssertThrowsError(try TypedCall.call("step token=p1 token=p2")) { error in
            XCTAssertEqual(error as? TypedCall.Problem, .duplicateParam("token"))
            XCTAssertEqual("\(error)", "the param 'token' is given twice (give each param once)")
        }
        XCTAssertThrowsError(try TypedCall.call("step token=p1 n=1 token=p1")) { error in
            XCTAssertEqual(error as? TypedCall.Problem, .duplicateParam("token"))
        }
    }
}
