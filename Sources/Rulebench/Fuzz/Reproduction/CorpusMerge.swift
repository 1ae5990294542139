import Foundation

/// Merges fuzz corpora into one: the corpora of a session's shards (one per
/// machine of a CI matrix), or last run's corpus and this run's.
///
/// Every program is replayed, shortest first: a program that still fails
/// is kept when it is the first of its bug (`FindingKey`: the property,
/// the blamed action path and Lua file:line), so N shards that found the
/// same bug leave one program of it; a program that no longer fails is
/// dropped, unless `keepFixed` asks to keep those that reach line-to-line
/// edges of the pack's Lua no kept program reaches (a regression corpus
/// of fixed bugs, each kept only when it tests something the others do
/// not). A file that cannot be read is named and left alone.
public struct CorpusMerge {
    /// What happened to one program.
    public enum Verdict: Sendable, Equatable {
        /// Still fails, and is the shortest program of its bug: kept.
        case kept
        /// No longer fails, but reaches edges of the pack's Lua no kept
        /// program reaches: kept as a regression test (`keepFixed`).
        case regression
        /// Fails the same way as a shorter kept program (named by its file): dropped.
        case duplicate(of: String)
        /// The very program of another file (named): dropped.
        case copy(of: String)
        /// No longer fails (and, with `keepFixed`, reaches nothing new): dropped.
        case fixed

        /// Whether the program stays in the merged corpus.
        public var isKept: Bool { self == .kept || self == .regression }

        /// The verdict as one word, for reports (`kept`, `regression`, `duplicate`, `copy`, `fixed`).
        public var name: String {
            switch self {
            case .kept: return "kept"
            case .regression: return "regression"
            case .duplicate: return "duplicate"
            case .copy: return "copy"
            case .fixed: return "fixed"
            }
        }
    }

    /// One program of the inputs and what the merge made of it.
    public struct Entry: Sendable {
        /// The file it was read from, as messages show it.
        public var file: String
        /// The program.
        public var program: FuzzProgram
        /// The session that found it, when its file says.
        public var origin: FindingOrigin?
        /// The property it failed when it was saved, when its file names one.
        public var savedProperty: FuzzFinding.Property?
        /// How it fails now (nil: it passes).
        public var finding: FuzzFinding?
        /// What the merge made of it.
        public var verdict: Verdict
        /// For a kept failing program: its report, played again with every
        /// source line recorded, for writing it as a scenario.
        public var report: Fuzzer.Report?
    }

    /// The outcome of a merge.
    public struct Result: Sendable {
        /// Every program read, in the order replayed (shortest first, then by file).
        public var entries: [Entry] = []
        /// Files that cannot be used, each naming the file and what is wrong, in input order.
        public var skipped: [InputProblem] = []
        /// The programs that stay in the merged corpus.
        public var kept: [Entry] { entries.filter(\.verdict.isKept) }
        /// The distinct bugs: the kept programs that still fail.
        public var bugs: [Entry] { entries.filter { $0.verdict == .kept } }
    }

    /// The corpus folders to merge (a missing folder is an empty corpus).
    public var inputs: [URL]
    /// Keep programs that no longer fail when they reach edges of the pack's
    /// Lua no kept program reaches (see the type's description).
    public var keepFixed = false
    /// How games are made (strict mode is always on, as when fuzzing).
    public var configuration = Game.Configuration()
    /// A folder a relative pack path is resolved against.
    public var base: URL?
    /// The workers the programs are replayed on, each in a Lua state of its
    /// own; the verdicts do not depend on how many there are.
    public var pool = WorkerPool(workers: 1)

    /// A merge of these corpus folders.
    public init(inputs: [URL]) { self.inputs = inputs }

