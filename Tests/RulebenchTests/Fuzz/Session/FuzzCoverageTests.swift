import XCTest
@testable import Rulebench

/// `fuzz --coverage`: the lines of the pack's Lua that runs reach, written
/// as an LCOV tracefile, with per-action counts and what never ran.
final class FuzzCoverageTests: XCTestCase {
    static let dead = EngineFixtures.folder.deletingLastPathComponent().appendingPathComponent("coverage/dead").path

    private func session(_ pack: String, runs: Int = 20, kernelLines: Bool = false,
                         search: SearchStrategy = .guided) -> Fuzzer {
        var options = Fuzzer.Options(pack: pack)
        options.runs = runs
        options.depth = 30
        options.coverage = true
        options.search = search
        options.configuration.coversKernelLines = kernelLines
        options.configuration.printHandler = { _ in }
        options.configuration.rulesDirectory = EngineFixtures.repository.appendingPathComponent("rules")
        return Fuzzer(options: options)
    }

    /// One LCOV record as a consumer reads it.
    struct Record {
        var file = ""
        var hits: [Int: Int] = [:]
        var found = 0, hit = 0
    }

    /// A reader of the LCOV format (TN, SF, DA, LH, LF, end_of_record), strict
    /// about what it does not know, as `lcov` and `genhtml` are.
    static func parse(_ text: String) throws -> [Record] {
        var records: [Record] = []
        var current: Record?
        for line in text.split(separator: "\n").map(String.init) {
            let (tag, value) = line.firstIndex(of: ":").map { (String(line[..<$0]), String(line[line.index(after: $0)...])) } ?? (line, "")
            switch tag {
            case "TN": XCTAssertNil(current)
            case "SF": current = Record(file: value)
            case "DA":
                let parts = value.split(separator: ",").compactMap { Int($0) }
                guard parts.count == 2, current?.hits[parts[0]] == nil else { throw CocoaError(.coderReadCorrupt) }
                current?.hits[parts[0]] = parts[1]
            case "LH": current?.hit = Int(value) ?? -1
            case "LF": current?.found = Int(value) ?? -1
            case "end_of_record":
                guard let record = current else { throw CocoaError(.coderReadCorrupt) }
                records.append(record)
                current = nil
            default: throw CocoaError(.coderReadCorrupt)
            }
        }
        XCTAssertNil(current, "the last record is not closed")
        return records
    }

    func testTheTracefileReadsBackAndAddsUp() throws {
        let fuzzer = session("template")
        let (reports, _) = fuzzer.run()
        XCTAssertTrue(reports.isEmpty)
        let report = try XCTUnwrap(try fuzzer.coverage())
        let records = try Self.parse(report.lcov())
        XCTAssertEqual(records.map(\.file), records.map(\.file).sorted())
        XCTAssertTrue(records.contains { $0.file.hasSuffix("rules/template/actions/step.lua") }, "\(records.map(\.file))")
        for record in records {
            XCTAssertEqual(record.found, record.hits.count, record.file)
            XCTAssertEqual(record.hit, record.hits.values.filter { $0 > 0 }.count, record.file)
        }
        let step = try XCTUnwrap(records.first { $0.file.hasSuffix("actions/step.lua") })
        XCTAssertGreaterThan(step.hit, 3)
        // Per action: the fuzzer's own counts.
        let counts = try XCTUnwrap(report.actions["step"])
        XCTAssertGreaterThan(counts.performed, 10)
        XCTAssertGreaterThan(counts.undone, 0)
        XCTAssertGreaterThan(counts.redone, 0)
    }

    func testLinesAndFilesNeverReachedAreNamed() throws {
        let fuzzer = session(Self.dead)
        _ = fuzzer.run()
        let report = try XCTUnwrap(try fuzzer.coverage())
        let never = try XCTUnwrap(report.files.first { $0.key.hasSuffix("actions/never.lua") }?.value)
        // The chunk itself runs (the pack loads it); its apply never does.
        XCTAssertEqual(never.hits[6] ?? 0, 0)
        XCTAssertEqual(never.unreached, [6])
        let go = try XCTUnwrap(report.files.first { $0.key.hasSuffix("actions/go.lua") }?.value)
        XCTAssertGreaterThan(go.hits[7] ?? 0, 0)
        XCTAssertEqual(report.actions["never"]?.performed ?? 0, 0)
        XCTAssertTrue(report.summary.contains("never ran in"), report.summary)
        XCTAssertTrue(report.summary.contains("actions/never.lua: lines "), report.summary)
        XCTAssertEqual(CoverageReport.ranges([3, 4, 5, 9, 12, 13]), "3-5, 9, 12-13")
    }

    /// The line hook is set only while the kernel has a rule call open
    /// (engine.lua brackets each with rulecover). A place that calls rule
    /// code without the brackets would lose its lines: the counts must be
    /// those of a hook left on in the kernel's own code too.
    func testBracketedRuleCallsCountEveryLineAHookEverywhereCounts() throws {
        for pack in ["template", "cards", "desert", "set", EngineFixtures.repository.appendingPathComponent("Benchmarks/packs/chess").path] {
            // 3 runs of 30 steps reach every action of each pack; the line
            // hook everywhere (kernel lines too) is the costly side.
            let bracketed = session(pack, runs: 3, search: .uniform)
            let everywhere = session(pack, runs: 3, kernelLines: true, search: .uniform)
            _ = bracketed.run()
            _ = everywhere.run()
            let expected = try XCTUnwrap(try everywhere.coverage())
            let report = try XCTUnwrap(try bracketed.coverage())
            XCTAssertGreaterThan(expected.files.values.reduce(0) { $0 + $1.hits.count }, 20, pack)
            XCTAssertEqual(report.lcov(), expected.lcov(), pack)
        }
    }

    /// With `--coverage`, every run of the guided search is covered (it
    /// otherwise covers one fresh run in four): each perform runs its
    /// action's file, so some line there ran at least as often.
    func testAGuidedSessionCoversEveryRunForTheReport() throws {
        let fuzzer = session("cards", runs: 12)
        _ = fuzzer.run()
        let report = try XCTUnwrap(try fuzzer.coverage())
        var checked = 0
        for (action, counts) in report.actions where counts.performed > 0 {
            let file = try XCTUnwrap(report.files.first { $0.key.hasSuffix("actions/\(action).lua") }?.value, action)
            XCTAssertGreaterThanOrEqual(file.hits.values.max() ?? 0, counts.performed, action)
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 2)
    }

    func testCoverageOffCollectsNothingAndLeavesTheBudgetAlone() throws {
        var options = Fuzzer.Options(pack: "template")
        options.runs = 3
        options.configuration.rulesDirectory = EngineFixtures.repository.appendingPathComponent("rules")
        let fuzzer = Fuzzer(options: options)
        _ = fuzzer.run()
        XCTAssertNil(try fuzzer.coverage())
    }
}
