import Foundation
import XCTest
@testable import Rulebench

/// The JSON and YAML readers on hostile input: the known bugs (a lone UTF-16
/// surrogate trapped, aliases expanded without bound), the edges around
/// them, and property tests over thousands of random and mutated documents.
/// Every input must either read or fail with the reader's own error naming a
/// place; whatever JSON reads must write back and read again to an equal
/// value. The generator is seeded, so each run tries the same cases.
final class ParserPropertyTests: XCTestCase {
    // MARK: JSON: known bugs and edges

    /// `rulebench replay` of this file died with SIGILL: `low - 0xDC00` overflowed.
    func testLoneSurrogateIsAParseErrorAtItsEscape() throws {
        let error = try parseError(#"{"x":"\uD800\u0041"}"#)
        XCTAssertEqual(error.line, 1)
        XCTAssertEqual(error.column, 7, "the column of the lone escape")
        XCTAssertTrue(error.message.contains(#"a lone UTF-16 surrogate \uD800"#), error.message)

        for text in [#""\uD800""#, #""\uD800x""#, #""\uDBFF\uD800""#, #""\uDC00""#, #""ab\uDFFF""#, #""\uD800\"#, #""\uD800\u"#] {
            XCTAssertNoThrow(try parseError(text), text)
        }
        XCTAssertEqual(try JSONValue.parse(#""\uD83D\uDE00""#), .string("😀"), "a surrogate pair is one character")
        XCTAssertEqual(try JSONValue.parse(#""\u00e9\u00C9\u0000""#), .string("éÉ\u{0}"))
    }

    func testMalformedEscapesAndRawControlCharactersAreParseErrors() throws {
        for text in [#""\u12G4""#, #""\u+123""#, #""\u-123""#, #""\u12""#, #""\x""#, #""\"#, "\"a\nb\"", "\"\t\""] {
            XCTAssertNoThrow(try parseError(text), text)
        }
        XCTAssertTrue(try parseError("\"a\u{1}\"").message.contains("U+0001"))
    }

    func testNumbersFollowTheGrammarAndStayInRange() throws {
        let good: [(String, JSONValue)] = [
            ("-9223372036854775808", .int(.min)), ("9223372036854775807", .int(.max)), ("0", .int(0)), ("-0", .int(0)),
            ("-0.0", .double(-0.0)), ("1E+2", .double(100)), ("0.5e-1", .double(0.05)), ("1e-400", .double(0)),
            ("1.7976931348623157e308", .double(.greatestFiniteMagnitude)),
        ]
        for (text, value) in good {
            XCTAssertEqual(try JSONValue.parse(text), value, text)
        }
        let bad = ["-9223372036854775809", "9223372036854775808", "99999999999999999999", "1e999999999999", "-1e400",
                   "-", "1.", ".5", "01", "-01", "+1", "1e", "1e+", "0x10", "1.5.2", "--1", "Infinity", "NaN", "- 1",
                   String(repeating: "9", count: 100_000)]
        for text in bad {
            XCTAssertNoThrow(try parseError(text), String(text.prefix(40)))
        }
        XCTAssertTrue(try parseError("[1, 99999999999999999999]").message.contains("out of range"))
        XCTAssertEqual(try parseError("[1, 99999999999999999999]").column, 5, "the number's first column")
    }

    func testDeepNestingIsAParseErrorNotAStackOverflow() throws {
        for text in [String(repeating: "[", count: 100_000),
                     String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
                     String(repeating: #"{"a":"#, count: 100_000)] {
            let error = try parseError(text)
            XCTAssertTrue(error.message.contains("nested more than 512"), error.message)
        }
        let deepest = String(repeating: "[", count: JSONValue.maximumDepth) + String(repeating: "]", count: JSONValue.maximumDepth)
        let value = try JSONValue.parse(deepest)
        XCTAssertEqual(try JSONValue.parse(value.serialized()), value)
        XCTAssertNoThrow(try parseError("[" + deepest + "]"))
    }

    func testEveryTruncationOfAHistoryIsAParseError() throws {
        let bytes = Array(Self.history.utf8)
        let whole = try JSONValue.parse(utf8: bytes)
        for length in 0..<bytes.count {
            let prefix = Array(bytes[..<length])
            if String(decoding: prefix, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                == Self.history.trimmingCharacters(in: .whitespacesAndNewlines) {
                XCTAssertEqual(try JSONValue.parse(utf8: prefix), whole)
                continue
            }
            XCTAssertThrowsError(try JSONValue.parse(utf8: prefix), "cut at \(length)") { error in
                XCTAssertTrue(error is JSONValue.ParseError, "cut at \(length): \(error)")
            }
        }
    }

    func testInvalidUTF8IsAParseErrorAtItsByte() throws {
        let prefix = Array(#"{"a":"ok"#.utf8)
        for bad: [UInt8] in [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80]] {
            let bytes = prefix + bad + Array(#""}"#.utf8)
            XCTAssertThrowsError(try JSONValue.parse(utf8: bytes)) { error in
                guard let error = error as? JSONValue.ParseError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.column, 9, "\(bad)")
                XCTAssertTrue(error.message.contains("invalid UTF-8"), error.message)
            }
        }
        XCTAssertEqual(try JSONValue.parse(utf8: prefix + [0xE2, 0x82, 0xAC] + Array(#""}"#.utf8)), .object([("a", .string("ok€"))]))
        XCTAssertEqual(try JSONValue.parse(utf8: [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)), .array([.int(1)]), "a byte order mark is skipped")
        XCTAssertTrue(try parseError("[é]").message.contains("'é'"))
    }

    func testErrorsNameTheLineAndTheColumnInCharacters() throws {
        let error = try parseError("{\n  \"a\": [1,\n   \"é\" 3]\n}")
        XCTAssertEqual(error.line, 3)
        XCTAssertEqual(error.column, 8, "é is one column, though two bytes")
        XCTAssertTrue(error.description.hasPrefix("3:8: unexpected character '3' in an array"), error.description)
    }

    // MARK: JSON: properties

    func testRandomBytesEitherParseOrThrowAParseError() {
        var random = SplitMix64(seed: 0x5EED_0001)
        var outcomes = Outcomes()
        for number in 0..<4_000 {
            let length = random.below(random.chance(50) ? 6 : 48)
            let bytes = (0..<length).map { _ in Self.randomJSONByte(&random) }
            checkJSON(bytes, "random case \(number)", &outcomes)
        }
        XCTAssertGreaterThan(outcomes.parsed, 30, "the generator should also make valid JSON")
        XCTAssertGreaterThan(outcomes.refused, 1_000)
    }

    func testMutatedHistoriesAndCorpusEntriesEitherParseOrThrowAParseError() throws {
        for (name, document) in [("history", Self.history), ("corpus entry", Self.corpusEntry)] {
            let original = Array(document.utf8)
            XCTAssertNoThrow(try JSONValue.parse(utf8: original), name)
            var random = SplitMix64(seed: 0x5EED_0002 ^ UInt64(original.count))
            var outcomes = Outcomes()
            for number in 0..<3_000 {
                let mutated = Mutator.mutate(original, &random, alphabet: Self.jsonAlphabet)
                checkJSON(mutated, "\(name) mutation \(number)", &outcomes)
            }
            XCTAssertGreaterThan(outcomes.parsed, 100, name)
            XCTAssertGreaterThan(outcomes.refused, 1_000, name)
        }
    }

    func testGeneratedValuesRoundTrip() throws {
        var random = SplitMix64(seed: 0x5EED_0003)
        for number in 0..<1_500 {
            let value = Self.randomJSONValue(&random, depth: 0)
            for pretty in [true, false] {
                let text = value.serialized(pretty: pretty)
                XCTAssertEqual(try JSONValue.parse(text), value, "value \(number): \(text)")
            }
        }
    }

    // MARK: YAML: known bugs and edges

    /// Nine levels of nine aliases in `setup.options` grew to 7.6 GB in 60 s.
    func testBillionLaughsInOptionsIsRefusedNamingTheFileAndLine() throws {
        let url = Self.hostileInput.appendingPathComponent("billion-laughs-options.yaml")
        let problem = try scenarioProblem(String(contentsOf: url, encoding: .utf8), file: "laughs.yaml")
        XCTAssertEqual(problem.file, "laughs.yaml")
        XCTAssertEqual(problem.line, 13, "the option being read when the count passed the limit: a6")
        XCTAssertTrue(problem.message.contains("aliases expand this file to more than 1,000,000 values"), problem.message)
        XCTAssertTrue(problem.message.contains("option 'a6'"), problem.message)
        XCTAssertTrue(problem.message.contains("write the values out or use fewer aliases"), problem.message)
    }

    /// Just past the limit (10^6 strings in 111,111 lists) in `expect.state`:
    /// small enough that the unbounded reader finished, and accepted it.
    func testAliasesJustPastTheLimitInExpectStateAreRefused() throws {
        let problem = try scenarioProblem(Self.laughs(levels: 6, width: 10, inOptions: false))
        XCTAssertEqual(problem.line, 11, "the state path whose value passed the limit: a5")
        XCTAssertTrue(problem.message.contains("more than 1,000,000 values (the limit was passed in 'a5')"), problem.message)
    }

    func testAliasesWithinTheBoundsStillRead() throws {
        let scenario = try ScenarioParser.parse("""
            scenario: shared values
            rules: template
            setup:
              options: { board: &board [[1, 2], [3, 4]], start: *board }
            steps:
              - do: step
                with: { token: &p p1, by: *board }
                expect: { state: { "tokens.*.square": 1, last: *p, grid: *board } }
            """, file: "ok.yaml")
        let board: StateValue = [[.int(1), .int(2)], [.int(3), .int(4)]]
        XCTAssertEqual(scenario.setup.options["start"], board)
        guard case .perform(_, let params) = scenario.steps[0].operation else { return XCTFail("not a do step") }
        XCTAssertEqual(params["by"], board)
        XCTAssertEqual(scenario.steps[0].expectations.state.map(\.value), [.int(1), "p1", board])

        let tenThousand = try ScenarioParser.parse(Self.laughs(levels: 4, width: 10, inOptions: true), file: "ok.yaml")
        guard case .table(let top)? = tenThousand.setup.options["a3"] else { return XCTFail("a3 is not a list") }
        XCTAssertEqual(top.count, 10)
    }

    /// Yams hashes each mapping key in full to find duplicates: an alias key
    /// of nested aliases hung inside Yams, before any value was counted.
    func testAnAliasAsAKeyIsRefusedBeforeYamsHashesIt() throws {
        let url = Self.hostileInput.appendingPathComponent("alias-key.yaml")
        let problem = try scenarioProblem(String(contentsOf: url, encoding: .utf8), file: "alias-key.yaml")
        XCTAssertEqual(problem.description.prefix(21), "alias-key.yaml:17:11:")
        XCTAssertTrue(problem.message.contains("an alias (*name) cannot be a mapping key"), problem.message)

        for key in ["*k : 1", "[*k]: 1", "? [x, {y: *k}]\n    : 1"] {
            let text = "scenario: s\nrules: template\nname: &k name\nsteps:\n  - expect: { state: { a: 1 } }\nother:\n    " + key + "\n"
            XCTAssertTrue(try scenarioProblem(text).message.contains("cannot be a mapping key"), key)
        }
        let fine = try ScenarioParser.parse("""
            scenario: stars that are not aliases
            rules: template
            steps:
              - expect: { state: { "*quoted": 1, a: 2 * 3, b: "*", c: a*b } }
            """, file: "stars.yaml")
        XCTAssertEqual(fine.steps[0].expectations.state.map(\.value), [.int(1), "2 * 3", "*", "a*b"])
    }

    func testAScenarioFileOver16MiBIsRefused() throws {
        let text = "scenario: big\nrules: template\n#" + String(repeating: "x", count: 16 << 20) + "\n"
        let problem = try scenarioProblem(text, file: "big.yaml")
        XCTAssertEqual(problem.file, "big.yaml")
        XCTAssertTrue(problem.message.contains("more than the 16 MiB (16777216 bytes) Rulebench reads from one input file"), problem.message)
        XCTAssertTrue(problem.message.contains("split it into smaller files"), problem.message)
    }

    /// A scenario file over the limit is refused from its size, before it is read.
    func testAScenarioFileOver16MiBIsRefusedBeforeItIsRead() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-big-\(UUID().uuidString).yaml")
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(17 << 20))   // sparse: no 17 MiB written
        try handle.close()
        XCTAssertThrowsError(try ScenarioParser.read(url, file: "big.yaml")) { error in
            XCTAssertTrue("\(error)".contains("more than the 16 MiB"), "\(error)")
        }
    }

    func testDeepYAMLNestingIsAProblemNotAStackOverflow() throws {
        let problem = try scenarioProblem(String(repeating: "[", count: 100_000))
        XCTAssertNotNil(problem.line, problem.description)
        let nested = String(repeating: "[", count: 900) + "1" + String(repeating: "]", count: 900)
        let scenario = try ScenarioParser.parse("scenario: deep\nrules: template\nsteps:\n  - expect: { state: { a: \(nested) } }\n",
                                                file: "deep.yaml")
        XCTAssertEqual(scenario.steps.count, 1, "the reader is fine; the engine refuses a state nested this deep")
    }

    func testHexAndOctalIntegersTakeOnlyTheirDigits() throws {
        let scenario = try ScenarioParser.parse("""
            scenario: radix
            rules: template
            steps:
              - expect: { state: { a: 0x1F, b: 0o17, c: 0x-5, d: 0o9, e: 0x+5 } }
            """, file: "radix.yaml")
        XCTAssertEqual(scenario.steps[0].expectations.state.map(\.value), [.int(31), .int(15), "0x-5", "0o9", "0x+5"])
    }

    // MARK: YAML: properties

    func testRandomScenarioYAMLGivesAScenarioOrALocatedProblem() {
        var random = SplitMix64(seed: 0x5EED_0004)
        var outcomes = Outcomes()
        for number in 0..<1_500 {
            // Half start as a scenario does, so that some of them read.
            var text = random.chance(50) ? "scenario: s\nrules: template\nsteps:\n  - " : ""
            if random.chance(10) {
                text = String(decoding: (0..<random.below(64)).map { _ in UInt8(random.below(256)) }, as: UTF8.self)
            } else {
                for _ in 0..<random.below(40) { text += random.pick(Self.yamlTokens) }
            }
            checkScenario(text, "random case \(number)", &outcomes)
        }
        XCTAssertGreaterThan(outcomes.parsed, 0, "the generator should also make valid scenarios")
        XCTAssertGreaterThan(outcomes.refused, 1_000)
    }

    func testMutatedScenariosGiveAScenarioOrALocatedProblem() throws {
        for (index, document) in Self.scenarios.enumerated() {
            let original = Array(document.utf8)
            XCTAssertNoThrow(try ScenarioParser.parse(document, file: "fuzz.yaml"), "seed scenario \(index)")
            var random = SplitMix64(seed: 0x5EED_0005 + UInt64(index))
            var outcomes = Outcomes()
            for number in 0..<600 {
                let mutated = Mutator.mutate(original, &random, alphabet: Self.yamlAlphabet)
                checkScenario(String(decoding: mutated, as: UTF8.self), "scenario \(index) mutation \(number)", &outcomes)
            }
            XCTAssertGreaterThan(outcomes.parsed, 30, "scenario \(index)")
            XCTAssertGreaterThan(outcomes.refused, 100, "scenario \(index)")
        }
    }

    // MARK: Checks

    private struct Outcomes {
        var parsed = 0
        var refused = 0
    }

    /// The error `JSONValue.parse` must throw for `text`.
    @discardableResult
    private func parseError(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue.ParseError {
        do {
            let value = try JSONValue.parse(text)
            XCTFail("parsed \(String(text.prefix(60))) as \(value)", file: file, line: line)
            return JSONValue.ParseError(message: "", line: 0, column: 0)
        } catch let error as JSONValue.ParseError {
            return error
        }
    }

    /// The bytes read as JSON or fail with a `ParseError` at a real place;
    /// what reads round-trips, and the `String` entry point agrees.
    private func checkJSON(_ bytes: [UInt8], _ label: String, _ outcomes: inout Outcomes) {
        let lines = bytes.filter { $0 == UInt8(ascii: "\n") }.count + 1
        do {
            let value = try JSONValue.parse(utf8: bytes)
            outcomes.parsed += 1
            for pretty in [true, false] {
                let text = value.serialized(pretty: pretty)
                XCTAssertEqual(try JSONValue.parse(text), value, "\(label): \(text)")
            }
            XCTAssertEqual(try JSONValue.parse(String(decoding: bytes, as: UTF8.self)), value, label)
        } catch let error as JSONValue.ParseError {
            outcomes.refused += 1
            XCTAssertTrue((1...lines).contains(error.line) && error.column >= 1, "\(label): \(error)")
            if Array(String(decoding: bytes, as: UTF8.self).utf8) == bytes {  // valid UTF-8: the String entry agrees
                XCTAssertThrowsError(try JSONValue.parse(String(decoding: bytes, as: UTF8.self)), label)
            }
        } catch {
            XCTFail("\(label): not a ParseError: \(error)")
        }
    }

    /// The text reads as a scenario (and as schema JSON) or fails with a bad
    /// input problem naming the file and a line.
    private func checkScenario(_ text: String, _ label: String, _ outcomes: inout Outcomes) {
        // libyaml also breaks lines at a lone CR, NEL, LS and PS (YAML 1.1).
        let lines = text.unicodeScalars.filter { ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains($0) }.count + 1
        func check(_ error: RulebenchError) {
            guard case .badInput(let problem) = error else { return XCTFail("\(label): not bad input: \(error)") }
            XCTAssertEqual(problem.file, "fuzz.yaml", label)
            XCTAssertTrue(problem.line.map { (1...lines + 1).contains($0) } ?? false, "\(label): \(problem)")
        }
        do {
            _ = try ScenarioParser.parse(text, file: "fuzz.yaml")
            outcomes.parsed += 1
        } catch {
            outcomes.refused += 1
            check(error)
        }
        do {
            _ = try ScenarioParser.json(text, file: "fuzz.yaml")
        } catch {
            check(error)
        }
    }

    /// The bad-input problem of a scenario text that must not read.
    private func scenarioProblem(_ text: String, file: String = "fuzz.yaml",
                                 sourceFile: StaticString = #filePath, line: UInt = #line) throws -> InputProblem {
        do {
            _ = try ScenarioParser.parse(text, file: file)
        } catch {
            guard case .badInput(let problem) = error else { throw error }
            return problem
        }
        XCTFail("the scenario read", file: sourceFile, line: line)
        return InputProblem("")
    }

    // MARK: Inputs

    static let hostileInput = TestPaths.fixtures.appendingPathComponent("hostile-input")

    /// A saved history as `SavedHistory.json` writes it (one line), with the
    /// shapes it can hold: escapes (a surrogate pair too, as other tools
    /// write it), non-ASCII text, floats, `$table`.
    static let history = #"{"format":"rulebench-history","formatVersion":1,"pack":{"name":"template","version":"1.0","path":"/work/rules/template"},"seed":7,"options":{"length":12,"players":2,"title":"Désert \"rapide\"\n\t\u001f"},"overrides":[{"path":"tokens.p1.square","value":3}],"initialHash":"8c0f3a2b9d4e5f61","cursor":3,"steps":[{"action":"step","params":{"token":"p1"},"hash":"0123456789abcdef"},{"action":"dash","params":{"by":-2,"ratio":0.25,"token":"p2"},"hash":"fedcba9876543210"},{"action":"set","params":{"grid":{"$table":[[1,"a"],[3,{"deep":[1.5e-07,-0.0,true,false,null]}]]},"key":"π ≈ 3.14159 😀 \ud83d\ude00 \u00E9 \/ \\"},"hash":"00ff00ff00ff00ff"}]}"# + "\n"

    /// A fuzz corpus entry as `Reproduction.encode` writes it (pretty).
    static let corpusEntry = """
        {
          "property": "undo-restores",
          "pack": "desert",
          "seed": -9223372036854775808,
          "options": {
            "difficulty": "hard",
            "players": 4
          },
          "steps": [
            {
              "do": {
                "action": "move",
                "params": {
                  "to": [2, 3],
                  "who": "archeologist"
                }
              }
            },
            {
              "undo": 1
            },
            {
              "try": {
                "action": "excavate",
                "params": {}
              }
            },
            {
              "undo": "turn"
            },
            {
              "redo": 2
            }
          ]
        }

        """

    /// Scenarios to mutate: block and flow style, anchors and aliases, tags, quoting.
    static let scenarios = [
        """
        # A dash is two steps
        scenario: A dash is two steps, played in sequence and undone in reverse
        rules: template
        setup:
          seed: 3
          options: { players: 2, length: 5 }
          state: { tokens.p1.square: 4 }
        steps:
          - do: dash
            with: { token: p2 }
            expect:
              state: { tokens.p2.square: 3, moves: 2 }
              subactions: [step, [move, slide], step]
              sounds: [whoosh, step, step]
              animation: { duration: 0.5, conflicts: 0 }
          - undo: 1
            expect:
              state: { tokens.p2.square: 1, moves: 0 }
              invariants: hold
          - redo: 1
          - undo: turn
            expect:
              hash: "0123456789abcdef"
        """,
        """
        scenario: shared values
        rules: ../packs/counter
        setup:
          options:
            board: &board [[1, 2.5, -3], [0x1F, 1e3, 0o7]]
            names: &names { a: 'quoted', b: "double\\n", c: plain text }
        steps:
          - do: step
            with: { token: &p p1, by: *board, names: *names }
            expect:
              state:
                tokens.p1.square: !!int 2
                last: *p
                ratio: !!float 1
                flag: !!bool true
                text: !!str 12
          - do: step
            with: { token: *p }
            expect: { rejected: "end of the track" }
        """,
        """
        scenario: |
          A literal block
          on two lines
        rules: template
        steps:
        - do: step
          with:
            token: p1
          expect:
            error: >
              folded text
            state:
              ? tokens.p1.square
              : 2
        - expect: {state: {a: [1, 2, {b: [3]}], "c.d": null}}
        """,
    ]

    /// Bytes that matter to JSON, for random documents and mutations.
    static let jsonAlphabet = Array(#"{}[]",:\-+.0123456789eEtrufalsn u/bfDdCc"#.utf8) + [0x0A, 0x09, 0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xED, 0xF0, 0xFF]

    /// Bytes that matter to YAML, for mutations.
    static let yamlAlphabet = Array("{}[],:-?&*!|>'\"#%@` \n\t~.0123456789xabe".utf8) + [0x00, 0x0D, 0xC2, 0x85, 0xE2, 0x80, 0xA8, 0xEF, 0xBB, 0xBF]

    /// Pieces of scenario YAML, for random documents.
    static let yamlTokens = [
        "scenario: ", "rules: ", "template", "steps:", "setup:", "options:", "state:", "seed: ", "\n", "\n  ", "\n    ", "- ",
        "do: ", "with: ", "undo: ", "redo: ", "expect: ", "rejected: ", "subactions: ", "sounds: ", "animation: ", "hash: ",
        "{", "}", "[", "]", ", ", ": ", "? ", "&a ", "*a", "&b ", "*b", "!!str ", "!!int ", "!!float ", "!!binary ", "!x ",
        "'", "\"", "\\", "#", "| ", "> ", "1", "-2", "0x1F", "0o7", "1e3", ".inf", ".nan", "~", "null", "true", "p1", "x.y",
        "<<: ", "%YAML 1.2\n", "---\n", "...\n", "\t", "é", "\u{0}", "\u{85}", "99999999999999999999",
    ]

    /// A scenario with anchors a0...a(levels-1) in `setup.options` or in
    /// `expect.state`: a0 a list of `width` strings, each next one a list of
    /// `width` aliases of the one before (a0 is on line 5 or 6).
    static func laughs(levels: Int, width: Int, inOptions: Bool) -> String {
        let indent = String(repeating: " ", count: inOptions ? 4 : 8)
        var anchors = [indent + "a0: &a0 [" + Array(repeating: "lol", count: width).joined(separator: ", ") + "]"]
        for level in 1..<levels {
            anchors.append(indent + "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: width).joined(separator: ", ") + "]")
        }
        let head = ["scenario: laughs", "rules: template"]
        let lines = inOptions
            ? head + ["setup:", "  options:"] + anchors + ["steps:", "  - expect: { state: { moves: 0 } }"]
            : head + ["steps:", "  - expect:", "      state:"] + anchors
        return lines.joined(separator: "\n") + "\n"
    }

    private static func randomJSONByte(_ random: inout SplitMix64) -> UInt8 {
        switch random.below(100) {
        case 0..<60: return random.pick(jsonAlphabet)
        case 60..<85: return UInt8(0x20 + random.below(0x5F))
        default: return UInt8(random.below(256))
        }
    }

    /// A random value of every kind JSON holds, strings with any character.
    private static func randomJSONValue(_ random: inout SplitMix64, depth: Int) -> JSONValue {
        switch random.below(depth > 4 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(random.chance(50))
        case 2: return .int(Int64(bitPattern: random.next()) >> random.below(64))
        case 3:
            let double = Double(bitPattern: random.next())
            return .double(double.isFinite ? double : Double(random.below(1_000)) / 8)
        case 4: return .string(randomString(&random))
        case 5: return .array((0..<random.below(5)).map { _ in randomJSONValue(&random, depth: depth + 1) })
        default:
            // Each name once: a name given twice is a parse error (ParserPropertyTests+RoundTrip).
            var seen = Set<String>()
            let members = (0..<random.below(5)).map { _ in (randomString(&random), randomJSONValue(&random, depth: depth + 1)) }
            return .object(members.filter { seen.insert($0.0).inserted })
        }
    }

    private static func randomString(_ random: inout SplitMix64) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<random.below(8) {
            let pools: [ClosedRange<UInt32>] = [0...0x7F, 0...0x1F, 0x80...0x7FF, 0xE000...0xFFFF, 0x10000...0x10FFFF]
            let pool = random.pick(pools)
            let value = pool.lowerBound + UInt32(random.below(Int(pool.upperBound - pool.lowerBound) + 1))
            scalars.append(Unicode.Scalar(value) ?? "?")
        }
        return String(scalars)
    }
}

/// SplitMix64 (the fuzzer's `FuzzRandom`), so the property tests try the
/// same cases on every run and machine, with the draws they were written
/// with (`below` by remainder, `chance` in percent).
private struct SplitMix64 {
    private var generator: FuzzRandom

    init(seed: UInt64) { generator = FuzzRandom(seed: seed) }

    mutating func next() -> UInt64 { generator.next() }

    /// A number in 0..<bound (bound > 0).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    mutating func pick<Element>(_ items: [Element]) -> Element { items[below(items.count)] }
}

/// Byte-level damage of a valid document, the kinds a cut download, a bad
/// disk or a hand edit leave: bit flips, replaced, inserted and deleted
/// bytes, truncation, and slices copied elsewhere.
private enum Mutator {
    static func mutate(_ original: [UInt8], _ random: inout SplitMix64, alphabet: [UInt8]) -> [UInt8] {
        var bytes = original
        for _ in 0...random.below(3) {
            let at = random.below(bytes.count + 1)
            switch random.below(6) {
            case 0 where at < bytes.count:
                bytes[at] ^= UInt8(1 << random.below(8))
            case 1 where at < bytes.count:
                bytes[at] = random.pick(alphabet)
            case 2:
                bytes.insert(contentsOf: (0...random.below(4)).map { _ in random.pick(alphabet) }, at: at)
            case 3:
                bytes.removeSubrange(at..<min(bytes.count, at + 1 + random.below(8)))
            case 4:
                bytes.removeSubrange(at...)
            default:
                let start = random.below(bytes.count + 1)
                let slice = bytes[start..<min(bytes.count, start + random.below(64))]
                bytes.insert(contentsOf: Array(slice), at: at)
            }
        }
        return bytes
    }
}
