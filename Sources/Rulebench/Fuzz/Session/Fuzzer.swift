// A fuzz session: its run loop, the seeds of each run, and the checks that a
// run is deterministic. Invariant: a run's seeds depend only on the session's
// seed and the run's index (`runSeeds`), so a session, or a shard of one,
// plays the same runs every time; the parts of a session are in Fuzzer+*.swift.

import Dispatch
import Foundation

/// The undo fuzzer: random games from a seed, checked after every step.
///
/// Each run starts a fresh game and takes up to `depth` steps: mostly a
/// random legal action, sometimes an undo or redo of a few steps, an undo to
/// the last checkpoint, or an attempt with illegal params. The first failing
/// property ends the run; the program is shrunk (`Shrinker`) and reported.
/// The session ends at the first finding, or goes on (`keepGoing`) and
/// reports each distinct bug once (`FindingKey`).
public struct Fuzzer {
    /// Seconds on a monotonic clock (for budgets; wall-clock changes must not end a session).
    public typealias Clock = () -> Double

    /// The session's settings.
    public let options: Options
    /// Runs programs fast: animation leaves carry no source lines.
    let executor: FuzzExecutor
    /// Runs a reported program once more with every source line recorded.
    let reportingExecutor: FuzzExecutor
    /// Plays some runs again in a second Lua state, under another string hash seed.
    let seedReplay: SeedVariedReplay

    /// A fuzzer for a session with these options (no game is made until it runs).
    public init(options: Options) {
        self.options = options
        var configuration = options.configuration
        configuration.strict = true
        configuration.animationSources = false
        // The guided search needs the kernel's edge counts.
        configuration.collectsCoverage = options.coverage || options.search == .guided
        executor = FuzzExecutor(configuration: configuration, base: options.base)
        seedReplay = SeedVariedReplay(configuration: configuration, base: options.base)
        configuration.animationSources = true
        configuration.collectsCoverage = false
        reportingExecutor = FuzzExecutor(configuration: configuration, base: options.base)
    }

    /// What the session's runs reached (with `Options.coverage`): the lines
    /// of the pack's Lua run, the lines never run, and per action how often
    /// it was performed, undone and redone. Nil when coverage was off or no
    /// run was made.
    public func coverage() throws(RulebenchError) -> CoverageReport? {
        guard options.coverage, let game = executor.games.main else { return nil }
        return try game.coverage()
    }

    /// `FuzzFinding.Property.animationIsSound`, checked on every performed action.
    static func animationProblem(_ entry: HistoryEntry) -> String? {
        animationProblem(entry.animation)
    }

    /// The problem of one animation (not finite, or conflicting tracks), or nil.
    static func animationProblem(_ animation: ActionAnimation) -> String? {
        let timeline = animation.timeline()
        if !timeline.duration.isFinite { return "the animation plan is not finite" }
        if let conflict = timeline.conflicts.first { return "animation conflict: \(conflict)" }
        return nil
    }

    /// Whether run `index` (counted over all shards) is this shard's: each
    /// index belongs to exactly one shard, and its seeds (`runSeeds`) depend
    /// only on the session's seed and the index, so with `uniform` search the
    /// shards of a session play, between them, exactly the runs the
    /// unsharded session plays.
    public func owns(run index: Int) -> Bool {
        index % options.shard.count == options.shard.index - 1
    }

    /// The seed of the guided search's own choices (which kind of run, which
    /// kept run to build on): the session's seed on shard 1 (so 1/1 is the
    /// unsharded session), mixed with the shard's index on the others, so
    /// that shards do not make the same choices in step.
    var searchSeed: UInt64 {
        options.shard.index == 1 ? options.seed
            : options.seed ^ (UInt64(options.shard.index) &* 0xD1B5_4A32_D192_ED03)
    }

    /// Where `report` came from: the fuzz command that finds it again, run
    /// as written (this session's pack, seed, search, depth, options and
    /// shard, and `--runs` up to the run that found it: a shard plays its
    /// runs the same way every time), and the shard when there are several.
    /// The corpus is replayed first, so with the default corpus the bug is
    /// reported again from there at once.
    public func origin(of report: Report) -> FindingOrigin {
        var words = ["rulebench", "fuzz", ShellWord.quoted(options.pack), "--seed", "\(options.seed)",
                     "--search", options.search.rawValue, "--depth", "\(options.depth)"]
        for (key, value) in options.setupOptions.sorted(by: { $0.key < $1.key }) {
            words += ["--option", ShellWord.quoted("\(key)=\(ShellWord.argument(value))")]
        }
        let shard = options.shardName
        if let shard { words += ["--shard", shard] }
        words += ["--runs", "\((report.run ?? 0) + 1)"]
        if options.keepGoing { words.append("--keep-going") }
        return FindingOrigin(command: words.joined(separator: " "), shard: shard)
    }


