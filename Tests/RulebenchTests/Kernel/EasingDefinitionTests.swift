import Foundation
import XCTest
@testable import Rulebench

/// The easing curves are defined once, `Easing` (Kernel/AnimationPlan.swift):
/// the kernel takes their names from the protocol table (`K.WORDS.easing`,
/// which `KernelWordsTests` and the kernel's protocol test hold to `Easing`),
/// and the board module that draws them (Sources/RulebenchBoard/Page/
/// scene.js) writes each curve as an arrow function, checked here against
/// `Easing.apply` at sampled times: a curve the page draws differently, or
/// one only one side has, fails.
final class EasingDefinitionTests: XCTestCase {
    func testTheBoardModuleDrawsEveryCurveAsTheLibraryComputesIt() throws {
        let source = try String(contentsOf: TestPaths.repository("Sources/RulebenchBoard/Page/scene.js"), encoding: .utf8)
        let curves = try Self.curves(in: source)
        XCTAssertEqual(Set(curves.keys), Set(Easing.allCases.map(\.rawValue)), "scene.js's easings and Easing name the same curves")
        for (name, expression) in curves {
            let easing = try XCTUnwrap(Easing(rawValue: name))
            for step in 0...20 {
                let t = Double(step) / 20
                var parser = Expression(text: expression, t: t)
                let drawn = try parser.evaluate()
                XCTAssertEqual(drawn, easing.apply(t), accuracy: 1e-12, "\(name) at \(t): scene.js \(expression)")
            }
        }
    }

    func testTheEvaluatorReadsWhatTheCurvesAreWrittenWith() throws {
        var parser = Expression(text: "(t < 0.5 ? 2 * t * t : 1 - 2 * (1 - t) * (1 - t))", t: 0.75)
        XCTAssertEqual(try parser.evaluate(), 0.875, accuracy: 1e-12)
        var wrong = Expression(text: "t ** 2", t: 0.5)
        XCTAssertThrowsError(try wrong.evaluate())
    }

    /// `name: (t) => EXPRESSION,` lines of the `easings` object.
    static func curves(in source: String) throws -> [String: String] {
        guard let start = source.range(of: "export const easings = {"),
              let end = source.range(of: "\n};", range: start.upperBound..<source.endIndex) else {
            throw Failure("scene.js has no `export const easings = { ... };`")
        }
        var out: [String: String] = [:]
        for line in source[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let arrow = parts[1].range(of: "(t) =>") else { continue }
            var body = parts[1][arrow.upperBound...].trimmingCharacters(in: .whitespaces)
            if body.hasSuffix(",") { body.removeLast() }
            out[parts[0].trimmingCharacters(in: .whitespaces)] = body
        }
        return out
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Arithmetic on `t` as the curves are written: numbers, `t`, `+ - * /`,
    /// parentheses, `<` and `? :`. Anything else is an error.
    struct Expression {
        let characters: [Character]
        let t: Double
        var index = 0

        init(text: String, t: Double) {
            characters = Array(text.filter { !$0.isWhitespace })
            self.t = t
        }

        mutating func evaluate() throws -> Double {
            let value = try conditional()
            guard index == characters.count else { throw Failure("unexpected '\(characters[index])'") }
            return value
        }

        private mutating func take(_ c: Character) -> Bool {
            guard index < characters.count, characters[index] == c else { return false }
            index += 1
            return true
        }

        private mutating func conditional() throws -> Double {
            let left = try sum()
            guard take("<") else { return left }
            let right = try sum()
            guard take("?") else { throw Failure("a comparison outside `? :`") }
            let yes = try conditional()
            guard take(":") else { throw Failure("`?` without `:`") }
            let no = try conditional()
            return left < right ? yes : no
        }

        private mutating func sum() throws -> Double {
            var value = try product()
            while true {
                if take("+") { value += try product() } else if take("-") { value -= try product() } else { return value }
            }
        }

        private mutating func product() throws -> Double {
            var value = try factor()
            while true {
                if index + 1 < characters.count, characters[index] == "*", characters[index + 1] == "*" { throw Failure("`**`") }
                if take("*") { value *= try factor() } else if take("/") { value /= try factor() } else { return value }
            }
        }

        private mutating func factor() throws -> Double {
            if take("(") {
                let value = try conditional()
                guard take(")") else { throw Failure("unclosed parenthesis") }
                return value
            }
            if take("-") { return -(try factor()) }
            if take("t") { return t }
            var digits = ""
            while index < characters.count, characters[index].isNumber || characters[index] == "." {
                digits.append(characters[index])
                index += 1
            }
            guard let number = Double(digits) else { throw Failure("expected a number at \(index)") }
            return number
        }
    }
}