    /// Reads and replays every program; nothing is written (see `write`).
    /// `progress` is told how many programs of how many were replayed (from
    /// a worker's thread, one call at a time, the counts in order).
    ///
    /// - Throws: `.badInput` when a program's pack cannot be loaded (named
    ///   with the corpus file that names it): a merge that cannot replay
    ///   its programs must not drop them.
    public func run(progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }) throws(RulebenchError) -> Result {
        var result = Result()
        var read: [Reproduction.Corpus.Entry] = []
        for folder in inputs {
            let corpus = Reproduction.load(from: folder)
            read += corpus.entries
            result.skipped += corpus.skipped
        }
        // Shortest first, so the program kept for a bug is its shortest; ties by file, for a stable result.
        read.sort { ($0.program.steps.count, $0.file) < ($1.program.steps.count, $1.file) }
        let executor = FuzzExecutor(configuration: gameConfiguration(coverage: false), base: base)
        try checkPacks(of: read, with: executor)

        // Every program is replayed on its own (the workers'); the verdicts are then given in order, here.
        let findings = replayed(read.map(\.program), progress: progress)
        var firstFile: [FuzzProgram: String] = [:]
        var firstOfBug: [FindingKey: String] = [:]
        for (index, item) in read.enumerated() {
            var entry = Entry(file: item.file, program: item.program, origin: item.origin, savedProperty: item.property,
                              finding: nil, verdict: .fixed)
            if let first = firstFile[item.program] {
                entry.verdict = .copy(of: first)
            } else {
                firstFile[item.program] = item.file
                entry.finding = findings[index]
                if let finding = entry.finding {
                    let key = FindingKey(finding)
                    if let first = firstOfBug[key] {
                        entry.verdict = .duplicate(of: first)
                    } else {
                        firstOfBug[key] = item.file
                        entry.verdict = .kept
                    }
                }
            }
            result.entries.append(entry)
        }
        if keepFixed { keepRegressions(in: &result) }
        attachReports(to: &result)
        return result
    }

    /// Writes the merged corpus into `folder` (created when missing): each
    /// kept program under the name `fuzz` gives it, with its origin; then
    /// every other corpus file of the folder that this merge read is
    /// removed (new files first, so a merge stopped half-way loses
    /// nothing). Files of the folder that could not be read stay.
    /// Returns the files written, in the order of `result.kept`.
    @discardableResult
    public func write(_ result: Result, to folder: URL) throws(RulebenchError) -> [URL] {
        var written: [URL] = []
        for entry in result.kept {
            // A regression test keeps the property it failed when it was found;
            // a file that names none (written by hand) is copied as it is.
            if let property = entry.finding?.property ?? entry.savedProperty {
                written.append(try Reproduction.save(entry.program, property: property, origin: entry.origin, in: folder))
            } else {
                written.append(try copy(entry.file, into: folder))
            }
        }
        let keep = Set(written.map { $0.standardizedFileURL.resolvingSymlinksInPath().path })
        let target = folder.standardizedFileURL.resolvingSymlinksInPath().path
        for entry in result.entries {
            let url = URL(fileURLWithPath: entry.file).standardizedFileURL.resolvingSymlinksInPath()
            guard url.deletingLastPathComponent().path == target, !keep.contains(url.path) else { continue }
            do {
                try FileManager.default.removeItem(at: url)
            } catch {
                throw .badInput(InputProblem("cannot remove the dropped corpus file: \(error.localizedDescription)",
                                             file: entry.file))
            }
        }
        return written
    }

    /// Copies a corpus file into `folder` under its own name (unless it is there already).
    private func copy(_ file: String, into folder: URL) throws(RulebenchError) -> URL {
        let source = URL(fileURLWithPath: file)
        let target = folder.appendingPathComponent(source.lastPathComponent)
        guard source.standardizedFileURL.resolvingSymlinksInPath() != target.standardizedFileURL.resolvingSymlinksInPath()
        else { return target }
        let data = try InputFile.bytes(source, display: file)
        try OutputFolder(folder, purpose: "the merged corpus").create()
        try OutputFile(target, purpose: "the merged corpus").write(data)
        return target
    }

    private func gameConfiguration(coverage: Bool) -> Game.Configuration {
        var configuration = configuration
        configuration.strict = true
        configuration.animationSources = false
        configuration.collectsCoverage = coverage
        return configuration
    }

    /// Every pack the programs name must load: otherwise each of its
    /// programs would "fail" with a setup error, and the merge would keep
    /// one and drop the rest.
    private func checkPacks(of entries: [Reproduction.Corpus.Entry], with executor: FuzzExecutor) throws(RulebenchError) {
        var checked: Set<String> = []
        for entry in entries where checked.insert(entry.program.pack).inserted {
            var start = entry.program
            start.steps = []
            do {
                _ = try executor.newGame(start)
            } catch {
                throw .badInput(InputProblem("the pack '\(entry.program.pack)' this program names cannot be loaded: \(error)",
                                             file: entry.file))
            }
        }
    }

    /// With `keepFixed`: the kept failing programs are replayed first, with
    /// coverage on, then each program that no longer fails, shortest
    /// first; one that reaches an edge none before it reached is kept.
    private func keepRegressions(in result: inout Result) {
        let executor = FuzzExecutor(configuration: gameConfiguration(coverage: true), base: base)
        for entry in result.entries where entry.verdict == .kept {
            _ = executor.execute(entry.program, checkLegality: false)
        }
        for index in result.entries.indices where result.entries[index].verdict == .fixed {
            if executor.execute(result.entries[index].program, checkLegality: false).newEdges > 0 {
                result.entries[index].verdict = .regression
            }
        }
    }

    /// How each program fails when replayed (nil: it passes, or it is a
    /// copy of an earlier one, which is not played), on the workers, each
    /// with an executor of its own.
    private func replayed(_ programs: [FuzzProgram], progress: @escaping @Sendable (Int, Int) -> Void) -> [FuzzFinding?] {
        var seen: Set<FuzzProgram> = []
        let firsts = programs.indices.filter { seen.insert(programs[$0]).inserted }
        let (configuration, base) = (gameConfiguration(coverage: false), base)
        let found = pool.map(count: firsts.count, makeWorker: { _ in FuzzExecutor(configuration: configuration, base: base) },
                             completed: { index, _ in progress(index + 1, firsts.count) },
                             body: { executor, index in executor.execute(programs[firsts[index]], checkLegality: false).finding })
        var findings = [FuzzFinding?](repeating: nil, count: programs.count)
        for (index, finding) in zip(firsts, found) { findings[index] = finding }
        return findings
    }

    /// Plays each kept failing program once more with every source line
    /// recorded (as fuzz does before it writes a reproduction), on the workers.
    private func attachReports(to result: inout Result) {
        var configuration = gameConfiguration(coverage: false)
        configuration.animationSources = true
        let base = base
        let kept = result.entries.indices.filter { result.entries[$0].verdict == .kept && result.entries[$0].finding != nil }
        let entries = kept.map { result.entries[$0] }
        let reports = pool.map(count: entries.count, makeWorker: { [configuration] _ in FuzzExecutor(configuration: configuration, base: base) },
                               body: { executor, index -> Fuzzer.Report in
            let (program, finding) = (entries[index].program, entries[index].finding!)
            let again = executor.execute(program, checkLegality: false, finalChecks: false)
            let reported = again.finding.flatMap { $0.property == finding.property ? $0 : nil } ?? finding
            return Fuzzer.Report(finding: reported, original: program, shrunk: program, outcomes: again.outcomes,
                                 shrinkSeconds: 0, shrinkAttempts: 0, stepsToDetection: 0)
        })
        for (index, report) in zip(kept, reports) { result.entries[index].report = report }
    }
}
