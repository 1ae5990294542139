import Foundation

/// The run report as JUnit XML, which CI systems display as test results.
///
/// One `<testsuite>` per folder of scenario files and one `<testcase>` per
/// file; a failed scenario has a `<failure>`, a file that could not be used an
/// `<error>` (so bad input counts in `errors`, failed checks in `failures`).
///
/// Shaped for what reads it: times have at most three decimals (Jenkins'
/// xunit schema refuses more), a test case names its `file` and, when it
/// failed or is bad input, the `line` to annotate (GitHub's JUnit report
/// actions put their annotation there), and a classname never starts with
/// a dot (an absolute path would give one).
public enum JUnitReport {
    /// The XML document.
    public static func render(_ run: RunReport) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"rulebench run\" tests=\"\(run.scenarios.count)\" failures=\"\(run.failedCount)\""
            + " errors=\"\(run.badInputCount)\" time=\"\(seconds(run.duration))\">\n"
        for (folder, scenarios) in suites(run.scenarios) {
            let failures = scenarios.filter { $0.status == .failed }.count
            let errors = scenarios.filter { $0.status == .badInput }.count
            let time = scenarios.reduce(0) { $0 + $1.duration }
            xml += "  <testsuite name=\"\(escape(folder))\" tests=\"\(scenarios.count)\" failures=\"\(failures)\""
                + " errors=\"\(errors)\" skipped=\"0\" time=\"\(seconds(time))\">\n"
            for scenario in scenarios { xml += testcase(scenario) }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    /// Scenarios grouped by folder, folders in order of first appearance.
    private static func suites(_ scenarios: [ScenarioReport]) -> [(String, [ScenarioReport])] {
        var order: [String] = []
        var groups: [String: [ScenarioReport]] = [:]
        for scenario in scenarios {
            let folder = (scenario.file as NSString).deletingLastPathComponent
            let name = folder.isEmpty ? "." : folder
            if groups[name] == nil { order.append(name) }
            groups[name, default: []].append(scenario)
        }
        return order.map { ($0, groups[$0]!) }
    }

    private static func testcase(_ scenario: ScenarioReport) -> String {
        let file = scenario.file
        let base = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let name = scenario.title ?? base
        var xml = "    <testcase name=\"\(escape(name))\" classname=\"\(escape(classname(file)))\" file=\"\(escape(file))\""
        if let line = line(scenario) { xml += " line=\"\(line)\"" }
        xml += " time=\"\(seconds(scenario.duration))\""
        switch scenario.status {
        case .passed:
            return xml + "/>\n"
        case .failed:
            xml += ">\n"
            let failure = scenario.failure
            let first = failure?.mismatches.first
            var message = failure.map { "\($0.step == 0 ? "setup" : "step \($0.step)") (line \($0.location.line)): " } ?? ""
            message += first?.description ?? "failed"
            let body = failure.map { TextReport.details($0, indent: "").joined(separator: "\n") } ?? ""
            xml += "      <failure message=\"\(escape(message))\" type=\"failed\">\(escape(body, inContent: true))</failure>\n"
        case .badInput:
            xml += ">\n"
            let text = scenario.problem?.description ?? "\(file): cannot be used"
            xml += "      <error message=\"\(escape(text))\" type=\"bad-input\">\(escape(text, inContent: true))</error>\n"
        }
        return xml + "    </testcase>\n"
    }

    /// Seconds with three decimals: the most Jenkins' xunit schema takes.
    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    /// The file's path without its extension, folders joined by dots, and no
    /// leading dots (from `/abs/path` or `../up`): `scenarios.template.dash`.
    static func classname(_ file: String) -> String {
        let dotted = (file as NSString).deletingPathExtension.split(separator: "/")
            .filter { $0 != "." && $0 != ".." }.joined(separator: ".")
        let trimmed = dotted.drop { $0 == "." }
        return trimmed.isEmpty ? "scenario" : String(trimmed)
    }

    /// The line a CI annotation should point at: where the first failed check
    /// is written (else its step), or where a bad file went wrong.
    static func line(_ scenario: ScenarioReport) -> Int? {
        switch scenario.status {
        case .passed:
            return nil
        case .failed:
            guard let failure = scenario.failure else { return nil }
            let line = failure.mismatches.first?.location?.line ?? failure.location.line
            return line > 0 ? line : nil
        case .badInput:
            guard let line = scenario.problem?.line, line > 0 else { return nil }
            return line
        }
    }

    /// Text escaped for XML (`XMLText`).
    static func escape(_ text: String, inContent: Bool = false) -> String {
        XMLText.escape(text, inContent: inContent)
    }
}
