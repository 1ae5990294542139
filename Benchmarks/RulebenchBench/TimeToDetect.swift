import Foundation
import Rulebench

/// `rulebench-bench --detect [NAME-SUBSTRING] [--seconds S] [--seeds N | --seed K]`:
/// how long the fuzzer takes to find each planted bug of
/// `Benchmarks/mutants.json`, with uniform random search and with the
/// guided search, side by side, and how short its reproduction is. Only the
/// mutants whose label contains NAME-SUBSTRING run ("rare path" picks the
/// rare-path ones).
///
/// Each mutant is fuzzed from N session seeds (default 5) per strategy,
/// each session a `fuzz --time S` session (default 30) stopped at its first
/// finding (the unmutated packs have none, so any finding is the planted
/// bug's), its whole wall time measured: detection, shrinking, the search
/// for shorter instances and lines, and the judgement from a fresh start
/// (the goal: within S + 1 s). Each mutant's true minimal length is
/// computed (`Fuzzer.shortestFailingLine`: a breadth-first search of every
/// line from game seeds 0 to 7), or, for a rare path too deep to search,
/// taken from its hand-found line (argued in mutants.json). It prints a
/// Markdown table of medians, the rare-path ratio of the median times,
/// uniform over guided (the goal: at least 5x), and the shrunk lengths
/// against the minimal ones (the goal: median at most minimal + 1, none
/// longer than 1.5x). Not part of the default run: a full table takes minutes.
enum TimeToDetect {
    /// The session seeds every mutant is fuzzed from, with each strategy (the first N of them).
    static let seeds: [UInt64] = [1, 2, 3, 4, 5]
    /// The strategies compared, in table order.
    static let strategies: [SearchStrategy] = [.uniform, .guided]

    /// What one session found.
    struct Session {
        /// Seconds from the session's start to the end of the run that found
        /// the bug (shrinking excluded); nil when nothing was found.
        var seconds: Double?
        /// Steps taken before the finding (`Report.stepsToDetection`).
        var steps: Int?
        /// Steps of the shrunk reproduction.
        var shrunk: Int?
        /// The whole session's wall time (the run call, shrinking and all).
        var wall = 0.0
        /// Whether the scenario runner fails on the reproduction from a fresh start.
        var reproduces = false
        /// The property that failed, when it is not the one the tests expect.
        var otherProperty: String?
    }

    /// The medians of one mutant's sessions with one strategy.
    struct Summary {
        var found: Int
        var sessions: Int
        /// Nil when the median session found nothing.
        var seconds: Double?
        var steps: Int?
        /// Over the sessions that found the bug.
        var shrunk: Int?
        /// The longest shrunk reproduction, and the whole sessions' wall times: median and longest.
        var longestShrunk: Int?
        var wall: Double?
        var longestWall: Double?
        /// Sessions whose reproduction the scenario runner fails on.
        var reproduced: Int
        var otherProperties: Set<String>

        init(_ runs: [Session]) {
            sessions = runs.count
            found = runs.count { $0.seconds != nil }
            // A session that found nothing counts as slower than any that did.
            seconds = TimeToDetect.median(runs.map { $0.seconds ?? .infinity }).flatMap { $0.isFinite ? $0 : nil }
            let steps = TimeToDetect.median(runs.map { $0.steps.map(Double.init) ?? .infinity })
            self.steps = steps.flatMap { $0.isFinite ? Int($0) : nil }
            shrunk = TimeToDetect.median(runs.compactMap { $0.shrunk.map(Double.init) }).map { Int($0.rounded()) }
            longestShrunk = runs.compactMap(\.shrunk).max()
            wall = TimeToDetect.median(runs.map(\.wall))
            longestWall = runs.map(\.wall).max()
            reproduced = runs.count(where: \.reproduces)
            otherProperties = Set(runs.compactMap(\.otherProperty))
        }
    }

    /// The median of `values` (the mean of the middle two for an even
    /// count); nil for none.
    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// One fuzz session of the mutated pack at `pack`, timed on a monotonic clock.
    static func session(_ mutant: Mutant, pack: String, seed: UInt64, search: SearchStrategy, cap: Double) -> Session {
        var options = Fuzzer.Options(pack: pack)
        options.seed = seed
        options.search = search
        options.timeLimit = cap
        options.runs = nil
        options.keepGoing = false
        options.configuration.printHandler = { _ in }
        let began = MonotonicClock.seconds()
        let reports = Fuzzer(options: options).run().reports
        let wall = MonotonicClock.seconds() - began
        guard let report = reports.first else { return Session(wall: wall) }
        let property = "\(report.finding.property)"
        return Session(seconds: report.secondsToDetection, steps: report.stepsToDetection,
                       shrunk: report.shrunk.steps.count, wall: wall, reproduces: report.freshStart == .fails,
                       otherProperty: property == mutant.expected ? nil : property)
    }

