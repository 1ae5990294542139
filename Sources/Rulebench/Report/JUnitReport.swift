import Foundation

/// The run report as JUnit XML, which CI systems display as test results.
///
/// One `<testsuite>` per folder of scenario files and one `<testcase>` per
/// file; a failed scenario has a `<failure>`, a file that could not be used an
/// `<error>` (so bad input counts in `errors`, failed checks in `failures`).
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
        let classname = ((file as NSString).deletingPathExtension).replacingOccurrences(of: "/", with: ".")
        let name = scenario.title ?? base
        var xml = "    <testcase name=\"\(escape(name))\" classname=\"\(escape(classname))\" file=\"\(escape(file))\""
            + " time=\"\(seconds(scenario.duration))\""
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

    private static func seconds(_ value: Double) -> String { String(format: "%.4f", value) }

    /// Text escaped for XML attributes, or for element content when `inContent`
    /// (where line breaks stay literal); characters XML 1.0 cannot hold become U+FFFD.
    static func escape(_ text: String, inContent: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += inContent ? "\n" : "&#10;"
            case "\t": out += "&#9;"
            case "\r": out += "&#13;"
            default:
                let v = scalar.value
                let allowed = (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v) || (0x10000...0x10FFFF).contains(v)
                out.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
        return out
    }
}
