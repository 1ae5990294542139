import Foundation

/// Writes a finding as a scenario file that `rulebench run` fails on, and
/// keeps a corpus of failing programs that later sessions replay first.
public enum Reproduction {
    /// The scenario text reproducing a finding.
    ///
    /// - Parameters:
    ///   - report: the finding, its program and its shrunk reproduction.
    ///   - packReference: how the scenario names its pack (a name under
    ///     rules/, or a path relative to the scenario file).
    ///   - fuzzSeed: the session's seed, for the command that found it.
    public static func scenario(for report: Fuzzer.Report, packReference: String, fuzzSeed: UInt64) -> String {
        scenario(for: report, packReference: packReference,
                 origin: FindingOrigin(command: "rulebench fuzz \(report.shrunk.pack) --seed \(fuzzSeed)"))
    }

    /// The scenario text reproducing a finding, its header naming `origin`:
    /// the fuzz command that found it (and finds it again) and its shard.
    public static func scenario(for report: Fuzzer.Report, packReference: String, origin: FindingOrigin) -> String {
        let finding = report.finding
        let steps = stepLines(of: report)
        var file = ScenarioYAML()
        file.comment("Found by: \(origin.command)")
        if let shard = origin.shard { file.comment("Shard: \(shard)") }
        file.comment("Finding: \(finding.property.rawValue) failed")
        for line in finding.message.split(whereSeparator: \.isNewline) { file.comment("  \(line)") }
        if let blame = finding.blame { file.comment("Blame: \(blame)") }
        for difference in finding.differences.prefix(5) { file.comment("  \(UndoProblem.line(difference))") }
        let counts = stepCounts(of: report)
        file.comment("Shrunk from \(counts.original) steps to \(counts.shrunk).")
        file.begin(title: "fuzz finding: \(finding.property.rawValue)", packReference: packReference,
                   seed: report.shrunk.seed, options: report.shrunk.options)
        file.append(contentsOf: steps)
        return file.text
    }

    /// How many steps the reproduction's file holds (`shrunk`), and the
    /// original program counted the same way: its steps, then the step the
    /// file closes with (the end-of-run rewind's undo, the listing of the
    /// legal calls, or the check after setup). A step that undid or redid
    /// nothing is written as a comment and not counted. What the header,
    /// `fuzz`'s report and its `shrunkSteps` say.
    public static func stepCounts(of report: Fuzzer.Report) -> (original: Int, shrunk: Int) {
        func isStep(_ line: String) -> Bool { line.hasPrefix("  - ") }
        let closing = closingLines(of: report).count(where: isStep)
        return (report.original.steps.count + closing, stepLines(of: report).count(where: isStep))
    }

    /// The lines of the reproduction's steps, the closing one included.
    private static func stepLines(of report: Fuzzer.Report) -> [String] {
        let finding = report.finding
        let closes = finding.isLegalListingFailure || finding.isRewindFailure
        var lines: [String] = []
        for (index, step) in report.shrunk.steps.enumerated() {
            let outcome = index < report.outcomes.count ? report.outcomes[index] : nil
            let last = index == report.shrunk.steps.count - 1 && !closes
            lines.append(contentsOf: stepLines(step, outcome: outcome, isFailing: last, property: finding.property))
        }
        return lines + closingLines(of: report)
    }

    /// What a reproduction ends with after its program's steps, when the
    /// finding is not at one of them.
    private static func closingLines(of report: Fuzzer.Report) -> [String] {
        let finding = report.finding
        if finding.isLegalListingFailure {
            // Listing the legal actions is what fails: ask for it (any list contains nothing).
            return ["  - expect: { legal: { contains: [] } }"]
        }
        if finding.isRewindFailure {
            // The run's end rewound the history, one undo at a time, and the
            // undo that failed is the last one to write (the kernel counts
            // them; a finding of a file written before it did: all of them).
            let done = actionsDone(after: report.outcomes)
            let undos = min(finding.rewindUndos ?? done, done)
            guard undos > 0 else { return [] }
            return ["  # the end of the fuzz run: the rewind, up to the undo that fails",
                    "  - undo: \(undos)"]
        }
        if finding.property == .sequenceTextsRead, let slot = finding.differences.first?.path {
            // A sequence's text reads a slot the state lacks at the end of the run.
            return ["  # a story sequence reads this slot (docs/sequences.md)", "  - expect: { exists: [\(slot)] }"]
        }
        if report.shrunk.steps.isEmpty {
            // A finding at step 0 (setup, or the invariants right after it):
            // a scenario needs a step, and this one checks the invariants.
            return ["  # the finding is at setup, before any step", "  - expect: { invariants: hold }"]
        }
        return []
    }

