import Foundation

/// Writes a finding as a scenario file that `rulebench run` fails on, and
/// keeps a corpus of failing programs that later sessions replay first.
public enum Reproduction {
    /// The scenario text reproducing a finding.
    ///
    /// - Parameter packReference: how the scenario names its pack (a name under
    ///   rules/, or a path relative to the scenario file).
    public static func scenario(for report: Fuzzer.Report, packReference: String, fuzzSeed: UInt64) -> String {
        let finding = report.finding
        var lines: [String] = []
        lines.append("# Found by: rulebench fuzz \(report.shrunk.pack) --seed \(fuzzSeed)")
        lines.append("# Finding: \(finding.property.rawValue) failed")
        for line in finding.message.split(separator: "\n") { lines.append("#   \(line)") }
        if let blame = finding.blame { lines.append("# Blame: \(blame)") }
        for difference in finding.differences.prefix(5) { lines.append("#   \(difference)") }
        lines.append("# Shrunk from \(report.original.steps.count) steps to \(report.shrunk.steps.count).")
        lines.append("scenario: \(yaml(.string("fuzz finding: \(finding.property.rawValue)")))")
        lines.append("rules: \(yaml(.string(packReference)))")
        lines.append("setup:")
        lines.append("  seed: \(report.shrunk.seed)")
        if !report.shrunk.options.isEmpty { lines.append("  options: \(yaml(table(report.shrunk.options)))") }
        lines.append("steps:")
        for (index, step) in report.shrunk.steps.enumerated() {
            let outcome = index < report.outcomes.count ? report.outcomes[index] : nil
            let last = index == report.shrunk.steps.count - 1
            lines.append(contentsOf: stepLines(step, outcome: outcome, isFailing: last, property: finding.property))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func stepLines(_ step: FuzzStep, outcome: FuzzExecutor.Outcome?, isFailing: Bool,
                                  property: FuzzFinding.Property) -> [String] {
        switch step {
        case .perform(let call), .attempt(let call):
            var lines = ["  - do: \(yaml(.string(call.name)))"]
            if !call.params.isEmpty { lines.append("    with: \(yaml(table(call.params)))") }
            if case .attempt = step, !isFailing {
                switch outcome {
                case .rejected(let reason)?: lines.append("    expect: { rejected: \(yaml(.string(reason))) }")
                case .failed(let message)?: lines.append("    expect: { error: \(yaml(.string(String(message.prefix(60))))) }")
                default: break
                }
            }
            if isFailing && property == .animationIsSound {
                lines.append("    expect: { animation: { conflicts: 0 } }")
            }
            return lines
        case .undo:
            if case .undone(let n)? = outcome, n == 0 { return ["  # (undo with nothing to undo)"] }
            if case .undone(let n)? = outcome { return ["  - undo: \(n)"] }
            return ["  - undo: \(stepCount(step))"]
        case .redo:
            if case .redone(let n)? = outcome, n == 0 { return ["  # (redo with nothing to redo)"] }
            if case .redone(let n)? = outcome { return ["  - redo: \(n)"] }
            return ["  - redo: \(stepCount(step))"]
        case .undoTurn:
            return ["  - undo: turn"]
        }
    }

    private static func stepCount(_ step: FuzzStep) -> Int {
        switch step {
        case .undo(let n), .redo(let n): return n
        default: return 1
        }
    }

    private static func table(_ params: [String: StateValue]) -> StateValue {
        .table(Dictionary(uniqueKeysWithValues: params.map { (StateKey.string($0.key), $0.value) }))
    }

    /// A YAML flow rendering (JSON-compatible scalars, so every string is quoted).
    static func yaml(_ value: StateValue) -> String {
        switch value {
        case .table:
            if let items = value.listItems, !items.isEmpty { return "[" + items.map(yaml).joined(separator: ", ") + "]" }
            return "{ " + value.sortedEntries.map { "\(yamlKey($0.key)): \(yaml($0.value))" }.joined(separator: ", ") + " }"
        default:
            return JSONValue(value).serialized(pretty: false)
        }
    }

    private static func yamlKey(_ key: StateKey) -> String {
        switch key {
        case .int(let i): return String(i)
        case .string(let s): return JSONValue.string(s).serialized(pretty: false)
        }
    }

    // MARK: Corpus

    /// Saves a failing program as JSON under `folder`; returns the file.
    @discardableResult
    public static func save(_ program: FuzzProgram, property: FuzzFinding.Property, in folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let json = encode(program, property: property)
        var hasher = StableHasher()
        hasher.add(json)
        let file = folder.appendingPathComponent("\(hasher.hex).json")
        try Data(json.utf8).write(to: file, options: .atomic)
        return file
    }

    /// Every program saved under `folder`, in file-name order; unreadable files are skipped and named.
    public static func load(from folder: URL) -> (programs: [FuzzProgram], skipped: [String]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return ([], []) }
        var programs: [FuzzProgram] = []
        var skipped: [String] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let url = folder.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: url.path),
                  let value = try? JSONValue.parse(String(decoding: data, as: UTF8.self)),
                  let program = decode(value) else { skipped.append(url.path); continue }
            programs.append(program)
        }
        return (programs, skipped)
    }

    static func encode(_ program: FuzzProgram, property: FuzzFinding.Property) -> String {
        func call(_ c: ActionCall) -> JSONValue {
            .object([("action", .string(c.name)), ("params", JSONValue(table(c.params)))])
        }
        let steps: [JSONValue] = program.steps.map { step in
            switch step {
            case .perform(let c): return .object([("do", call(c))])
            case .attempt(let c): return .object([("try", call(c))])
            case .undo(let n): return .object([("undo", .int(Int64(n)))])
            case .redo(let n): return .object([("redo", .int(Int64(n)))])
            case .undoTurn: return .object([("undo", .string("turn"))])
            }
        }
        return JSONValue.object([
            ("property", .string(property.rawValue)), ("pack", .string(program.pack)), ("seed", .int(program.seed)),
            ("options", JSONValue(table(program.options))), ("steps", .array(steps)),
        ]).serialized() + "\n"
    }

    static func decode(_ value: JSONValue) -> FuzzProgram? {
        guard case .string(let pack)? = value["pack"], case .int(let seed)? = value["seed"],
              case .array(let stepValues)? = value["steps"] else { return nil }
        func call(_ v: JSONValue?) -> ActionCall? {
            guard case .string(let name)? = v?["action"] else { return nil }
            return ActionCall(name, ActionCall.params(from: v?["params"]?.stateValue))
        }
        var steps: [FuzzStep] = []
        for item in stepValues {
            if let c = call(item["do"]) { steps.append(.perform(c)) }
            else if let c = call(item["try"]) { steps.append(.attempt(c)) }
            else if case .int(let n)? = item["undo"] { steps.append(.undo(Int(n))) }
            else if case .string("turn")? = item["undo"] { steps.append(.undoTurn) }
            else if case .int(let n)? = item["redo"] { steps.append(.redo(Int(n))) }
            else { return nil }
        }
        return FuzzProgram(pack: pack, seed: seed, options: ActionCall.params(from: value["options"]?.stateValue), steps: steps)
    }
}

/// FNV-1a over text: stable file names for corpus entries.
struct StableHasher {
    private var value: UInt64 = 0xcbf2_9ce4_8422_2325
    mutating func add(_ text: String) {
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }
    var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
