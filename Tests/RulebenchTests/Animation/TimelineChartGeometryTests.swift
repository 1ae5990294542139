import Foundation
import XCTest
@testable import Rulebench

/// The SVG chart of every step of every scenario in the repository, read
/// back as geometry: no two pieces of text overlap and nothing leaves the
/// canvas. A text's box is estimated from its font size and character count
/// (0.6 em a character, the font size tall), as a reader's eye would see it.
final class TimelineChartGeometryTests: XCTestCase {
    struct Box: CustomStringConvertible {
        let text: String
        let x0, y0, x1, y1: Double

        func overlaps(_ other: Box) -> Bool { x0 < other.x1 && other.x0 < x1 && y0 < other.y1 && other.y0 < y1 }
        var description: String { "\"\(text)\" [\(Int(x0)),\(Int(y0))–\(Int(x1)),\(Int(y1))]" }
    }

    /// The canvas size and the box of every `<text>` of an SVG written by TimelineSVG.
    static func layout(_ svg: String) -> (width: Double, height: Double, texts: [Box], shapes: [Box]) {
        func attribute(_ name: String, in tag: String) -> String? {
            guard let range = tag.range(of: " \(name)=\"") else { return nil }
            let rest = tag[range.upperBound...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }
        func number(_ name: String, in tag: String) -> Double? { attribute(name, in: tag).flatMap(Double.init) }
        func unescape(_ text: String) -> String {
            text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
        var width = 0.0, height = 0.0
        var texts: [Box] = [], shapes: [Box] = []
        for line in svg.split(separator: "\n").map(String.init) {
            if line.hasPrefix("<svg ") {
                width = number("width", in: line) ?? 0
                height = number("height", in: line) ?? 0
            } else if line.hasPrefix("<text "), let close = line.firstIndex(of: ">"), let end = line.range(of: "</text>") {
                let tag = String(line[..<close])
                let content = unescape(String(line[line.index(after: close)..<end.lowerBound]))
                let size = number("font-size", in: tag) ?? 12
                let x = number("x", in: tag) ?? 0, y = number("y", in: tag) ?? 0
                let w = Double(content.count) * size * 0.6
                let x0: Double
                switch attribute("text-anchor", in: tag) {
                case "end": x0 = x - w
                case "middle": x0 = x - w / 2
                default: x0 = x
                }
                texts.append(Box(text: content, x0: x0, y0: y - 0.8 * size, x1: x0 + w, y1: y + 0.2 * size))
            } else if line.hasPrefix("<rect "), let x = number("x", in: line), let y = number("y", in: line),
                      let w = number("width", in: line), let h = number("height", in: line) {
                shapes.append(Box(text: "rect", x0: x, y0: y, x1: x + w, y1: y + h))
            }
        }
        return (width, height, texts, shapes)
    }

    /// Problems with one chart: overlapping texts, texts or shapes off the canvas.
    static func problems(in svg: String) -> [String] {
        let chart = layout(svg)
        var problems: [String] = []
        if chart.width <= 0 || chart.height <= 0 { problems.append("no canvas size") }
        for box in chart.texts + chart.shapes where box.x0 < 0 || box.y0 < 0 || box.x1 > chart.width || box.y1 > chart.height {
            problems.append("\(box) leaves the \(Int(chart.width))×\(Int(chart.height)) canvas")
        }
        for (i, a) in chart.texts.enumerated() {
            for b in chart.texts[(i + 1)...] where a.overlaps(b) { problems.append("\(a) overlaps \(b)") }
        }
        return problems
    }

    func testEveryScenarioChartKeepsItsLabelsApartAndOnTheCanvas() throws {
        let scenarios = EngineFixtures.repository.appendingPathComponent("scenarios")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: scenarios, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "yaml" }.sorted { $0.path < $1.path }
        XCTAssertGreaterThan(files.count, 10)
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        configuration.rulesDirectory = EngineFixtures.repository.appendingPathComponent("rules")
        var charts = 0
        for file in files {
            let scenario = try ScenarioParser.parse(contentsOf: file, displayPath: file.lastPathComponent)
            let steps = try StepAnimation.every(scenario, directory: file.deletingLastPathComponent(), configuration: configuration)
            for step in steps where !step.animations.isEmpty {
                // The title `rulebench timeline` gives, with the scenario's full path.
                let svg = step.timeline.svg(title: "\(file.path) step \(step.number): \(step.summary)", undo: step.isUndo)
                charts += 1
                let problems = Self.problems(in: svg)
                XCTAssertEqual(problems, [], "\(file.lastPathComponent) step \(step.number)")
            }
        }
        XCTAssertGreaterThan(charts, 50)
    }

    /// The cases the repo's scenarios may not reach: many sounds at one
    /// instant, long names, a sound at the very end, conflicts, frame runs.
    func testCrowdedChartsStayReadable() {
        func tween(_ target: String, _ start: Double, _ duration: Double) -> AnimationPlan {
            .tween(.init(target: target, property: "position", from: [0, 0], to: [3, 4], duration: duration, delay: start))
        }
        let long = String(repeating: "a_very_long_target_name_", count: 5)
        let plan = AnimationPlan.parallel([
            .sound(.init(name: "whoosh")), .sound(.init(name: "jetpack_ignition_roar")), .sound(.init(name: "passenger_grunt")),
            .sound(.init(name: "land")), .sound(.init(name: "a_sound_at_the_very_end_of_the_chart", delay: 2)),
            .cue(.init(name: "shake", delay: 1)), .cue(.init(name: "flash", delay: 1)),
            tween("p1", 0, 1), tween("p1", 0.5, 1), tween("p1", 0.75, 0.5), tween(long, 0, 2),
            .frames(.init(target: "p1", property: "sprite", frames: [1, 2, 3, 4, 5, 6], fps: 6)),
        ])
        let timeline = Timeline(plan: plan, actionPath: "jetpack")
        XCTAssertEqual(timeline.conflicts.count, 3)
        let title = String(repeating: "A scenario with a remarkably long title that goes on ", count: 6)
        for undo in [false, true] {
            let svg = timeline.svg(title: title, undo: undo)
            XCTAssertEqual(Self.problems(in: svg), [])
            XCTAssertTrue(svg.contains("<title>\(title)</title>"), "the full title on hover")
            XCTAssertEqual(svg.contains("undo: played backwards"), undo)
        }
        let svg = timeline.svg(title: nil)
        // Four sounds at 0 stack: four labels, each on its own line.
        let texts = Self.layout(svg).texts
        let names = ["whoosh", "jetpack_ignition_roar", "passenger_grunt", "land"]
        XCTAssertEqual(Set(texts.filter { names.contains($0.text) }.map(\.y0)).count, 4)
        // Conflicting runs stay visible: three bars of p1.position in three lanes.
        XCTAssertTrue(svg.contains("stroke=\"#d9342b\""), "conflicts outlined")
        // From → to on the bars, and a legend.
        XCTAssertTrue(texts.contains { $0.text.contains("{0, 0} → {3, 4}") }, "\(texts)")
        XCTAssertTrue(texts.contains { $0.text == "colours:" })
        XCTAssertTrue(texts.contains { $0.text == "jetpack" })
        XCTAssertTrue(texts.contains { $0.text.hasPrefix("frame run") })
    }
}
