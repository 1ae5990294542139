import Foundation
import Rulebench

/// `rulebench-bench --shrink [--rounds N] [--base BINARY] [--only in-process|rewound|processes] [--mutant PREFIX] [--profile]`:
/// row (S1), shrinking's candidates per second on the chess mutants' first
/// lines (`Benchmarks/mutants.json`).
///
/// Each chess mutant is planted in a copy of its pack and fuzzed with its
/// planted-bug test's session (seed, runs, depth, search), shrinking off (a
/// budget of one candidate), so the report's original is the first line as
/// the fuzzer played it. Then, in this process, the `Shrinker` shrinks it
/// with the default budget (`ShrinkTiming`), candidates rewound to the
/// shared steps and replayed from a restarted game, alternated, N rounds
/// (default 3): candidates per CPU second of this thread, candidates, the
/// final length; best of the rounds. Then, side by side, this build's
/// `rulebench` and BINARY (the base's release build) run `fuzz PACK --seed
/// S --runs R --depth D --search uniform --json` alternately, N rounds each,
/// with a fresh corpus and output folder each time: the report's
/// `shrinkCandidatesPerSecond` (candidates over the shrink's wall seconds),
/// its candidates and lengths; best of the rounds, and the ratio of the
/// bests. On a loaded machine only the ratios of alternated runs mean much.
/// `--only rewound`: the in-process shrinks with candidates rewound only
/// (what callgrind's `--toggle-collect='*ShrinkTiming*measure*'` counts);
/// `--mutant PREFIX`: only the chess mutants whose short name starts so.
enum ShrinkBench {
    /// The mutants measured: those planted in the chess pack.
    static func chessMutants(root: URL) throws -> [Mutant] {
        try Mutant.all(root: root).filter { $0.pack.hasSuffix("chess") }
    }

    static func run(arguments: [String]) throws {
        var rounds = 3
        var base: String?
        var only: String?
        var prefix = ""
        var words = arguments[...]
        while let word = words.popFirst() {
            switch word {
            case "--rounds": rounds = try Int(words.popFirst() ?? "").orThrow("--rounds needs a whole number")
            case "--base": base = try words.popFirst().orThrow("--base needs the base's rulebench binary")
            case "--only": only = try words.popFirst().orThrow("--only needs in-process, rewound or processes")
            case "--profile": only = "profile"
            case "--mutant": prefix = try words.popFirst().orThrow("--mutant needs the start of a mutant's short name")
            default: throw BenchError("unknown argument \(word)")
            }
        }
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-shrink-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let mutants = try chessMutants(root: root).filter { $0.shortName.hasPrefix(prefix) }
        let packs = try mutants.enumerated().map { index, mutant in
            try mutant.mutatedPack(root: root, into: folder, as: "chess-mutant-\(index)")
        }
        if only == "profile" {
            for (mutant, pack) in zip(mutants, packs) { try profile(mutant, pack: pack) }
            return
        }
        if only != "processes" {
            let ways = only == "rewound" ? [true] : [true, false]
            print("| mutant | first line | rewound: candidates/CPU s | replayed from setup | candidates | shrunk to |")
            print("|---|---|---|---|---|---|")
            for (mutant, pack) in zip(mutants, packs) { try inProcess(mutant, pack: pack, rounds: rounds, ways: ways) }
        }
        if only != "in-process" && only != "rewound" {
            guard let base else { return print("(no --base BINARY: the side-by-side runs are left out)") }
            print("| mutant | first line | this build: candidates/s | base | ratio (bests) | ratios by round | candidates | shrunk to (base) |")
            print("|---|---|---|---|---|---|---|---|")
            for (mutant, pack) in zip(mutants, packs) {
                try sideBySide(mutant, pack: pack, base: base, rounds: rounds, scratch: folder)
            }
        }
    }

    // MARK: In this process

    /// A session's options for `mutant`'s test session on `pack`.
    static func options(_ mutant: Mutant, pack: URL) -> Fuzzer.Options {
        var options = Fuzzer.Options(pack: pack.path)
        let budget = mutant.testBudget
        options.seed = budget?.seed ?? 1
        options.runs = budget?.runs ?? 30
        options.depth = budget?.depth ?? 60
        options.search = budget?.search.flatMap(SearchStrategy.init(rawValue:)) ?? .guided
        options.keepGoing = false
        options.shrinkBudget = 1
        var configuration = Game.Configuration()
        // No instruction budget: no operation runs again counted (a timed
        // watchdog's choice, which a loaded machine changes).
        configuration.instructionBudget = 0
        configuration.printHandler = { _ in }
        configuration.checksLeaks = false
        options.configuration = configuration
        return options
    }

    private static func inProcess(_ mutant: Mutant, pack: URL, rounds: Int, ways: [Bool]) throws {
        let options = options(mutant, pack: pack)
        guard let report = Fuzzer(options: options).run().reports.first(where: { "\($0.finding.property)" == mutant.expected })
        else { throw BenchError("\(mutant.name): its session found no \(mutant.expected)") }
        var rewound: [ShrinkTiming] = []
        var replayed: [ShrinkTiming] = []
        for _ in 0..<rounds {
            for resumes in ways {
                let timing = ShrinkTiming.measure(report, of: Fuzzer(options: options), resumes: resumes, clock: threadSeconds)
                if resumes { rewound.append(timing) } else { replayed.append(timing) }
            }
        }
        let best = { (list: [ShrinkTiming]) in list.map(\.candidatesPerSecond).max() ?? 0 }
        let first = rewound[0]
        print("| \(mutant.shortName) | \(first.originalSteps) steps | \(String(format: "%.0f", best(rewound))) "
              + "| \(String(format: "%.0f", best(replayed))) | \(first.candidates) (replayed \(replayed.first.map { "\($0.candidates)" } ?? "-")) "
              + "| \(first.shrunkSteps) (replayed \(replayed.first.map { "\($0.shrunkSteps)" } ?? "-")), \(first.status) |")
    }