    /// The game seed and the seed of the step choices of run `index`.
    func runSeeds(_ index: Int) -> (game: Int64, choiceSeed: UInt64) {
        var mixer = FuzzRandom(seed: options.seed &* FuzzRandom.gamma &+ UInt64(index))
        let choiceSeed = mixer.next()
        return (Int64(mixer.next() % 100_000), choiceSeed)
    }

    /// Plays `program` with every check a fuzz run makes after each step
    /// (and, with `wholeHistory`, the end-of-run checks: rewind, save and
    /// load, replay); returns the first finding, or nil when it passes. The
    /// steps run inside the kernel, as the fuzzer's own runs do.
    public func check(_ program: FuzzProgram, wholeHistory: Bool = true) -> FuzzFinding? {
        executor.execute(program, checkLegality: false, finalChecks: wholeHistory).finding
    }

    /// Replays known programs (a corpus) first; returns reports for those that still fail.
    public func replay(_ programs: [FuzzProgram]) -> [Report] {
        programs.compactMap { program in
            let result = executor.execute(program, checkLegality: false)
            guard let finding = result.finding else { return nil }
            return Report(finding: finding, original: program, shrunk: program, outcomes: result.outcomes,
                          shrinkSeconds: 0, shrinkAttempts: 0, stepsToDetection: 0)
        }
    }

    /// Runs the session until its budget is spent (see `Options`), the
    /// first new finding (unless `keepGoing`), or `shouldStop` (polled
    /// between runs, for SIGINT). Findings whose key is in `known` (bugs a
    /// corpus replay already reported) are counted as duplicates, not
    /// shrunk or reported again. `found` is called with each report as
    /// soon as its shrinking ends, so a session stopped later (a signal, a
    /// CI job's timeout) has already written it. `progress` is called after
    /// every run; it decides itself how often to show it (see `ProgressPacer`).
    /// `played` is told each run this shard made, as it was played.
    public func run(known: Set<FindingKey> = [], clock: @escaping Clock = MonotonicClock.seconds,
                    shouldStop: @escaping () -> Bool = { false },
                    found: (Report) -> Void = { _ in },
                    progress: @escaping (Progress) -> Void = { _ in },
                    played: @escaping (PlayedRun) -> Void = { _ in }) -> (reports: [Report], progress: Progress) {
        let session = Session(start: clock(), clock: clock, shouldStop: shouldStop, progress: progress, played: played)
        var state = Progress(runLimit: options.runLimit, timeLimit: options.timeLimit)
        var kept = Findings(known: known, claim: workerClaim(shouldStop: shouldStop))
        var cursor = 0
        var search: GuidedSearch?
        var sweepDue = false
        if options.search == .guided, packSetsUp() {
            search = GuidedSearch(seed: searchSeed, depth: options.depth, coversEveryRun: options.coverage)
            sweepDue = options.link?.sweeps ?? (options.shard.index == 1)   // one sweep per session: the first shard's
        }
        while let index = nextRun(&cursor) {
            if shouldStop() { break }
            if let limit = options.timeLimit, clock() - session.start >= Fuzzer.fuzzingSeconds(of: limit) { break }
            if sweepDue, sweepsNow(after: state.steps) {
                sweepDue = false
                if sweepFound(&kept, &state, before: index, session: session, found: found), !options.keepGoing { break }
            }
            let (program, result, nodes) = playRun(index, search: &search)
            state.steps += nodes
            if shouldStop() { break }   // a stop request may have cut the run short: not a finding
            state.runs += 1
            state.steps += program.steps.count
            state.edges += result.newEdges
            played(PlayedRun(index: index, program: program))
            let detectedAt = clock() - session.start
            for finding in findings(of: program, result, runs: state.runs, isFirst: isSessionFirst(run: index, runs: state.runs)) {
                guard kept.isNew(finding, at: index, &state) else { continue }
                if finding.property == .deterministic {
                    // Not a property of one program: there is nothing to shrink.
                    kept.keep(Report(finding: finding, original: program, shrunk: program, outcomes: result.outcomes,
                                     shrinkSeconds: 0, shrinkAttempts: 0, stepsToDetection: state.steps,
                                     secondsToDetection: detectedAt, run: index), &state, found: found)
                } else {
                    var report = handOff(program, finding, run: index, state: &state, session: session)
                    report.secondsToDetection = detectedAt
                    kept.keep(report, &state, found: found)
                }
            }
            state.findings = kept.reports.count
            state.elapsed = clock() - session.start
            progress(state)
            if !options.keepGoing && !kept.reports.isEmpty { break }
        }
        state.elapsed = clock() - session.start
        return (kept.reports, state)
    }

