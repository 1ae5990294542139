import ArgumentParser
import Foundation
import Rulebench

/// `rulebench fuzz PACK`: random games checked after every step, findings shrunk to scenarios.
struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Play random games of a pack and check undo, redo, invariants and determinism after every step.",
        discussion: """
            Each run plays up to --depth steps: random legal actions, undo/redo of 1-3 steps, undo to the \
            last checkpoint, and attempts with illegal params. Checked after every step: undo restores the \
            state exactly (with blame), redo reproduces the action, a failed action changes nothing, every \
            legal action applies, invariants hold; at the end of a run: rewinding gives the initial state, and \
            the saved history replays with the same hashes. A failure is shrunk and written to --out as a \
            scenario file that `rulebench run` fails on; the program is kept in --corpus and replayed first \
            next time. Ctrl-C stops cleanly, writes what was found, and exits 130.

            Examples:
              rulebench fuzz desert --seed 1 --runs 200 --depth 80
              rulebench fuzz desert --shard 2/4 --time 600 --out findings/
            """
    )

    @Argument(help: "The pack: a name under rules/ or a path to a pack folder.")
    var pack: String

    @Option(help: "Seed of the session (each run derives its own game seed from it).")
    var seed: UInt64 = 1

    @Option(help: "Number of runs (random games).")
    var runs: Int = 100

    @Option(help: "Maximum steps per run.")
    var depth: Int = 100

    @Option(help: "Stop starting new runs after this many seconds.")
    var time: Double?

    @Option(help: "Run only shard K of N (K/N, 1-based): runs whose index mod N is K-1.")
    var shard: String = "1/1"

    @Option(help: "Corpus folder of failing programs, replayed first (default .rulebench/corpus/PACK).")
    var corpus: String?

    @Option(help: "Where shrunk reproductions are written as scenario files.")
    var out: String = ".rulebench/findings"

    @Option(name: .customLong("option"), help: "A setup option, key=value (repeatable).")
    var setupOptions: [String] = []

    @Flag(help: "Write a JSON report to standard output.")
    var json = false

    func validate() throws {
        guard runs > 0, depth > 0 else { throw ValidationError("--runs and --depth must be positive") }
        _ = try parsedShard()
    }

    private func parsedShard() throws -> (Int, Int) {
        let parts = shard.split(separator: "/").compactMap { Int($0) }
        guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else {
            throw ValidationError("--shard expects K/N with 1 <= K <= N, got '\(shard)'")
        }
        return (parts[0], parts[1])
    }

    func run() throws {
        catchInterrupts()
        var options = Fuzzer.Options(pack: pack)
        options.seed = seed
        options.runs = runs
        options.depth = depth
        options.timeLimit = time
        options.shard = try parsedShard()
        options.setupOptions = try parsePairs(setupOptions, what: "--option")
        options.configuration.printHandler = { _ in }

        // Bad input (unknown pack, broken pack) is exit 2, before any fuzzing.
        let packName: String
        do {
            var configuration = options.configuration
            configuration.strict = true
            packName = try Game(pack: pack, options: options.setupOptions, seed: 0, configuration: configuration).pack.name
        } catch {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        let fuzzer = Fuzzer(options: options)
        let corpusFolder = URL(fileURLWithPath: corpus ?? ".rulebench/corpus/\(packName)")
        let outFolder = URL(fileURLWithPath: out)

        let known = Reproduction.load(from: corpusFolder)
        for file in known.skipped { complain("skipping unreadable corpus file \(file)") }
        var reports = fuzzer.replay(known.programs)
        if !known.programs.isEmpty && !json {
            printLine("corpus: \(known.programs.count) known findings replayed, \(reports.count) still fail")
        }

        var lastDraw = Date.distantPast
        let (found, progress) = fuzzer.run(shouldStop: { wasInterrupted }) { state in
            guard !json else { return }
            if stderrIsTerminal {
                if Date().timeIntervalSince(lastDraw) > 0.2 {
                    lastDraw = Date()
                    FileHandle.standardError.write(Data(("\r\(status(state))   ").utf8))
                }
            } else if state.runs % 25 == 0 {
                FileHandle.standardError.write(Data((status(state) + "\n").utf8))
            }
        }
        if stderrIsTerminal && !json { FileHandle.standardError.write(Data("\r\(status(progress))   \n".utf8)) }
        reports += found

        var written: [(Fuzzer.Report, URL)] = []
        for report in found {
            try? Reproduction.save(report.shrunk, property: report.finding.property, in: corpusFolder)
            if let url = try? writeScenario(report, into: outFolder) { written.append((report, url)) }
        }
        if json {
            print(jsonReport(progress: progress, reports: reports, written: written))
        } else {
            for report in reports { describe(report, file: written.first { $0.0.shrunk == report.shrunk }?.1) }
            printLine("\(progress.runs) runs, \(progress.steps) steps in \(String(format: "%.1f", progress.elapsed)) s (\(Int(progress.stepsPerSecond)) steps/s), \(reports.count) finding\(reports.count == 1 ? "" : "s")")
        }
        if wasInterrupted { throw Outcome.interrupted.exitCode }
        if !reports.isEmpty { throw Outcome.failed.exitCode }
    }

    private func status(_ state: Fuzzer.Progress) -> String {
        "fuzz \(pack): run \(state.runs)/\(runs)  steps \(state.steps)  \(Int(state.stepsPerSecond)) steps/s  findings \(state.findings)"
    }

    private func printLine(_ text: String) {
        print(text)
        fflush(nil)
    }

    private func writeScenario(_ report: Fuzzer.Report, into folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let packFolder = URL(fileURLWithPath: pack).standardizedFileURL
        let reference = FileManager.default.fileExists(atPath: packFolder.appendingPathComponent("pack.lua").path)
            ? relativePath(from: folder.standardizedFileURL, to: packFolder) : pack
        let name = "\(URL(fileURLWithPath: pack).lastPathComponent)-seed\(seed)-\(report.finding.property)-\(report.shrunk.seed).yaml"
        let url = folder.appendingPathComponent(name)
        try Data(Reproduction.scenario(for: report, packReference: reference, fuzzSeed: seed).utf8).write(to: url, options: .atomic)
        return url
    }

    private func describe(_ report: Fuzzer.Report, file: URL?) {
        print("FINDING: \(report.finding)")
        print("  shrunk from \(report.original.steps.count) to \(report.shrunk.steps.count) steps in \(String(format: "%.2f", report.shrinkSeconds)) s (\(report.shrinkAttempts) candidates)")
        for step in report.shrunk.steps { print("    \(step)") }
        if let file { print("  reproduce: rulebench run \(file.path)") }
    }

    private func jsonReport(progress: Fuzzer.Progress, reports: [Fuzzer.Report], written: [(Fuzzer.Report, URL)]) -> String {
        let findings = JSONValue.array(reports.map { report in
            var members: [(String, JSONValue)] = [
                ("property", .string(report.finding.property.rawValue)),
                ("message", .string(report.finding.message)),
                ("step", .int(Int64(report.finding.stepIndex + 1))),
                ("blame", report.finding.blame.map { .string($0) } ?? .null),
                ("differences", .array(report.finding.differences.prefix(10).map {
                    .object([("path", .string($0.path)), ("before", .string($0.before)), ("after", .string($0.after))])
                })),
                ("originalSteps", .int(Int64(report.original.steps.count))),
                ("shrunkSteps", .int(Int64(report.shrunk.steps.count))),
                ("shrinkSeconds", .double(report.shrinkSeconds)),
                ("stepsToDetection", .int(Int64(report.stepsToDetection))),
            ]
            if let file = written.first(where: { $0.0.shrunk == report.shrunk })?.1 { members.append(("scenario", .string(file.path))) }
            return .object(members)
        })
        return JSONValue.object([
            ("pack", .string(pack)), ("seed", .int(Int64(bitPattern: seed))), ("runs", .int(Int64(progress.runs))),
            ("steps", .int(Int64(progress.steps))), ("seconds", .double(progress.elapsed)),
            ("stepsPerSecond", .double(progress.stepsPerSecond)), ("interrupted", .bool(wasInterrupted)),
            ("findings", findings),
        ]).serialized()
    }
}

/// A relative path from a folder to a file or folder ("../../rules/desert").
func relativePath(from folder: URL, to target: URL) -> String {
    let from = folder.pathComponents
    let to = target.pathComponents
    var common = 0
    while common < from.count && common < to.count && from[common] == to[common] { common += 1 }
    let ups = Array(repeating: "..", count: from.count - common)
    let parts = ups + to[common...]
    return parts.isEmpty ? "." : parts.joined(separator: "/")
}
