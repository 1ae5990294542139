/// The machine-readable run report (`rulebench run --json`).
///
/// ```json
/// { "format": "rulebench-run", "formatVersion": 1, "rulebench": "0.1.0",
///   "total": 2, "passed": 1, "failed": 1, "badInput": 0, "exitCode": 1, "seconds": 0.0123,
///   "scenarios": [ { "file": "...", "title": "...", "status": "passed", "seconds": 0.004,
///                    "steps": 4, "stepsRun": 4 },
///                  { "file": "...", "status": "failed", ...,
///                    "failure": { "step": 2, "line": 9, "column": 5, "summary": "do: step {token=\"p1\"}",
///                                 "mismatches": [ { "check": "state tokens.p1.square", "expected": "3 (integer)",
///                                                   "actual": "2 (integer)", "line": 12, "column": 7,
///                                                   "expectedValue": { "type": "integer", "value": 3 },
///                                                   "actualValue": { "type": "integer", "value": 2 } } ],
///                                 "diffTitle": "state changed by this step",
///                                 "stateDiff": [ { "path": "tokens.p1.square", "before": "1", "after": "2" } ] } } ] }
/// ```
///
/// A bad-input scenario has `"status": "bad-input"` and a `problem` with
/// `file`, `line`, `column` (when known) and `message`. docs/scenarios.md ("Machine-readable
/// reports") describes every field.
public enum JSONReport {
    /// What `format` says: the report's kind.
    public static let format = "rulebench-run"
    /// What `formatVersion` says; raised when a field changes meaning or goes away.
    public static let formatVersion: Int64 = 1

    /// The report as pretty-printed JSON text.
    public static func render(_ run: RunReport) -> String {
        value(run).serialized(pretty: true) + "\n"
    }

    /// The report as a JSON value.
    public static func value(_ run: RunReport) -> JSONValue {
        .object([
            ("format", .string(format)),
            ("formatVersion", .int(formatVersion)),
            ("rulebench", .string(RulebenchRelease.version)),
            ("total", .int(Int64(run.scenarios.count))),
            ("passed", .int(Int64(run.passedCount))),
            ("failed", .int(Int64(run.failedCount))),
            ("badInput", .int(Int64(run.badInputCount))),
            ("exitCode", .int(Int64(run.exitCode))),
            ("seconds", .double(run.duration)),
            ("scenarios", .array(run.scenarios.map(value))),
        ])
    }

    static func value(_ scenario: ScenarioReport) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("file", .string(scenario.file)),
            ("title", scenario.title.map(JSONValue.string) ?? .null),
            ("status", .string(scenario.status.rawValue)),
            ("seconds", .double(scenario.duration)),
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

    /// A state value as data: `{ "type": "integer", "value": 3 }`; the type is
    /// one of `integer`, `float`, `string`, `boolean`, `table`, or `absent`
    /// (an empty slot, with no `value`), so 3 and 3.0 stay apart.
    public static func typed(_ value: StateValue?) -> JSONValue {
        guard let value else { return .object([("type", .string("absent"))]) }
        let type: String
        switch value {
        case .int: type = "integer"
        case .double: type = "float"
        case .string: type = "string"
        case .bool: type = "boolean"
        case .table: type = "table"
        }
        return .object([("type", .string(type)), ("value", JSONValue(value))])
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
                if let values = mismatch.values {
                    fields.append(("expectedValue", values.expectsAnyValue ? .object([("type", .string("any"))]) : typed(values.expected)))
                    fields.append(("actualValue", typed(values.actual)))
                }
                return .object(fields)
            })),
            ("diffTitle", .string(failure.diffTitle)),
            ("stateDiff", .array(failure.stateDiff.map { change in
                .object([("path", .string(change.path)), ("before", .string(change.before)), ("after", .string(change.after))])
            })),
        ])
    }
}