    /// Plays run `index`: chosen by the guided search when there is one
    /// (which learns from it), else a uniform random game. `nodes` counts
    /// the steps a probe's walk took beyond the program's own. On a worker
    /// of a parallel session, the result's new edges are those new to the
    /// session (`FuzzWorkerLink.observe`).
    private func playRun(_ index: Int, search: inout GuidedSearch?)
        -> (program: FuzzProgram, result: FuzzExecutor.Result, nodes: Int) {
        let seeds = runSeeds(index)
        guard search != nil else {
            let (program, result) = generate(gameSeed: seeds.game, choiceSeed: seeds.choiceSeed)
            return (program, result, 0)
        }
        let newGame = FuzzProgram(pack: options.pack, seed: seeds.game, options: options.setupOptions)
        let me = options.shard.index
        var next = options.link?.next(newGame: newGame, choiceSeed: seeds.choiceSeed, worker: me)
            ?? search!.next(newGame: newGame, choiceSeed: seeds.choiceSeed)
        next.start.steps = next.request.program ?? []
        if next.kind == .probe {
            var probed = probe(next)
            if let link = options.link { probed.result = link.observe(probed.program, probed.result, worker: me, keeps: false) }
            return probed
        }
        var (program, result) = executor.play(next.start, next.request)
        if let link = options.link { result = link.observe(program, result, worker: me) } else { search!.observe(program, result) }
        return (program, result, 0)
    }

    /// What a played run found: its own finding, or else (on the session's
    /// first run, `isFirst`) a difference when it is played again, or else
    /// (on some runs) a difference when it is played under another string
    /// hash seed.
    private func findings(of program: FuzzProgram, _ result: FuzzExecutor.Result, runs: Int, isFirst: Bool) -> [FuzzFinding] {
        if let finding = result.finding { return [finding] }
        if isFirst, let nondeterministic = checkDeterminism(program, result) { return [nondeterministic] }
        if SeedVariedReplay.isChecked(run: runs),
           let nondeterministic = seedReplay.check(program, result, main: executor.games.main) {
            return [nondeterministic]
        }
        return []
    }

    /// The guided search's sweep (see `sweep`), made once per session:
    /// true when it found a bug (kept, or a duplicate of one after shrinking).
    /// It is made before run `index` is played, and counts as that run.
    private func sweepFound(_ kept: inout Findings, _ state: inout Progress, before index: Int, session: Session,
                            found: (Report) -> Void) -> Bool {
        guard let (program, result, nodes) = sweep(seed: runSeeds(0).game), !session.shouldStop(),
              let finding = result.finding else { return false }
        state.steps += nodes
        guard kept.isNew(finding, at: index, &state) else { return false }
        let detectedAt = session.clock() - session.start
        var report = handOff(program, finding, run: nil, state: &state, session: session)
        report.secondsToDetection = detectedAt
        kept.keep(report, &state, found: found)
        state.findings = kept.reports.count
        return true
    }

    /// Whether a game of the pack can be made (in the session's main
    /// executor); when not, the first run reports why.
    private func packSetsUp() -> Bool {
        let start = FuzzProgram(pack: options.pack, seed: runSeeds(0).game, options: options.setupOptions)
        return (try? executor.newGame(start)) != nil
    }

    /// Property 9: the first run, executed again from its program, gives the same hashes.
    private func checkDeterminism(_ program: FuzzProgram, _ first: FuzzExecutor.Result) -> FuzzFinding? {
        let again = executor.execute(program, checkLegality: false, finalChecks: false)
        for (index, pair) in zip(first.trace, again.trace).enumerated() where pair.0 != pair.1 {
            return FuzzFinding(property: .deterministic, stepIndex: index,
                               message: "the same program gave state hash \(pair.1) instead of \(pair.0) after \(program.steps[index])",
                               differences: [], blame: nil)
        }
        return nil
    }

    /// Plays one random game, checking as it goes (the step loop runs in the
    /// kernel: `Kernel/fuzz.lua` chooses and checks every step).
    func generate(gameSeed: Int64, choiceSeed: UInt64) -> (FuzzProgram, FuzzExecutor.Result) {
        let start = FuzzProgram(pack: options.pack, seed: gameSeed, options: options.setupOptions)
        return executor.generate(start, choiceSeed: choiceSeed, depth: options.depth)
    }
}