    /// How many actions are done (and so undone by a rewind) after steps
    /// with these outcomes.
    static func actionsDone(after outcomes: [FuzzExecutor.Outcome]) -> Int {
        outcomes.reduce(0) { done, outcome in
            switch outcome {
            case .performed: return done + 1
            case .undone(let n): return max(0, done - n)
            case .redone(let n): return done + n
            case .rejected, .failed: return done
            }
        }
    }

    static func stepLines(_ step: FuzzStep, outcome: FuzzExecutor.Outcome?, isFailing: Bool,
                                  property: FuzzFinding.Property) -> [String] {
        switch step {
        case .perform(let call), .attempt(let call):
            var lines = ScenarioYAML.performLines(call)
            if case .attempt = step, !isFailing {
                switch outcome {
                case .rejected(let reason)?: lines.append("    expect: { rejected: \(ScenarioYAML.value(.string(reason))) }")
                case .failed(let message)?: lines.append("    expect: { error: \(ScenarioYAML.value(.string(String(message.prefix(60))))) }")
                default: break
                }
            }
            if isFailing && property == .animationIsSound {
                lines.append("    expect: { animation: { conflicts: 0 } }")
            }
            return lines
        case .undo:
            if case .undone(let n)? = outcome, n == 0 { return ["  # (undo with nothing to undo)"] }
            let mirror = isFailing && property == .undoMirrorsDo ? ["    expect: { animation: { mirrored: true } }"] : []
            if case .undone(let n)? = outcome { return ["  - undo: \(n)"] + mirror }
            if isFailing && property == .undoMirrorsDo { return ["  - undo: \(stepCount(step))"] + mirror }
            return ["  - undo: \(stepCount(step))"]
        case .redo:
            if case .redone(let n)? = outcome, n == 0 { return ["  # (redo with nothing to redo)"] }
            if case .redone(let n)? = outcome { return ["  - redo: \(n)"] }
            return ["  - redo: \(stepCount(step))"]
        case .undoTurn:
            // A turn that undid nothing is left out: a scenario's `undo: turn`
            // with nothing to undo (at the start) is an error.
            if case .undone(let n)? = outcome, n == 0 { return ["  # (undo turn with nothing to undo)"] }
            if isFailing && property == .undoMirrorsDo { return ["  - undo: turn", "    expect: { animation: { mirrored: true } }"] }
            return ["  - undo: turn"]
        case .undoLastTurn:
            // As `undo: turn`: at the start it undid nothing, and a scenario's
            // `undo: last turn` there is an error.
            if case .undone(let n)? = outcome, n == 0 { return ["  # (undo last turn with nothing to undo)"] }
            if isFailing && property == .undoMirrorsDo { return ["  - undo: last turn", "    expect: { animation: { mirrored: true } }"] }
            return ["  - undo: last turn"]
        }
    }

    private static func stepCount(_ step: FuzzStep) -> Int {
        switch step {
        case .undo(let n), .redo(let n): return n
        default: return 1
        }
    }

    // MARK: Corpus

    /// Saves a failing program as JSON under `folder` (created when missing); returns the file.
    ///
    /// The file is named after the program alone (its origin is not part of
    /// the name), so the same program found by two shards has one name, and
    /// copying shard corpora into one folder keeps one file of it.
    @discardableResult
    public static func save(_ program: FuzzProgram, property: FuzzFinding.Property, origin: FindingOrigin? = nil,
                            in folder: URL) throws(RulebenchError) -> URL {
        try OutputFolder(folder, purpose: "the finding into the corpus").create()
        let file = folder.appendingPathComponent(fileName(of: program, property: property))
        try OutputFile(file, purpose: "the finding into the corpus").write(encode(program, property: property, origin: origin))
        return file
    }

