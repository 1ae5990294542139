/// The machine-readable run report (`rulebench run --json`).
///
/// ```json
/// { "total": 2, "passed": 1, "failed": 1, "badInput": 0, "exitCode": 1, "duration": 0.0123,
///   "scenarios": [ { "file": "...", "title": "...", "status": "passed", "duration": 0.004,
///                    "steps": 4, "stepsRun": 4 },
///                  { "file": "...", "status": "failed", ...,
///                    "failure": { "step": 2, "line": 9, "column": 5, "summary": "do: step {token=\"p1\"}",
///                                 "mismatches": [ { "check": "state tokens.p1.square", "expected": "3 (integer)",
///                                                   "actual": "2 (integer)", "line": 12, "column": 7 } ],
///                                 "diffTitle": "state changed by this step",
///                                 "stateDiff": [ { "path": "tokens.p1.square", "before": "1", "after": "2" } ] } } ] }
/// ```
///
/// A bad-input scenario has `"status": "bad-input"` and a `problem` with
/// `file`, `line`, `column` (when known) and `message`.
public enum JSONReport {
    /// The report as pretty-printed JSON text.
    public static func render(_ run: RunReport) -> String {
        value(run).serialized(pretty: true) + "\n"
    }

    /// The report as a JSON value.
    public static func value(_ run: RunReport) -> JSONValue {
        .object([
            ("total", .int(Int64(run.scenarios.count))),
            ("passed", .int(Int64(run.passedCount))),
            ("failed", .int(Int64(run.failedCount))),
            ("badInput", .int(Int64(run.badInputCount))),
            ("exitCode", .int(Int64(run.exitCode))),
            ("duration", .double(run.duration)),
            ("scenarios", .array(run.scenarios.map(value))),
        ])
    }

    static func value(_ scenario: ScenarioReport) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("file", .string(scenario.file)),
            ("title", scenario.title.map(JSONValue.string) ?? .null),
            ("status", .string(scenario.status.rawValue)),
            ("duration", .double(scenario.duration)),
            ("steps", .int(Int64(scenario.stepCount))),
            ("stepsRun", .int(Int64(scenario.stepsRun))),
        ]
        if let failure = scenario.failure { members.append(("failure", value(failure))) }
        if let problem = scenario.problem {
            var fields: [(String, JSONValue)] = [("file", problem.file.map(JSONValue.string) ?? .null)]
            if let line = problem.line { fields.append(("line", .int(Int64(line)))) }
            if let column = problem.column { fields.append(("column", .int(Int64(column)))) }
            fields.append(("message", .string(problem.message)))
            fields.append(("text", .string(problem.description)))
            members.append(("problem", .object(fields)))
        }
        return .object(members)
    }

    /// `line` and, when known, `column` (a scenario's places have both).
    static func place(_ location: SourceLocation) -> [(String, JSONValue)] {
        [("line", .int(Int64(location.line)))] + (location.column.map { [("column", .int(Int64($0)))] } ?? [])
    }

    static func value(_ failure: StepFailure) -> JSONValue {
        .object([("step", .int(Int64(failure.step)))] + place(failure.location) + [
            ("summary", .string(failure.summary)),
            ("mismatches", .array(failure.mismatches.map { mismatch in
                var fields: [(String, JSONValue)] = [
                    ("check", .string(mismatch.check)),
                    ("expected", .string(mismatch.expected)),
                    ("actual", .string(mismatch.actual)),
                ]
                if let location = mismatch.location { fields += place(location) }
                if let details = mismatch.details { fields.append(("details", .string(details))) }
                return .object(fields)
            })),
            ("diffTitle", .string(failure.diffTitle)),
            ("stateDiff", .array(failure.stateDiff.map { change in
                .object([("path", .string(change.path)), ("before", .string(change.before)), ("after", .string(change.after))])
            })),
        ])
    }
}
