import Foundation
import XCTest
@testable import Rulebench

/// What the writers emit reads back byte for byte: every Unicode scalar
/// value, in batches, through the scenario writer (play's `save`, fuzz
/// reproductions, `solve --scenario`) and the scenario reader, and through
/// the JSON writer and reader (histories, corpus entries). Strings are
/// compared as scalars, never with `==`, which takes canonically
/// equivalent strings (`é` and `e` + U+0301) for equal.
extension ParserPropertyTests {
    /// Every scalar value (U+0000 to U+10FFFF without the surrogates), in batches.
    static func everyScalarInBatches(of size: Int) -> [[Unicode.Scalar]] {
        let all = (UInt32(0)...0x10FFFF).compactMap(Unicode.Scalar.init)
        return stride(from: 0, to: all.count, by: size).map { Array(all[$0..<min($0 + size, all.count)]) }
    }

    private func string(_ scalars: some Sequence<Unicode.Scalar>) -> String {
        String(String.UnicodeScalarView(scalars))
    }

    private func assertSameScalars(_ read: String?, _ written: String, _ what: String,
                                   file: StaticString = #filePath, line: UInt = #line) {
        guard let read else { return XCTFail("\(what): nothing read back", file: file, line: line) }
        guard !read.unicodeScalars.elementsEqual(written.unicodeScalars) else { return }
        let first = zip(read.unicodeScalars, written.unicodeScalars).first { $0 != $1 }
            .map { "U+\(String($1.value, radix: 16, uppercase: true)) read as U+\(String($0.value, radix: 16, uppercase: true))" }
        XCTFail("\(what): \(first ?? "\(written.unicodeScalars.count) scalars read as \(read.unicodeScalars.count)")",
                file: file, line: line)
    }

    /// A scenario performing `do: x` with the value as a param and, in a
    /// second param, as a param name (shorter: names are written as keys).
    private func scenarioText(value: String, key: String) -> String {
        let params = ScenarioYAML.table(["v": .string(value), key: .int(1)])
        return "scenario: \(ScenarioYAML.value(.string(value)))\nrules: x\nsteps:\n  - do: x\n    with: \(ScenarioYAML.value(params))\n"
    }

    func testEveryScalarReadsBackFromTheScenarioWriter() throws {
        for batch in Self.everyScalarInBatches(of: 8192) {
            let value = string(batch)
            let key = string(batch.prefix(500)) + "k"
            let scenario: Scenario
            do {
                scenario = try ScenarioParser.parse(scenarioText(value: value, key: key), file: "round.yaml")
            } catch {
                return XCTFail("batch from U+\(String(batch[0].value, radix: 16)): \(error)")
            }
            assertSameScalars(scenario.title, value, "the title, batch from U+\(String(batch[0].value, radix: 16))")
            guard case .perform(_, let params) = scenario.steps.first?.operation else { return XCTFail("no do step") }
            guard case .string(let read)? = params["v"] else { return XCTFail("no param v") }
            assertSameScalars(read, value, "a param, batch from U+\(String(batch[0].value, radix: 16))")
            assertSameScalars(params.keys.first { $0 != "v" }, key, "a param name")
        }
    }

    /// The characters libyaml treats specially, each alone and between
    /// spaces (YAML trims white space at a line's ends), and a key past
    /// libyaml's 1,024 characters for an implicit key. A scalar that starts
    /// with U+FEFF lost it in Yams (LeadingByteOrderMarks puts it back).
    func testYAMLLineBreaksByteOrderMarksAndLongKeysReadBack() throws {
        let special: [String] = ["\u{FEFF}", "\u{FEFF}\u{FEFF}x", "\u{85}", "\u{2028}", "\u{2029}", "\u{0}", "\u{7F}", "\u{9F}", "\u{FFFE}",
                                 "\u{FFFF}", "\r\n", " \t", "# not a comment", "\"'\\", "e\u{301}"]
        for text in special + special.map({ " \($0) " }) + [String(repeating: "long ", count: 2_000)] {
            let scenario = try ScenarioParser.parse(scenarioText(value: text, key: text + "k"), file: "special.yaml")
            guard case .perform(_, let params) = scenario.steps.first?.operation else { return XCTFail("no do step") }
            guard case .string(let read)? = params["v"] else { return XCTFail("no param v for \(text.debugDescription)") }
            assertSameScalars(read, text, "value \(text.debugDescription)")
            assertSameScalars(params.keys.first { $0 != "v" }, text + "k", "key \(text.debugDescription)")
        }
    }

    func testEveryScalarReadsBackFromTheJSONWriter() throws {
        for batch in Self.everyScalarInBatches(of: 16384) {
            let text = string(batch)
            let written = JSONValue.object([(text, .string(text))])
            for pretty in [true, false] {
                let read = try JSONValue.parse(utf8: Array(written.serialized(pretty: pretty).utf8))
                guard case .object(let members) = read, members.count == 1, case .string(let value) = members[0].1 else {
                    return XCTFail("batch from U+\(String(batch[0].value, radix: 16)) did not read back as one member")
                }
                assertSameScalars(members[0].0, text, "a member name, batch from U+\(String(batch[0].value, radix: 16))")
                assertSameScalars(value, text, "a string, batch from U+\(String(batch[0].value, radix: 16))")
            }
        }
    }
}