    /// The file name `save` gives a program: a stable hash of its JSON.
    public static func fileName(of program: FuzzProgram, property: FuzzFinding.Property) -> String {
        var hasher = StableHasher()
        hasher.add(encode(program, property: property))
        return "\(hasher.hex).json"
    }

    /// A corpus folder as read: the programs that can be replayed, each with
    /// its file, and the files that cannot, each with why.
    public struct Corpus: Sendable {
        /// A program and the file it was read from.
        public struct Entry: Sendable {
            /// The file, as messages show it.
            public let file: String
            /// The program it holds.
            public let program: FuzzProgram
            /// The session that found it, when the file says (files written before it did, do not).
            public var origin: FindingOrigin? = nil
            /// The property it failed when it was saved, when the file names a known one.
            public var property: FuzzFinding.Property? = nil
        }

        /// Programs that can be replayed, in file-name order.
        public var entries: [Entry] = []
        /// Files that cannot be used, each naming the file and what is wrong, in file-name order.
        public var skipped: [InputProblem] = []
        /// The programs alone, in file-name order.
        public var programs: [FuzzProgram] { entries.map(\.program) }
    }

    /// The largest corpus file read: a program at `FuzzProgram.maximumSteps`
    /// with long params stays far below it, and reading stays cheap.
    public static let maximumFileSize = InputFile.maximumBytes