    /// A mutant's true minimal length and how it was found: a breadth-first
    /// search from game seeds 0 to 7 (a length it found, or a bound when
    /// the search was cut short), or the rare path's hand-found line.
    static func minimal(_ mutant: Mutant, pack: String) -> (length: Int?, method: String) {
        if let rare = mutant.rare { return (rare.minimal.steps.count, "by hand") }
        guard let property = FuzzFinding.Property.allCases.first(where: { "\($0)" == mutant.expected }) else { return (nil, "-") }
        var options = Fuzzer.Options(pack: pack)
        options.configuration.printHandler = { _ in }
        let found = Fuzzer(options: options).shortestFailingLine(property, seeds: Array(0...7), limit: mutant.maxShrunkSteps + 2)
        guard let found else { return (nil, "not searchable") }
        return (found.length, found.proven ? "BFS" : "BFS, cut short")
    }

    /// Runs the mode: `arguments` are what follows `--detect`.
    static func run(arguments: [String]) throws {
        let (filter, cap, chosen, sessionSeeds) = try options(arguments)
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let mutants = try Mutant.all(root: root).filter { mutant in
            filter.map { mutant.label.localizedCaseInsensitiveContains($0) } ?? true
        }
        guard !mutants.isEmpty else { throw BenchError("no mutant's name contains '\(filter ?? "")'") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-detect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        print("Time to detect: \(mutants.count) planted bug\(mutants.count == 1 ? "" : "s"), session seeds \(sessionSeeds.map(String.init).joined(separator: ", ")), " +
              "sessions of --time \(format(cap)) s, each stopped at its first finding; " +
              "\(ProcessInfo.processInfo.processorCount) cores")
        print("")
        print("| mutant | search | found | median time to detect | median steps to detect | minimal length (method) | shrunk length: median, longest | fails under run | whole session wall: median, longest |")
        print("|---|---|---|---|---|---|---|---|---|")
        var rareRatios: [(name: String, text: String, ratio: Double?)] = []
        var lengths: [(shrunk: Int, minimal: Int)] = []
        for (index, mutant) in mutants.enumerated() {
            let pack = try mutant.mutatedPack(root: root, into: folder, as: "mutant\(index)").path
            let minimal = minimal(mutant, pack: pack)
            var summaries: [SearchStrategy: Summary] = [:]
            for search in chosen {
                let sessions = sessionSeeds.map { session(mutant, pack: pack, seed: $0, search: search, cap: cap) }
                // Only the planted bug's reproductions: another bug found first has another minimal.
                if let length = minimal.length {
                    lengths += sessions.filter { $0.otherProperty == nil }.compactMap { $0.shrunk.map { ($0, length) } }
                }
                // Progress on standard error, a line per mutant and strategy: a full table takes minutes.
                let times = sessions.map { $0.seconds.map(format) ?? "-" }.joined(separator: " ")
                let steps = sessions.map { $0.steps.map(String.init) ?? "-" }.joined(separator: " ")
                let shrunk = sessions.map { $0.shrunk.map(String.init) ?? "-" }.joined(separator: " ")
                let walls = sessions.map { format($0.wall) }.joined(separator: " ")
                FileHandle.standardError.write(Data("detect: \(mutant.shortName), \(search): \(times) s; steps \(steps); shrunk \(shrunk); wall \(walls) s\n".utf8))
                let summary = Summary(sessions)
                summaries[search] = summary
                print(row(mutant, search, summary, minimal: minimal, cap: cap))
            }
            if mutant.rare != nil, let uniform = summaries[.uniform], let guided = summaries[.guided] {
                rareRatios.append(ratio(mutant.shortName, uniform: uniform.seconds, guided: guided.seconds, cap: cap))
            }
        }
        printGoals(rareRatios: rareRatios, lengths: lengths)
    }

    /// The mode's options: a mutant filter, `--search`, `--seeds` and `--seconds`.
    static func options(_ arguments: [String]) throws
        -> (filter: String?, cap: Double, chosen: [SearchStrategy], sessionSeeds: [UInt64]) {
        var filter: String?
        var cap = 30.0
        var chosen = strategies
        var sessionSeeds = seeds
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--search" {
                guard let text = rest.popFirst(), let search = SearchStrategy(rawValue: text) else {
                    throw BenchError("--search needs one of: " + SearchStrategy.allCases.map(\.rawValue).joined(separator: ", "))
                }
                chosen = [search]
            } else if argument == "--seeds" {
                guard let text = rest.popFirst(), let count = Int(text), (1...seeds.count).contains(count) else {
                    throw BenchError("--seeds needs a count from 1 to \(seeds.count)")
                }
                sessionSeeds = Array(seeds.prefix(count))
            } else if argument == "--seed" {
                // One session seed alone (a session of a table to look at again).
                guard let text = rest.popFirst(), let seed = UInt64(text) else { throw BenchError("--seed needs a session seed") }
                sessionSeeds = [seed]
            } else if argument == "--seconds" {
                guard let text = rest.popFirst(), let seconds = Double(text), seconds > 0 else {
                    throw BenchError("--seconds needs a number of seconds")
                }
                cap = seconds
            } else {
                filter = argument
            }
        }
        return (filter, cap, chosen, sessionSeeds)
    }

    /// The lines under the table that compare with the goals: the rare-path
    /// mutants' ratio of uniform to guided, and shrunk against minimal lengths.
    static func printGoals(rareRatios: [(name: String, text: String, ratio: Double?)], lengths: [(shrunk: Int, minimal: Int)]) {
        if !rareRatios.isEmpty {
            let least = rareRatios.compactMap(\.ratio).min()
            print("")
            // A bound counts as its value: "more than 6x" passes a 5x goal, "less than 0.5x" fails it.
            print("Rare-path mutants, median time to detect, uniform / guided: " +
                  rareRatios.map { "\($0.name) \($0.text)" }.joined(separator: "; ") +
                  (least.map { "; the least \(String(format: "%.1fx", $0))" } ?? "") + " (goal: at least 5x).")
        }
        if let excess = median(lengths.map { Double($0.shrunk - $0.minimal) }) {
            let worst = lengths.map { Double($0.shrunk) / Double(max(1, $0.minimal)) }.max() ?? 1
            print("")
            print("Shrunk against minimal, over \(lengths.count) sessions: median excess \(String(format: "%+.1f", excess)) steps "
                  + "(goal: at most +1), longest \(String(format: "%.2f", worst))x the minimal (goal: at most 1.5x).")
        }
    }

    /// A table row: the medians of one mutant with one strategy.
    static func row(_ mutant: Mutant, _ search: SearchStrategy, _ summary: Summary,
                    minimal: (length: Int?, method: String), cap: Double) -> String {
        let name = mutant.label + " [\(mutant.pack)]"
        let time = summary.seconds.map { format($0) + " s" } ?? "not found in \(format(cap)) s"
        let steps = summary.steps.map(String.init) ?? "-"
        let least = (minimal.length.map(String.init) ?? "-") + " (\(minimal.method))"
        let shrunk = (summary.shrunk.map(String.init) ?? "-") + ", " + (summary.longestShrunk.map(String.init) ?? "-")
        let wall = (summary.wall.map { format($0) } ?? "-") + ", " + (summary.longestWall.map { format($0) + " s" } ?? "-")
        let other = summary.otherProperties.isEmpty ? "" : " (found as \(summary.otherProperties.sorted().joined(separator: ", ")))"
        return "| \(name) | \(search) | \(summary.found)/\(summary.sessions)\(other) | \(time) | \(steps) | \(least) | \(shrunk) | "
            + "\(summary.reproduced)/\(summary.found) | \(wall) |"
    }

    /// Uniform's median time over guided's, as text and as a number. A
    /// strategy whose median session found nothing counts as taking the
    /// whole cap, so the ratio is then a bound ("more than", "less than");
    /// nil when neither found it.
    static func ratio(_ name: String, uniform: Double?, guided: Double?, cap: Double) -> (name: String, text: String, ratio: Double?) {
        // Medians below a millisecond are timer noise: 1 ms is the floor.
        let floor = 0.001
        switch (uniform, guided) {
        case let (u?, g?): return (name, String(format: "%.1fx", u / max(g, floor)), u / max(g, floor))
        case let (nil, g?): return (name, String(format: "more than %.1fx", cap / max(g, floor)), cap / max(g, floor))
        case let (u?, nil): return (name, String(format: "less than %.2fx", u / cap), u / cap)
        case (nil, nil): return (name, "neither found it", nil)
        }
    }

    /// Seconds with three decimals below 0.1 s, two below 10 s, one above.
    static func format(_ seconds: Double) -> String {
        String(format: seconds < 0.1 ? "%.3f" : seconds < 10 ? "%.2f" : "%.1f", seconds)
    }
}
