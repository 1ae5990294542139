import ArgumentParser
import Foundation
import Rulebench
import RulebenchCommandLine

/// `rulebench corpus`: work on fuzz corpora (the programs `fuzz` keeps and replays first).
struct CorpusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "corpus",
        abstract: "Work on fuzz corpora: merge the corpora of several shards or sessions into one.",
        subcommands: [CorpusMergeCommand.self]
    )
}

/// `rulebench corpus merge OUT DIR...`: one corpus from many, one program per bug.
struct CorpusMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge fuzz corpora into OUT: replay every program, keep one per bug, drop what no longer fails.",
        discussion: """
            Reads the corpus files (*.json, as fuzz writes them into --corpus) of OUT and of every DIR, \
            replays each program, shortest first, and writes into OUT the programs that still fail, one \
            per bug: a bug is the failed property, the blamed action path and the Lua file:line, so the \
            same bug found by every shard of a CI matrix is kept once, as its shortest program. A program \
            that no longer fails is dropped (the bug was fixed), unless --keep-fixed keeps it as a \
            regression test because it reaches lines of the pack's Lua that no kept program reaches. \
            OUT is left holding exactly the merged corpus: its other corpus files are removed, after the \
            new ones are written. A file that cannot be read is named and left alone. Each program is \
            replayed with the pack its file names, as fuzz was given it (a name under rules/, or a path): \
            run the merge from the folder the shards ran in.

            --findings DIR writes each bug as a scenario file that `rulebench run` fails on, its header \
            naming the shard and the fuzz command that found it.

            --jobs N replays N programs at a time, each worker in a Lua state of its own; what is kept \
            and dropped does not depend on N (with --keep-fixed, the programs that no longer fail are \
            then judged one after another, as each depends on those kept before it).

            Exit codes: 0 no program of the merged corpus fails; 1 some still fail (each is listed with \
            its reproduction); 2 bad input (a pack that does not load, bad arguments, an OUT or --findings \
            that cannot be written).

            Examples:
              rulebench corpus merge .rulebench/corpus/desert shards/*/corpus
              rulebench corpus merge merged/ shard-1/ shard-2/ shard-3/ --findings findings/ --json
              rulebench corpus merge .rulebench/corpus/desert --keep-fixed
            """
    )

    @Argument(help: "The merged corpus folder (created when missing; its own programs are merged too).")
    var output: String

    @Argument(help: "Corpus folders to merge into OUT (a missing folder is an empty corpus).")
    var inputs: [String] = []

    @Flag(help: "Keep programs that no longer fail when they reach lines of the pack's Lua that no kept program reaches.")
    var keepFixed = false

    @Option(help: ArgumentHelp("Write each bug of the merged corpus as a scenario file into this folder.", valueName: "dir"))
    var findings: String?

    @OptionGroup var jsonOption: JSONOption<CorpusMergeCommand>

    @OptionGroup var jobs: JobsOption

    func validate() throws {
        // An empty path would be the working folder, whose corpus files the merge would rewrite.
        if output.isEmpty { throw ValidationError("OUT is empty; give the merged corpus's folder") }
        if inputs.contains("") { throw ValidationError("a DIR is empty; give corpus folders") }
        if findings?.isEmpty == true { throw ValidationError("--findings is empty; give a folder") }
    }

    func run() throws {
        let outputFolder = OutputFolder(path: output, purpose: "the merged corpus")
        do {
            try outputFolder.checkUsable()
            if let findings { try OutputFolder(path: findings, purpose: "the reproductions (--findings)").checkUsable() }
        } catch {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        // A DIR that is a file is a mistake; a missing one (a CI glob that matched no shard) is an empty corpus, said so.
        for input in inputs {
            var isFolder: ObjCBool = false
            if !FileManager.default.fileExists(atPath: input, isDirectory: &isFolder) {
                complain("note: \(input) does not exist; merged as an empty corpus")
            } else if !isFolder.boolValue {
                complain("\(input) is a file, not a corpus folder; give the folder fuzz's --corpus wrote")
                throw Outcome.badInput.exitCode
            }
        }
        var merge = CorpusMerge(inputs: ([output] + inputs).map { URL(fileURLWithPath: $0) })
        merge.keepFixed = keepFixed
        merge.configuration.printHandler = { _ in }

        merge.pool = jobs.pool
        let clock = MonotonicClock.seconds
        let pacer = PacedLines(pacer: ProgressPacer(toTerminal: false, start: clock()))   // lines, never redrawn in place
        let result: CorpusMerge.Result
        let written: [URL]
        var scenarios: [String: URL] = [:]
        do {
            result = try merge.run { done, total in
                if pacer.isDue(at: clock()) { complain("corpus merge: \(done)/\(total) programs replayed") }
            }
            // OUT exists afterwards even when empty: a CI cache step saving it then has a folder to save.
            try outputFolder.create()
            written = try merge.write(result, to: URL(fileURLWithPath: output))
            if let findings {
                for entry in result.bugs {
                    guard let report = entry.report else { continue }
                    scenarios[entry.file] = try FindingWriter.writeScenario(
                        report, pack: entry.program.pack, out: findings, name: scenarioName(entry),
                        origin: entry.origin ?? FindingOrigin(command: "rulebench fuzz \(entry.program.pack)"))
                }
            }
        } catch {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        // The written files, by the entry each came from (`write` keeps `kept`'s order).
        let files = Dictionary(uniqueKeysWithValues: zip(result.kept.map(\.file), written))
        if jsonOption.json {
            print(jsonReport(result, files: files, scenarios: scenarios))
        } else {
            for problem in result.skipped { complain("skipping \(problem)") }
            printText(result, files: files, scenarios: scenarios)
        }
        if !result.bugs.isEmpty { throw Outcome.failed.exitCode }
    }

    /// The scenario file of a bug: the pack, the property, and the corpus file's stable name.
    private func scenarioName(_ entry: CorpusMerge.Entry) -> String {
        let property = entry.finding.map { "\($0.property)" } ?? "finding"
        let stem = URL(fileURLWithPath: entry.file).deletingPathExtension().lastPathComponent
        return "\(FindingWriter.packPart(entry.program.pack))-\(property)-\(stem).yaml"
    }

    private func printText(_ result: CorpusMerge.Result, files: [String: URL], scenarios: [String: URL]) {
        for entry in result.entries {
            switch entry.verdict {
            case .kept:
                print("KEEP  \(entry.file)  \(entry.finding.map { FindingKey($0).description } ?? "")")
            case .regression:
                print("KEEP  \(entry.file)  no longer fails; kept for the lines only it reaches")
            case .duplicate(let first):
                print("DROP  \(entry.file)  the same bug as \(first)")
            case .copy(let first):
                print("DROP  \(entry.file)  the same program as \(first)")
            case .fixed:
                print("DROP  \(entry.file)  no longer fails")
            }
        }
        for entry in result.bugs {
            guard let finding = entry.finding else { continue }
            print("FINDING: \(finding)")
            if let file = files[entry.file] { print("  corpus: \(file.path)") }
            if let scenario = scenarios[entry.file] { print("  reproduce: rulebench run \(scenario.path)") }
            if let origin = entry.origin {
                print("  found by: \(origin.command)")
            }
        }
        let count = { (verdict: String) in result.entries.filter { $0.verdict.name == verdict }.count }
        var parts = ["\(result.bugs.count) bug\(result.bugs.count == 1 ? "" : "s") still failing"]
        if count("regression") > 0 { parts.append("\(count("regression")) kept as regression tests") }
        parts.append("\(count("duplicate") + count("copy")) duplicates dropped")
        parts.append("\(count("fixed")) fixed and dropped")
        print("merged \(result.entries.count) program\(result.entries.count == 1 ? "" : "s") into \(output): "
              + parts.joined(separator: ", "))
    }

    private func jsonReport(_ result: CorpusMerge.Result, files: [String: URL], scenarios: [String: URL]) -> String {
        let programs = JSONValue.array(result.entries.map { entry in
            var members: [(String, JSONValue)] = [
                ("file", .string(entry.file)), ("verdict", .string(entry.verdict.name)),
                ("steps", .int(Int64(entry.program.steps.count))),
            ]
            switch entry.verdict {
            case .duplicate(let first), .copy(let first): members.append(("of", .string(first)))
            default: break
            }
            if let finding = entry.finding {
                let key = FindingKey(finding)
                members.append(("property", .string(finding.property.rawValue)))
                members.append(("message", .string(finding.message)))
                members.append(("blame", finding.blame.map { .string($0) } ?? .null))
                members.append(("bug", .string(key.description)))
            }
            if let file = files[entry.file] { members.append(("written", .string(file.path))) }
            if let scenario = scenarios[entry.file] { members.append(("scenario", .string(scenario.path))) }
            if let origin = entry.origin {
                members.append(("foundBy", .string(origin.command)))
                members.append(("shard", origin.shard.map { .string($0) } ?? .null))
            }
            return .object(members)
        })
        let count = { (verdict: String) in Int64(result.entries.filter { $0.verdict.name == verdict }.count) }
        return JSONValue.object([
            ("output", .string(output)),
            ("programs", .int(Int64(result.entries.count))),
            ("bugs", .int(Int64(result.bugs.count))),
            ("regressions", .int(count("regression"))),
            ("duplicates", .int(count("duplicate") + count("copy"))),
            ("fixed", .int(count("fixed"))),
            ("skipped", .array(result.skipped.map { .string("\($0)") })),
            ("entries", programs),
            ("exitCode", .int(result.bugs.isEmpty ? 0 : 1)),
        ]).serialized()
    }
}

extension CorpusMergeCommand: JSONReportingCommand {}