    /// Every `*.json` program saved under `folder`, in file-name order; a
    /// missing folder is an empty corpus. A file that cannot be used (not
    /// a regular file, too large, not JSON, not a program, a count out of
    /// range) is skipped and named with the reason, so one bad file does not
    /// stop a session.
    public static func load(from folder: URL) -> Corpus {
        var corpus = Corpus()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return corpus }
        for name in names.sorted() where name.hasSuffix(".json") {
            let url = folder.appendingPathComponent(name)
            do {
                let (program, origin, property) = try readEntry(contentsOf: url)
                corpus.entries.append(Corpus.Entry(file: PackFiles.display(url), program: program, origin: origin,
                                                   property: property))
            } catch {
                switch error {
                case .badInput(let problem): corpus.skipped.append(problem)
                default: corpus.skipped.append(InputProblem("\(error)", file: PackFiles.display(url)))
                }
            }
        }
        return corpus
    }

    /// Reads one corpus file.
    ///
    /// - Throws: `.badInput` naming the file (and line, for JSON syntax)
    ///   and what is wrong with it.
    public static func read(contentsOf url: URL) throws(RulebenchError) -> FuzzProgram {
        try readEntry(contentsOf: url).program
    }

    /// Reads one corpus file with the origin and the property it records (nil when it records none).
    ///
    /// - Throws: `.badInput` naming the file (and line, for JSON syntax)
    ///   and what is wrong with it.
    public static func readEntry(contentsOf url: URL) throws(RulebenchError)
        -> (program: FuzzProgram, origin: FindingOrigin?, property: FuzzFinding.Property?) {
        let file = PackFiles.display(url)
        func bad(_ message: String) -> RulebenchError { .badInput(InputProblem(message, file: file)) }
        // A FIFO or a device would block or never end; a huge file would eat memory.
        var status = stat()
        guard stat(url.path, &status) == 0 else { throw bad("cannot read the file (\(String(cString: strerror(errno))))") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw bad("not a regular file; a corpus holds only the JSON files fuzz writes") }
        let data = try InputFile.bytes(url, display: file)
        let value: JSONValue
        do {
            value = try JSONValue.parse(utf8: [UInt8](data))   // bytes that are not UTF-8 are an error, not U+FFFD
        } catch let error as JSONValue.ParseError {
            throw .badInput(InputProblem("not a corpus entry: \(error.message)", file: file, line: error.line, column: error.column))
        } catch {
            throw bad("not a corpus entry: \(error)")
        }
        do {
            var property: FuzzFinding.Property?
            if case .string(let name)? = value["property"] { property = FuzzFinding.Property(rawValue: name) }
            return (try decode(value), FindingOrigin(value), property)
        } catch {
            throw bad("not a usable corpus entry: \(error.reason); fix the file or delete it")
        }
    }

    static func encode(_ program: FuzzProgram, property: FuzzFinding.Property, origin: FindingOrigin? = nil) -> String {
        func call(_ c: ActionCall) -> JSONValue {
            .object([("action", .string(c.name)), ("params", JSONValue(ScenarioYAML.table(c.params)))])
        }
        let steps: [JSONValue] = program.steps.map { step in
            switch step {
            case .perform(let c): return .object([("do", call(c))])
            case .attempt(let c): return .object([("try", call(c))])
            case .undo(let n): return .object([("undo", .int(Int64(n)))])
            case .redo(let n): return .object([("redo", .int(Int64(n)))])
            case .undoTurn: return .object([("undo", .string("turn"))])
            case .undoLastTurn: return .object([("undo", .string("last turn"))])
            }
        }
        var members: [(String, JSONValue)] = [
            ("property", .string(property.rawValue)), ("pack", .string(program.pack)), ("seed", .int(program.seed)),
            ("options", JSONValue(ScenarioYAML.table(program.options))), ("steps", .array(steps)),
        ]
        if let origin {
            members.append(("foundBy", .string(origin.command)))
            if let shard = origin.shard { members.append(("shard", .string(shard))) }
        }
        return JSONValue.object(members).serialized() + "\n"
    }

    /// Why a JSON value is not a program.
    struct DecodeError: Error {
        let reason: String
    }

    /// The program a corpus entry holds. Counts are checked here, where the
    /// file is read, so a damaged or hand-made count (`undo -1`, a huge
    /// `redo`) never reaches the engine or the shrinker, which assume 1...n.
    static func decode(_ value: JSONValue) throws(DecodeError) -> FuzzProgram {
        guard case .string(let pack)? = value["pack"], !pack.isEmpty else { throw DecodeError(reason: "no \"pack\" (the pack's name or folder)") }
        let seed: Int64
        switch value.wholeNumber("seed") {
        case .success(let whole): seed = whole
        case .failure(let problem): throw DecodeError(reason: problem.message)
        }
        guard case .array(let stepValues)? = value["steps"] else { throw DecodeError(reason: "no \"steps\" list") }
        guard stepValues.count <= FuzzProgram.maximumSteps else {
            throw DecodeError(reason: "\(stepValues.count) steps, more than the \(FuzzProgram.maximumSteps) a program may have")
        }
        switch value["options"] {
        case nil, .null?, .object?: break
        default: throw DecodeError(reason: "\"options\" must be an object of setup options")
        }
        func call(_ v: JSONValue?) -> ActionCall? {
            guard case .string(let name)? = v?["action"] else { return nil }
            return ActionCall(name, ActionCall.params(from: v?["params"]?.stateValue))
        }
        func count(_ v: JSONValue, _ key: String, step: Int) throws(DecodeError) -> Int {
            guard case .int(let n) = v, (1...Int64(FuzzStep.maximumCount)).contains(n) else {
                throw DecodeError(reason: "step \(step): \"\(key)\" must be a whole number from 1 to \(FuzzStep.maximumCount)"
                                  + (key == "undo" ? ", \"turn\" or \"last turn\"" : "") + ", not \(v.serialized(pretty: false))")
            }
            return Int(n)
        }
        var steps: [FuzzStep] = []
        for (index, item) in stepValues.enumerated() {
            if let c = call(item["do"]) { steps.append(.perform(c)) }
            else if let c = call(item["try"]) { steps.append(.attempt(c)) }
            else if case .string("turn")? = item["undo"] { steps.append(.undoTurn) }
            else if case .string("last turn")? = item["undo"] { steps.append(.undoLastTurn) }
            else if let n = item["undo"] { steps.append(.undo(try count(n, "undo", step: index + 1))) }
            else if let n = item["redo"] { steps.append(.redo(try count(n, "redo", step: index + 1))) }
            else { throw DecodeError(reason: "step \(index + 1) is not {\"do\": ...}, {\"try\": ...}, {\"undo\": N} or {\"redo\": N}") }
        }
        return FuzzProgram(pack: pack, seed: seed, options: ActionCall.params(from: value["options"]?.stateValue), steps: steps)
    }
}