    /// `--profile`: the Lua VM instructions of one shrink a candidate, by
    /// kernel file (rule code as one) and by function.
    private static func profile(_ mutant: Mutant, pack: URL) throws {
        let options = options(mutant, pack: pack)
        let fuzzer = Fuzzer(options: options)
        guard let report = fuzzer.run().reports.first(where: { "\($0.finding.property)" == mutant.expected })
        else { throw BenchError("\(mutant.name): its session found no \(mutant.expected)") }
        let (candidates, counts) = try ShrinkTiming.instructions(report, of: fuzzer)
        let total = counts.values.reduce(0, +)
        print("\(mutant.shortName): \(total / max(candidates, 1)) VM instructions a candidate (\(candidates) candidates)")
        var byFile: [String: Int] = [:]
        for (function, n) in counts {
            let file = function.split(separator: ":").first.map(String.init) ?? function
            byFile[file.hasPrefix("rulebench/Kernel/") ? file : "rule code", default: 0] += n
        }
        for (file, n) in byFile.sorted(by: { $0.value > $1.value }) {
            print(String(format: "  %8d  %5.1f%%  %@", n / max(candidates, 1), Double(n) * 100 / Double(max(total, 1)), file))
        }
        print("  top functions:")
        for (function, n) in counts.sorted(by: { $0.value > $1.value }).prefix(20) {
            print(String(format: "  %8d  %5.1f%%  %@", n / max(candidates, 1), Double(n) * 100 / Double(max(total, 1)), function))
        }
    }

    /// CPU seconds the calling thread has used so far.
    static func threadSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    // MARK: Side by side, whole processes

    /// The `rulebench` binary beside this one.
    static var ownBinary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rulebench").path
    }

    /// What one `fuzz --json` session reported of its first finding.
    struct Session {
        var candidatesPerSecond: Double
        var candidates: Int
        var originalSteps: Int
        var shrunkSteps: Int
    }

    private static func sideBySide(_ mutant: Mutant, pack: URL, base: String, rounds: Int, scratch: URL) throws {
        let options = options(mutant, pack: pack)
        let arguments = ["fuzz", pack.path, "--seed", "\(options.seed)", "--runs", "\(options.runs ?? 30)",
                         "--depth", "\(options.depth)", "--search", options.search.rawValue, "--json"]
        var mine: [Session] = []
        var theirs: [Session] = []
        for round in 0..<rounds {
            mine.append(try session(ownBinary, arguments, scratch: scratch.appendingPathComponent("mine-\(round)")))
            theirs.append(try session(base, arguments, scratch: scratch.appendingPathComponent("base-\(round)")))
        }
        let bestMine = mine.map(\.candidatesPerSecond).max() ?? 0
        let bestBase = theirs.map(\.candidatesPerSecond).max() ?? 0
        let ratios = zip(mine, theirs).map { String(format: "%.1f", $0.candidatesPerSecond / $1.candidatesPerSecond) }
        print("| \(mutant.shortName) | \(mine[0].originalSteps) steps (base \(theirs[0].originalSteps)) "
              + "| \(String(format: "%.0f", bestMine)) | \(String(format: "%.0f", bestBase)) "
              + "| \(String(format: "%.2fx", bestMine / bestBase)) | \(ratios.joined(separator: ", ")) "
              + "| \(mine[0].candidates) (base \(theirs[0].candidates)) | \(mine[0].shrunkSteps) (\(theirs[0].shrunkSteps)) |")
    }

    /// Runs `binary arguments` with a fresh corpus and output folder under
    /// `scratch`, and reads its report's first finding.
    private static func session(_ binary: String, _ arguments: [String], scratch: URL) throws -> Session {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let output = scratch.appendingPathComponent("report.json")
        try spawn(binary, arguments + ["--corpus", scratch.appendingPathComponent("corpus").path,
                                       "--out", scratch.appendingPathComponent("out").path], stdout: output)
        let data = try Data(contentsOf: output)
        guard let report = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let findings = report["findings"] as? [[String: Any]], let first = findings.first,
              let rate = first["shrinkCandidatesPerSecond"] as? Double, let candidates = first["shrinkCandidates"] as? Int,
              let original = first["originalSteps"] as? Int, let shrunk = first["shrunkSteps"] as? Int
        else { throw BenchError("\(binary) \(arguments.joined(separator: " ")): no finding with shrink figures in its report") }
        return Session(candidatesPerSecond: rate, candidates: candidates, originalSteps: original, shrunkSteps: shrunk)
    }

    /// Runs `path ARGUMENTS` to its exit, its standard output into `stdout`,
    /// its standard error discarded.
    private static func spawn(_ path: String, _ arguments: [String], stdout: URL) throws {
        var pid: pid_t = 0
        var argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, stdout.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        defer { posix_spawn_file_actions_destroy(&actions) }
        guard posix_spawn(&pid, path, &actions, nil, &argv, environ) == 0 else { throw BenchError("cannot start \(path)") }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}

private extension Optional {
    /// The value, or a bench error saying `message`.
    func orThrow(_ message: String) throws -> Wrapped {
        guard let value = self else { throw BenchError(message) }
        return value
    }
}
