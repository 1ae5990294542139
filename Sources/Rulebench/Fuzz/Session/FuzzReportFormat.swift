import Foundation

/// The report `rulebench fuzz --json` prints: its format's name and
/// version, the blame as data, and the whole report (`render`).
///
/// The report is one JSON object: `format` ("rulebench-fuzz"),
/// `formatVersion`, `rulebench` (the version that wrote it), `pack`, `seed`,
/// `shard`, `runs`, `steps`, `seconds` (the whole session), `fuzzingSeconds`
/// and `shrinkingSeconds` (its two parts), `stepsPerSecond` (of fuzzing), `interrupted`,
/// `duplicates` and `findings`. docs/scenarios.md ("Machine-readable reports")
/// describes every field.
public enum FuzzReportFormat {
    /// What `format` says: the report's kind.
    public static let format = "rulebench-fuzz"
    /// What `formatVersion` says; raised when a field changes meaning or goes away.
    public static let formatVersion: Int64 = 1

    /// A finding's blame as data: `{ "action": "jetpack > move", "file":
    /// "rules/desert/actions/move.lua", "line": 31 }`, each part present when
    /// known; null when nothing is blamed. The finding's `blame` keeps the
    /// sentence.
    public static func blamed(_ blame: Blame?) -> JSONValue {
        var members: [(String, JSONValue)] = []
        if let action = blame?.action, !action.isEmpty { members.append(("action", .string(action))) }
        if let location = blame?.location {
            members.append(("file", .string(location.file)))
            members.append(("line", .int(Int64(location.line))))
        }
        return members.isEmpty ? .null : .object(members)
    }

    /// The report of a fuzz session, as `fuzz --json` prints it: the
    /// session (`pack`, `seed`, its shard, counts, time, whether it was
    /// `interrupted`) and each finding with the scenario file it was
    /// written to (`scenarios`) and the command that finds it again.
    public static func render(pack: String, seed: UInt64, progress: Fuzzer.Progress, reports: [Fuzzer.Report],
                              scenarios written: [FuzzProgram: URL], fuzzer: Fuzzer, interrupted: Bool) -> String {
        let findings = JSONValue.array(reports.map { report in
            let counts = Reproduction.stepCounts(of: report)
            var members: [(String, JSONValue)] = [
                ("property", .string(report.finding.property.rawValue)),
                ("message", .string(report.finding.message)),
                ("step", .int(Int64(report.finding.stepIndex + 1))),
                ("blame", report.finding.blame.map { .string($0) } ?? .null),
                ("blamed", blamed(report.finding.blamed)),
                ("differences", .array(report.finding.differences.prefix(10).map {
                    .object([("path", .string($0.path)), ("before", .string($0.before)), ("after", .string($0.after))])
                })),
                ("originalSteps", .int(Int64(counts.original))),
                ("shrunkSteps", .int(Int64(counts.shrunk))),
                ("shrinkSeconds", .double(report.shrinkSeconds)),
                ("shrinkCandidates", .int(Int64(report.shrinkAttempts))),
                ("shrinkCandidatesPerSecond", report.shrinkSeconds > 0 ? .double(Double(report.shrinkAttempts) / report.shrinkSeconds) : .null),
                ("shrink", .string(report.shrinkStatus.rawValue)),
                ("stepsToDetection", .int(Int64(report.stepsToDetection))),
                ("secondsToDetection", .double(report.secondsToDetection)),
                ("instancesShrunk", .int(Int64(report.instancesShrunk))),
            ]
            if let file = written[report.shrunk] { members.append(("scenario", .string(file.path))) }
            switch report.freshStart {
            case .fails?: members.append(("freshStart", .string("fails")))
            case .passes(let outcome)?:
                members.append(("freshStart", .string("passes")))
                members.append(("freshStartOutcome", .string(outcome)))
            case nil: break
            }
            // A corpus replay was not found by this session: it has no origin here.
            if report.shrinkStatus != .notShrunk || report.run != nil {
                let origin = fuzzer.origin(of: report)
                members.append(("run", report.run.map { .int(Int64($0)) } ?? .null))
                members.append(("shard", origin.shard.map { .string($0) } ?? .null))
                members.append(("foundBy", .string(origin.command)))
            }
            return .object(members)
        })
        return JSONValue.object([
            ("format", .string(format)), ("formatVersion", .int(formatVersion)),
            ("rulebench", .string(RulebenchRelease.version)),
            ("pack", .string(pack)), ("seed", .int(Int64(bitPattern: seed))),
            ("shard", fuzzer.options.shardName.map { .string($0) } ?? .null),
            ("runs", .int(Int64(progress.runs))),
            ("steps", .int(Int64(progress.steps))), ("seconds", .double(progress.elapsed)),
            ("fuzzingSeconds", .double(progress.fuzzingSeconds)), ("shrinkingSeconds", .double(progress.shrinkingSeconds)),
            ("stepsPerSecond", .double(progress.stepsPerSecond)), ("interrupted", .bool(interrupted)),
            ("duplicates", .int(Int64(progress.duplicates))),
            ("findings", findings),
        ]).serialized()
    }
}
