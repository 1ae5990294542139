import ArgumentParser
import Foundation
import Rulebench
import RulebenchCommandLine

/// `rulebench fuzz PACK`: random games checked after every step, findings shrunk to scenarios.
struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Play random games of a pack and check undo, redo, invariants and determinism after every step.",
        discussion: """
            Each run plays up to --depth steps: random legal actions, undo/redo of 1-3 steps, undo to the \
            last checkpoint (`undo: turn`), take-backs of the last turn (`undo: last turn`), and attempts with \
            illegal params. Checked after every step: undo restores the \
            state exactly (with blame), redo reproduces the action, a failed action changes nothing, every \
            legal action applies, invariants hold; at the end of a run: rewinding gives the initial state, and \
            the saved history replays with the same hashes (and every 32nd run plays the same in a second \
            Lua state with another string hash seed). Ctrl-C (SIGINT) or SIGTERM (`timeout`, CI, \
            Kubernetes) stops cleanly, also while a rule runs long, writes what was found, and exits 130 or 143.

            Search (--search): guided, the default, chooses each step rare kinds first: a call's kind is \
            the place in the rules that emitted it, or the kind `emit(params, "capture")` names; a kind never played in the session is played as soon as \
            it is offered, other kinds the less often the more they were played, and within a kind the call \
            played least so far. It keeps each run that reached lines of the pack's Lua no earlier run reached, \
            and builds on those: it walks every line one or two moves deep from where a kept run reached \
            something new, goes on from there, changes one action's params, or joins two kept runs; many runs \
            leave out a random half of the kinds played so far (swarm); after 5,000 steps it walks every line of play up to three \
            moves deep from the start. uniform plays fresh random games, each step uniform among the legal \
            calls. --coverage FILE writes the lines reached as LCOV, with per-action counts and the lines \
            never reached.

            Budget: with --time, runs go on until the time is spent less its last share, or until --runs when \
            it is given too. \
            Without --time, \(Fuzzer.Options.defaultRuns) runs unless --runs says otherwise. The session stops \
            at the first finding; --keep-going goes on and reports each distinct bug once (the same property, \
            blamed action and Lua file:line is the same bug). --time T bounds the whole session: fuzzing, \
            shrinking, the search for shorter instances and writing end within T + 1 s. No run starts in the \
            last tenth of T (at most \(Int(Fuzzer.Options.defaultShrinkSeconds)) s) and the last second (a \
            quarter of T when shorter): a bug found as the fuzzing ends still has that tenth to shrink. After a finding, the \
            session spends up to half of T (at most \(Int(Fuzzer.Options.refinementSeconds)) s) on short runs that look \
            for other instances of the bug (at most half of what is left when time cut the first shrink short, \
            so that it can be finished), and reports the shortest reproduction. When the time (or Ctrl-C) stops \
            a shrink, the shortest reproduction found so far is written, and the report says so. Without --time a \
            shrink stops after \(Int(Fuzzer.Options.defaultShrinkSeconds)) s or \(Fuzzer.Options.defaultShrinkBudget) candidates. \
            The progress line shows the phase ("shrinking finding 1: 21 → 9 steps"); steps/s counts fuzzing only.

            A finding is shrunk (chunks of steps deleted with the steps that depend on them, `undo turn` and \
            `undo last turn` made `undo N`, counts, params and the game seed made smaller, until no single step can be removed; \
            "1-minimal" in --json, "shortest" when a search proved no line shorter) and written to --out as a \
            scenario file that `rulebench run` fails on: it is run once from a fresh start, as `run` runs it, \
            before it is reported, and a finding that no fresh start reproduces (a rule keeping state outside \
            `game`) is reported as such, without a file. Each bug gets its own file, named after its property, \
            blamed action and file:line, never overwriting another (fuzzers may share --out); a pack under a \
            rules/ folder is named by its name, so the file works wherever it is moved in the project. \
            The program is kept in --corpus \
            and replayed first next time. Both folders are checked before fuzzing starts. A corpus file that \
            cannot be used (not JSON, a count out of range) or that is a finding of another pack is skipped \
            with a note. Progress goes to standard error: a line redrawn in place on a \
            terminal, one line every \(Int(ProgressPacer.loggedInterval)) seconds when piped (CI logs).

            Shards (--shard K/N, one per machine of a CI matrix): run i is shard (i mod N) + 1's, and its \
            seeds come from --seed and i alone, so shards never make the same run; with --search uniform and \
            --runs R the N shards together play exactly the unsharded session. Guided shards split the runs \
            the same way, but shard 1 alone sweeps, and each builds on its own kept runs. A shard's findings \
            name it and the command that finds them again; `rulebench corpus merge` merges the shards' \
            corpora, one program per bug.

            Workers (--jobs N, one per core by default): the session's run numbers (those of its --shard) go \
            one at a time, in order, to whichever worker is free, each playing in Lua states of its own, so \
            --search uniform --runs R plays exactly the runs of --jobs 1. Each bug is shrunk and written once, \
            by the worker that met it first; the first finding (without --keep-going), --time and Ctrl-C stop \
            every worker. Guided workers share one set \
            of kept runs and probes and tell each other the edges and kinds of move their runs discovered, so \
            what is new is judged by every worker's runs; a guided session on several workers is not \
            repeatable run for run (see docs/ci.md).

            Exit codes: 0 no finding; 1 findings; 2 bad input (a pack that does not load, bad arguments, \
            an --out, --corpus or --coverage that cannot be written, or a finding that could not be \
            written); 130 / 143 stopped by SIGINT / SIGTERM.

            Examples:
              rulebench fuzz desert --seed 1 --runs 200 --depth 80
              rulebench fuzz desert --time 60
              rulebench fuzz desert --time 60 --coverage fuzz.lcov && genhtml fuzz.lcov -o coverage/
              rulebench fuzz desert --shard 2/4 --time 600 --keep-going --out findings/
            """
    )

    /// The most steps per run (--depth): a run's program is shrunk and
    /// replayed whole, so far longer runs would only be slow; a larger
    /// number is a typo (and `Int.max` never ended).
    static let maximumDepth = 10_000

    @OptionGroup var packOptions: PackOptions

    @OptionGroup var seedOption: SeedOption<FuzzCommand>

    @Option(parsing: .unconditional, help: ArgumentHelp("Number of runs (random games); without --time the default is \(Fuzzer.Options.defaultRuns), with --time no limit.",
                               valueName: "n"),
            transform: NumberArgument.whole("--runs"))
    var runs: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Maximum steps per run (1 to \(FuzzCommand.maximumDepth)). (default: \(FuzzCommand.defaultDepth))", valueName: "n"),
            transform: NumberArgument.whole("--depth"))
    var depth: Int = FuzzCommand.defaultDepth
    static let defaultDepth = 100

    @OptionGroup var timeOption: TimeOption<FuzzCommand>

    @Flag(help: "Go on after the first finding and collect more, one per distinct bug (property, blamed action, file:line).")
    var keepGoing = false

    @Option(help: "Run only shard K of N (K/N, 1-based): runs whose index mod N is K-1 (see Shards below).")
    var shard: String = "1/1"

    @Option(help: "Corpus folder of failing programs, replayed first (default .rulebench/corpus/PACK).")
    var corpus: String?

    @OptionGroup var outOption: OutOption<FuzzCommand>

    @Option(help: ArgumentHelp("Write an LCOV tracefile of the pack's Lua lines the runs reached (genhtml and editors read it); the report then lists per action how often it was performed, undone and redone, and the lines never reached.",
                               valueName: "file"))
    var coverage: String?

    @Option(help: ArgumentHelp("How runs are chosen: guided (the default: steps chosen rare kinds first, coverage-guided runs that build on runs that reached new lines, swarm runs and a breadth-first sweep) or uniform (every step uniform among the legal calls).",
                               valueName: "guided|uniform"))
    var search: SearchStrategy = .guided

    @Flag(help: "In a pack with seats, skip the no-leak property (that no seat's view, offered calls, scene or plans depend on what is hidden from it), checked at every step by default.")
    var noLeakCheck = false

    @OptionGroup var jsonOption: JSONOption<FuzzCommand>

    @OptionGroup var jobs: JobsOption

    func validate() throws {
        if let runs, runs < 1 { throw ValidationError("--runs must be at least 1, got \(runs)") }
        guard (1...Self.maximumDepth).contains(depth) else {
            throw ValidationError("--depth must be from 1 to \(Self.maximumDepth) steps per run, got \(depth)")
        }
        try timeOption.check()
        _ = try parsedShard()
    }

    /// K/N: exactly two runs of digits around one `/` (`1//2`, `+1/2` and
    /// `1/2/` are typos, not shards), with 1 <= K <= N <= 1000000.
    private func parsedShard() throws -> (Int, Int) {
        let parts = shard.split(separator: "/", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { part in part.allSatisfy { $0.isASCII && $0.isNumber } ? Int(part) : nil }
        let most = Fuzzer.Options.maximumShards
        guard parts.count == 2, numbers.count == 2, numbers[1] >= 1, numbers[1] <= most, (1...numbers[1]).contains(numbers[0]) else {
            throw ValidationError("--shard expects K/N with 1 <= K <= N <= \(most), got '\(shard)'")
        }
        return (numbers[0], numbers[1])
    }

    func run() throws {
        catchInterrupts()
        var options = Fuzzer.Options(pack: packOptions.pack)
        options.seed = seedOption.seed
        options.runs = runs
        options.depth = depth
        options.timeLimit = timeOption.seconds
        options.keepGoing = keepGoing
        options.shard = try parsedShard()
        options.setupOptions = try packOptions.setupOptionValues()
        options.configuration.printHandler = { _ in }
        options.configuration.checksLeaks = !noLeakCheck
        options.coverage = coverage != nil
        options.search = search

        // Bad input (unknown pack, broken pack) is exit 2, before any fuzzing.
        let info: PackInfo
        do {
            var configuration = options.configuration
            configuration.strict = true
            info = try Game(pack: packOptions.pack, options: options.setupOptions, seed: 0, configuration: configuration).pack
        } catch {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        // The pack's name comes from its pack.lua, so it is made a safe folder name.
        let corpusPath = corpus ?? ".rulebench/corpus/\(info.fileName)"
        var writer = FindingWriter(corpus: corpusPath, out: outOption.out ?? FuzzCommand.defaultOut, pack: packOptions.pack, seed: seedOption.seed, shard: options.shardName,
                                   complain: { complain($0) })
        // Outputs that cannot be written are found now, not after an hour of fuzzing.
        do {
            try writer.checkFolders()
            if let coverage { try OutputFile(path: coverage, purpose: "the coverage file (--coverage)").checkWritable() }
        } catch {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        let fuzzer = Fuzzer(options: options)
        var reports = replayCorpus(at: corpusPath, of: info, with: fuzzer)

        let clock = MonotonicClock.seconds
        var pacer = ProgressPacer(toTerminal: stderrIsTerminal, start: clock())
        var findingsShown = 0
        // Each finding is written as soon as it is shrunk: a session stopped
        // later (SIGTERM from a CI job's timeout) has lost none.
        let known = Set(reports.map(\.key))
        let write: (Fuzzer.Report) -> Void = { writer.write($0, origin: fuzzer.origin(of: $0)) }
        let show: (Fuzzer.Progress) -> Void = { state in
            guard !jsonOption.json else { return }
            // A new finding is news: shown at once, not at the next tick.
            let news = state.findings > findingsShown
            findingsShown = state.findings
            guard pacer.isDue(at: clock()) || news else { return }
            if stderrIsTerminal {
                FileHandle.standardError.write(Data(("\r\(status(state, shard: options.shardName))   ").utf8))
            } else {
                FileHandle.standardError.write(Data((status(state, shard: options.shardName) + "\n").utf8))
            }
        }
        let (found, progress, covered) = try session(fuzzer, known: known, found: write, progress: show)
        if stderrIsTerminal && !jsonOption.json { FileHandle.standardError.write(Data("\r\(status(progress, shard: options.shardName))   \n".utf8)) }
        reports += found

        let reached = try writeCoverage(covered)
        if jsonOption.json {
            print(FuzzReportFormat.render(pack: packOptions.pack, seed: seedOption.seed, progress: progress, reports: reports,
                                          scenarios: writer.scenarios, fuzzer: fuzzer, interrupted: wasInterrupted))
        } else {
            for report in reports { describe(report, file: writer.scenarios[report.shrunk], fuzzer: fuzzer) }
            if let reached { print(reached.summary, terminator: "") }
            printLine(summary(progress, findings: reports.count))
        }
        if wasInterrupted { throw interruptExitCode }
        if writer.failures > 0 {
            complain("\(writer.failures) write\(writer.failures == 1 ? "" : "s") of findings failed (see above): they are only in this output")
            throw Outcome.badInput.exitCode
        }
        if !reports.isEmpty { throw Outcome.failed.exitCode }
    }

    /// Replays the corpus first; returns the reports of programs that still
    /// fail. Files that cannot be used, and findings of other packs (whose
    /// bugs are not this pack's), are skipped with a note each.
    private func replayCorpus(at path: String, of info: PackInfo, with fuzzer: Fuzzer) -> [Fuzzer.Report] {
        let known = Reproduction.load(from: URL(fileURLWithPath: path))
        for problem in known.skipped { complain("skipping \(problem)") }
        let (programs, others) = CorpusPackFilter(reference: packOptions.pack, directory: info.directory).split(known.entries)
        for entry in others {
            complain("skipping \(entry.file): a finding of pack '\(entry.program.pack)', not of \(packOptions.pack) (`rulebench fuzz \(entry.program.pack)` replays it)")
        }
        let reports = fuzzer.replay(programs)
        if !programs.isEmpty && !jsonOption.json {
            printLine("corpus: \(programs.count) known findings replayed, \(reports.count) still fail")
        }
        return reports
    }

    /// The session: on this thread with one job, as before workers; with
    /// more, the workers share it (`FuzzWorkers`). Returns what `Fuzzer.run`
    /// does and the coverage of every run (with `--coverage`).
    private func session(_ fuzzer: Fuzzer, known: Set<FindingKey>, found: (Fuzzer.Report) -> Void,
                         progress: @escaping (Fuzzer.Progress) -> Void) throws -> ([Fuzzer.Report], Fuzzer.Progress, CoverageReport?) {
        guard jobs.jobs > 1 else {
            let (reports, state) = fuzzer.run(known: known, shouldStop: { wasInterrupted }, found: found, progress: progress)
            return (reports, state, try coverage(of: fuzzer))
        }
        let workers = FuzzWorkers(options: fuzzer.options, pool: jobs.pool)
        return workers.run(known: known, shouldStop: { wasInterrupted }, found: found, progress: progress)
    }

    /// What the one-job session's runs reached (with `--coverage`).
    private func coverage(of fuzzer: Fuzzer) throws -> CoverageReport? {
        do {
            return try fuzzer.coverage()
        } catch {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
    }

    /// Writes the LCOV tracefile asked for with `--coverage`; returns the report.
    private func writeCoverage(_ reached: CoverageReport?) throws -> CoverageReport? {
        guard let path = coverage, let reached else { return nil }
        do {
            try OutputFile(path: path, purpose: "the coverage file (--coverage)").write(reached.lcov())
            return reached
        } catch {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
    }

    /// The progress line: runs and time against their limits, speed, findings.
    private func status(_ state: Fuzzer.Progress, shard name: String?) -> String {
        let shardPart = (name.map { " shard \($0)" } ?? "") + (jobs.jobs > 1 ? " (\(jobs.jobs) workers)" : "")
        var parts = ["fuzz \(packOptions.pack)\(shardPart): run \(state.runs)" + (state.runLimit.map { "/\($0)" } ?? "")]
        if let limit = state.timeLimit { parts.append(String(format: "%.0f/%.0f s", state.elapsed, limit)) }
        parts.append("steps \(state.steps)")
        parts.append("\(Int(state.stepsPerSecond)) steps/s")
        parts.append("findings \(state.findings)")
        if let phase = state.phase { parts.append(phase) }
        return parts.joined(separator: "  ")
    }

    /// The last line of a session.
    private func summary(_ progress: Fuzzer.Progress, findings: Int) -> String {
        var text = "\(progress.runs) runs, \(progress.steps) steps in \(String(format: "%.1f", progress.fuzzingSeconds)) s"
            + " of fuzzing (\(Int(progress.stepsPerSecond)) steps/s)"
            + (progress.shrinkingSeconds > 0 ? String(format: " and %.1f s of shrinking", progress.shrinkingSeconds) : "")
            + ", \(findings) finding\(findings == 1 ? "" : "s")"
        if progress.duplicates > 0 { text += " (\(progress.duplicates) more of the same bugs not reported again)" }
        if !keepGoing && progress.findings > 0 { text += "; stopped at the first, --keep-going looks for more" }
        return text
    }

    private func printLine(_ text: String) {
        print(text)
        StandardOutput.flush()
    }

    private func describe(_ report: Fuzzer.Report, file: URL?, fuzzer: Fuzzer) {
        if case .passes(let outcome)? = report.freshStart {
            print("FINDING (not reproduced from a fresh start): \(report.finding)")
            print("  the fuzz run failed \(report.finding.property.rawValue): \(report.finding.message)")
            print("  run alone from a fresh start, as `rulebench run` runs a file: \(outcome); no file was written")
            print("  does a rule keep state outside `game` (a module-level local, an upvalue) that earlier operations changed?")
            print("  found by: \(fuzzer.origin(of: report).command)")
            return
        }
        print("FINDING: \(report.finding)")
        let counts = Reproduction.stepCounts(of: report)
        print("  shrunk from \(counts.original) to \(counts.shrunk) steps in \(String(format: "%.2f", report.shrinkSeconds)) s (\(report.shrinkAttempts) candidates"
              + (report.shrinkSeconds > 0 ? String(format: ", %.0f a second)", Double(report.shrinkAttempts) / report.shrinkSeconds) : ")")
              + (report.instancesShrunk > 1 ? "; the shortest of \(report.instancesShrunk) instances of the bug" : "")
              + shrinkNote(report.shrinkStatus))
        for step in report.shrunk.steps { print("    \(step)") }
        if let undos = report.finding.rewindUndos, report.finding.isRewindFailure {
            print("    undo \(undos) (the end of the run's rewind, up to the undo that fails)")
        }
        if let file { print("  reproduce: rulebench run \(file.path)") }
        if report.shrinkStatus != .notShrunk || report.run != nil {
            print("  found by: \(fuzzer.origin(of: report).command)")
        }
    }

    /// What the user should know about how shrinking ended, if anything.
    private func shrinkNote(_ status: ShrinkStatus) -> String {
        switch status {
        case .shortest: return "; no line of play is shorter"
        case .minimal: return "; no single step can be deleted (1-minimal)"
        case .notShrunk: return ""
        case .budgetSpent: return "; the shrink budget ran out, so a shorter reproduction may exist"
        case .timeUp: return "; the session's time (--time) stopped the shrinking: the shortest reproduction found by then, a shorter one may exist"
        case .interrupted: return "; shrinking was interrupted: the shortest reproduction found by then, a shorter one may exist"
        case .notReproducible: return "; it did not fail again when re-run alone, so it is shown as found (does a rule keep state outside `game`?)"
        }
    }
}

extension FuzzCommand: SeededCommand, JSONReportingCommand, OutputCommand, TimedCommand {
    static let defaultSeed: UInt64 = 1
    static let seedHelp: ArgumentHelp = "Seed of the session (each run derives its own game seed from it). (default: \(defaultSeed))"

    /// Where reproductions go without `--out`.
    static let defaultOut = ".rulebench/findings"
    static let outHelp: ArgumentHelp = "Where shrunk reproductions are written as scenario files. (default: \(defaultOut))"

    static let timeHelp = ArgumentHelp("The whole session's time: runs go on until it is spent (or --runs is reached, when given), and a finding's shrinking, its searches for shorter instances, lines and endings, and the writing end by then too (within 1 s more); a shrink the time stops writes the shortest reproduction found so far.",
                                       valueName: "seconds")
}

extension SearchStrategy: ExpressibleByArgument {}

