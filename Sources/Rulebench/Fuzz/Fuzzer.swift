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
    /// What to fuzz and for how long.
    ///
    /// The budget: with `timeLimit`, runs go on until that many seconds are
    /// spent, or until `runs` when it is given too (whichever comes first).
    /// Without `timeLimit`, `runs` runs are made, `Options.defaultRuns` when
    /// it is nil. The session stops at the first finding unless `keepGoing`.
    public struct Options: Sendable {
        /// The run count when neither `runs` nor `timeLimit` is given.
        public static let defaultRuns = 100
        /// The most seconds one shrink takes without a session time limit.
        public static let defaultShrinkSeconds = 60.0
        /// The most candidate programs one shrink runs, by default.
        public static let defaultShrinkBudget = Shrinker.defaultBudget

        /// The pack: a name under rules/ or a path to a pack folder.
        public var pack: String
        /// The session's seed; each run derives its game seed and choices from it.
        public var seed: UInt64 = 1
        /// The most runs to make (nil: `defaultRuns` without a time limit, no limit with one).
        public var runs: Int?
        /// The most steps a run takes.
        public var depth = 100
        /// Keep starting runs until this many seconds are spent (nil: no time limit).
        public var timeLimit: Double?
        /// Go on after the first finding, collecting one report per distinct bug (see `FindingKey`).
        public var keepGoing = false
        /// This machine's share: runs whose index % count == index - 1
        /// (see `owns(run:)`; the guided search's sweep is shard 1's).
        public var shard: (index: Int, count: Int) = (1, 1)
        /// Setup options of every game.
        public var setupOptions: [String: StateValue] = [:]
        /// How games are made (strict mode is always on for fuzzing).
        public var configuration = Game.Configuration()
        /// Folder a relative pack path is resolved against.
        public var base: URL?
        /// The most candidate programs the shrinker runs for one finding.
        public var shrinkBudget = Shrinker.defaultBudget
        /// Count the lines of the pack's Lua that runs reach (see `coverage()`);
        /// a line hook slows every line of rule code while on.
        public var coverage = false
        /// How runs are chosen (see `SearchStrategy`).
        public var search = SearchStrategy.guided
        /// What this session shares with the other workers of a parallel
        /// session (`FuzzWorkers`); nil when it is the whole session.
        var link: FuzzWorkerLink?

        /// Options for fuzzing `pack`, every other setting at its default.
        public init(pack: String) { self.pack = pack }

        /// "K/N" when the session is one shard of several, nil when it is the whole session.
        public var shardName: String? {
            shard.count > 1 ? "\(shard.index)/\(shard.count)" : nil
        }

        /// The run count the session stops at, nil when only time limits it.
        public var runLimit: Int? {
            runs ?? (timeLimit == nil ? Self.defaultRuns : nil)
        }
    }

    /// A finding with its shrunk reproduction.
    public struct Report: Sendable {
        /// What failed, as the shrunk program fails.
        public var finding: FuzzFinding
        /// The program as the fuzzer played it.
        public var original: FuzzProgram
        /// The reproduction: the simplest program found that fails the same way.
        public var shrunk: FuzzProgram
        /// Outcomes of the shrunk program's steps (for writing it as a scenario).
        var outcomes: [FuzzExecutor.Outcome]
        /// Seconds spent shrinking.
        public var shrinkSeconds: Double
        /// Candidate programs the shrinker ran.
        public var shrinkAttempts: Int
        /// How shrinking ended: `.minimal` unless the budget ran out or the
        /// finding did not fail again when its program was re-run alone.
        public var shrinkStatus = ShrinkStatus.notShrunk
        /// Steps the fuzzer took (in this session) before this finding.
        public var stepsToDetection: Int
        /// Seconds into the session when the finding's run ended (before any shrinking).
        public var secondsToDetection = 0.0
        /// The index of the run that found it first (0-based, counted over
        /// all shards), also when the reproduction is a shorter instance
        /// found later; nil when the guided search's sweep or a corpus replay did.
        public var run: Int? = nil
        /// How many instances of the bug were shrunk, this one the shortest
        /// (see `Fuzzer.refinementSeconds`); 1 when only the first was.
        public var instancesShrunk = 1
        /// How the reproduction fared run alone, as `rulebench run` runs its
        /// file (nil: not judged, as for a corpus replay; see `FreshStart`).
        public var freshStart: FreshStart? = nil

        /// Which bug this is, for deduplication.
        public var key: FindingKey { FindingKey(finding) }
    }

    /// Progress, reported as runs go.
    public struct Progress: Sendable {
        /// Runs made so far.
        public var runs = 0
        /// Steps taken over all runs.
        public var steps = 0
        /// Findings reported (one per distinct bug).
        public var findings = 0
        /// Findings of bugs already known (reported before, or a duplicate of one this session), not reported again.
        public var duplicates = 0
        /// Seconds since the session started.
        public var elapsed = 0.0
        /// Of `elapsed`, the seconds spent after findings: shrinking, the
        /// search for shorter instances, judging the reproduction.
        public var shrinkingSeconds = 0.0
        /// What the session is doing when it is not fuzzing
        /// ("shrinking finding 1: 21 → 9 steps"); nil while it fuzzes.
        public var phase: String?
        /// The run count the session stops at (nil: only time limits it).
        public var runLimit: Int?
        /// The seconds the session may take (nil: no time limit).
        public var timeLimit: Double?
        /// Seconds spent fuzzing: `elapsed` less the shrinking.
        public var fuzzingSeconds: Double { max(0, elapsed - shrinkingSeconds) }
        /// Steps per second of fuzzing (shrinking time left out).
        public var stepsPerSecond: Double { fuzzingSeconds > 0 ? Double(steps) / fuzzingSeconds : 0 }
    }

    /// Seconds on a monotonic clock (for budgets; wall-clock changes must not end a session).
    public typealias Clock = () -> Double

    /// The system's monotonic clock, in seconds.
    public static func monotonicClock() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

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

    /// Property 8, checked on every performed action.
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

    /// A run as a shard played it (see `run`'s `played`).
    public struct PlayedRun: Sendable {
        /// The run's index, counted over all shards.
        public var index: Int
        /// The program as played (its game seed, options and steps).
        public var program: FuzzProgram
    }

    /// The game seed and choice generator of run `index`.
    func runSeeds(_ index: Int) -> (game: Int64, choices: UInt64) {
        var mixer = FuzzRandom(seed: options.seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index))
        let choices = mixer.next()
        return (Int64(mixer.next() % 100_000), choices)
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
    public func run(known: Set<FindingKey> = [], clock: @escaping Clock = Fuzzer.monotonicClock,
                    shouldStop: @escaping () -> Bool = { false },
                    found: (Report) -> Void = { _ in },
                    progress: @escaping (Progress) -> Void = { _ in },
                    played: @escaping (PlayedRun) -> Void = { _ in }) -> (reports: [Report], progress: Progress) {
        let start = clock()
        var state = Progress(runLimit: options.runLimit, timeLimit: options.timeLimit)
        var reports: [Report] = []
        /// Keeps a report and hands it over at once (see `found`). Two
        /// findings told apart before shrinking (`step` alone, and `step`
        /// inside `dash`) may shrink to the same bug: the second is a duplicate.
        func keep(_ report: Report) {
            if known.contains(report.key) || reports.contains(where: { $0.key == report.key }) {
                state.duplicates += 1
                return
            }
            reports.append(report)
            found(report)
        }
        var seen = known
        var index = 0
        var search: GuidedSearch?
        var sweepDue = false
        if options.search == .guided, packSetsUp() {
            search = GuidedSearch(seed: searchSeed, depth: options.depth, coversEveryRun: options.coverage)
            sweepDue = options.shard.index == 1   // one sweep per session: the first shard's
        }
        while options.runLimit.map({ index < $0 }) ?? true {
            defer { index += 1 }
            guard owns(run: index) else { continue }
            if shouldStop() { break }
            if let limit = options.timeLimit, clock() - start >= limit { break }
            if sweepDue, state.steps >= Fuzzer.sweepAfter {
                sweepDue = false
                if let (program, result, nodes) = sweep(seed: runSeeds(0).game), !shouldStop(), let finding = result.finding {
                    state.steps += nodes
                    if claim(FindingKey(finding), seen: &seen) {
                        let detectedAt = clock() - start
                        let session = Session(start: start, clock: clock, shouldStop: shouldStop, progress: progress, played: played)
                        var report = handOff(program, finding, run: nil, state: &state, session: session)
                        report.secondsToDetection = detectedAt
                        keep(report)
                        state.findings = reports.count
                        if !options.keepGoing { break }
                    } else {
                        state.duplicates += 1
                    }
                }
            }
            let seeds = runSeeds(index)
            let (program, result): (FuzzProgram, FuzzExecutor.Result)
            if search != nil {
                let fresh = FuzzProgram(pack: options.pack, seed: seeds.game, options: options.setupOptions)
                var next = options.link?.next(fresh: fresh, choices: seeds.choices) ?? search!.next(fresh: fresh, choices: seeds.choices)
                next.start.steps = next.request.program ?? []
                if next.kind == .probe {
                    let probed = probe(next)
                    (program, result) = (probed.program, probed.result)
                    state.steps += probed.nodes
                } else {
                    (program, result) = executor.play(next.start, next.request)
                    if let link = options.link { link.observe(program, result) } else { search!.observe(program, result) }
                }
            } else {
                (program, result) = generate(gameSeed: seeds.game, choices: seeds.choices)
            }
            if shouldStop() { break }   // a stop request may have cut the run short: not a finding
            state.runs += 1
            state.steps += program.steps.count
            played(PlayedRun(index: index, program: program))
            var findings: [(FuzzFinding, FuzzProgram, FuzzExecutor.Result)] = []
            if state.runs == 1, result.finding == nil, let nondeterministic = checkDeterminism(program, result) {
                findings.append((nondeterministic, program, result))
            }
            if findings.isEmpty, result.finding == nil, SeedVariedReplay.isChecked(run: state.runs),
               let nondeterministic = seedReplay.check(program, result, main: executor.games.main) {
                findings.append((nondeterministic, program, result))
            }
            if let finding = result.finding { findings.append((finding, program, result)) }
            let detectedAt = clock() - start
            for (finding, program, result) in findings {
                guard claim(FindingKey(finding), seen: &seen) else { state.duplicates += 1; continue }
                if finding.property == .deterministic {
                    // Not a property of one program: there is nothing to shrink.
                    keep(Report(finding: finding, original: program, shrunk: program, outcomes: result.outcomes,
                                shrinkSeconds: 0, shrinkAttempts: 0, stepsToDetection: state.steps,
                                secondsToDetection: detectedAt, run: index))
                } else {
                    let session = Session(start: start, clock: clock, shouldStop: shouldStop, progress: progress, played: played)
                    var report = handOff(program, finding, run: index, state: &state, session: session)
                    report.secondsToDetection = detectedAt
                    keep(report)
                }
            }
            state.findings = reports.count
            state.elapsed = clock() - start
            progress(state)
            if !options.keepGoing && !reports.isEmpty { break }
        }
        state.elapsed = clock() - start
        return (reports, state)
    }

    /// Whether a game of the pack can be made (in the session's main
    /// executor); when not, the first run reports why.
    private func packSetsUp() -> Bool {
        let start = FuzzProgram(pack: options.pack, seed: runSeeds(0).game, options: options.setupOptions)
        return (try? executor.newGame(start)) != nil
    }

    /// Steps the guided search's runs take before its sweep: bugs that
    /// random runs find at once are not kept waiting behind it.
    static let sweepAfter = 5_000

    /// The guided search's breadth-first sweep: every sequence of legal
    /// actions up to depth 3 from the first run's setup (fewer when the tree
    /// would pass `nodeLimit` nodes: it must cost less than the bugs random
    /// runs find in a second), each perform and undo checked, inside
    /// the kernel (see `Explorer`). A rare line of play two or three moves
    /// deep is found here at once. When the sweep fails, its path is played
    /// again as a program (its actions, then undo of all of them) and
    /// returned with the result, and the sweep's node count.
    func sweep(seed: Int64, nodeLimit: Int = 5_000) -> (FuzzProgram, FuzzExecutor.Result, Int)? {
        let start = FuzzProgram(pack: options.pack, seed: seed, options: options.setupOptions)
        var counts: [Int] = []
        var nodes = 0
        for depth in 1...3 {
            if let last = counts.last {
                let previous = counts.count > 1 ? counts[counts.count - 2] : 1
                if last * last / max(1, previous) > nodeLimit { break }
            }
            guard let game = try? executor.newGame(start) else { return nil }
            do {
                counts = try Explorer(game: game, depth: depth).run().nodes
                nodes += counts.reduce(0, +)
            } catch {
                let (program, result) = replaying(error, after: start)
                return result.finding == nil ? nil : (program, result, nodes + error.path.count)
            }
        }
        return nil
    }

    /// A probe of the guided search: plays a kept program's start, then
    /// tries every action legal where it ends, each perform and undo checked
    /// (`Explorer`, inside the kernel; two moves deep when at most 8 actions
    /// are legal there). A frontier is where a new branch of the rules first
    /// ran, often in `legal`: the move it offers is tried at once. A failure
    /// is played again as a program: the start, the walk's path, and the
    /// undo of the path.
    func probe(_ run: GuidedSearch.Run) -> (program: FuzzProgram, result: FuzzExecutor.Result, nodes: Int) {
        let (start, result) = executor.play(run.start, run.request)
        guard result.finding == nil, result.valid, let game = executor.games.main,
              let legal = try? game.legalActions() else { return (start, result, 0) }
        do {
            return (start, result, try Explorer(game: game, depth: legal.count <= 8 ? 2 : 1).run().total)
        } catch {
            let (program, result) = replaying(error, after: start)
            return (program, result, error.path.count)
        }
    }

    /// A walk's failure played again as a program: `start`'s steps, the
    /// walk's path, and the undo of the path (where the walk failed).
    private func replaying(_ failure: ExplorationFailure, after start: FuzzProgram) -> (FuzzProgram, FuzzExecutor.Result) {
        var program = start
        program.steps += failure.path.map { .perform($0) } + [.undo(failure.path.count)]
        return (program, executor.execute(program, checkLegality: false))
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

    /// What the hand-off of a finding needs of the session that found it.
    struct Session {
        /// When the session started, on `clock`.
        let start: Double
        let clock: Clock
        let shouldStop: () -> Bool
        let progress: (Progress) -> Void
        let played: (PlayedRun) -> Void
    }

    /// From a finding to its report: shrinking, the search for shorter
    /// instances (a timed session that stops at its first finding), the
    /// breadth-first search for a shorter line (`shortestLine`), and the
    /// judgement of the reproduction from a fresh start. A timed
    /// session's hand-off ends by the session's end (`--time`, less
    /// `handOffReserve`), with the shortest reproduction found by then:
    /// the first shrink gets a third
    /// of the time left, the search for other instances up to half of the
    /// time limit, finishing the shrink the rest. `state` shows the phase
    /// and counts the seconds as shrinking.
    func handOff(_ program: FuzzProgram, _ finding: FuzzFinding, run index: Int?, state: inout Progress,
                 session: Session) -> Report {
        let clock = session.clock
        let begun = clock(), before = state.shrinkingSeconds
        let end = options.timeLimit.map { session.start + $0 - Fuzzer.handOffReserve(of: $0) }
        let number = state.findings + 1
        let from = program.steps.count
        /// Every second since `begun` is the hand-off's.
        func account() {
            state.elapsed = clock() - session.start
            state.shrinkingSeconds = before + (state.elapsed - (begun - session.start))
        }
        func show(_ best: Int, _ what: String = "") {
            state.phase = "shrinking finding \(number): \(from) → \(best) steps" + what
            account()
            session.progress(state)
        }
        defer {
            state.phase = nil
            account()
        }
        var report: Report
        if !options.keepGoing, let end, let index {
            report = shrink(program, finding, stepsToDetection: state.steps, timeLimit: (end - clock()) / 3,
                            clock: clock, shouldStop: session.shouldStop, observe: { show($0) })
            report.run = index
            let searchEnd = min(end, clock() + min(options.timeLimit! / 2, Fuzzer.refinementSeconds))
            report = shortestInstance(of: report, until: searchEnd, firstRun: index + 1, session: session,
                                      observe: { show($0, ", looking for a shorter instance") })
            report = finishShrinking(report, until: end, clock: clock, shouldStop: session.shouldStop, observe: { show($0) })
        } else {
            report = shrink(program, finding, stepsToDetection: state.steps, timeLimit: end.map { $0 - clock() },
                            clock: clock, shouldStop: session.shouldStop, observe: { show($0) })
            report.run = index
        }
        show(report.shrunk.steps.count, ", looking for a shorter line")
        report = shortestLine(report, stop: { session.shouldStop() || end.map { clock() >= $0 } ?? false })
        show(report.shrunk.steps.count, ", judging it from a fresh start")
        return judgedFromAFreshStart(report)
    }

    /// The seconds at the end of a session of `limit` seconds that its
    /// shrinking leaves for what follows it (the reproduction run again
    /// with sources, judged from a fresh start, written): a quarter, at
    /// most a second. On a loaded machine those take a good part of a
    /// second; the session must still end within its limit and a second.
    static func handOffReserve(of limit: Double) -> Double { min(1, limit / 4) }

    /// The most seconds a timed session spends, after its first finding,
    /// on other instances of the same bug (at most half of its time limit).
    public static let refinementSeconds = 30.0
    /// The most steps half the instance runs take: a long first line (42
    /// random chess moves to a king capture) shrinks slowly, and runs as
    /// long as it find mostly more long lines; short runs find the short
    /// ones. The other half may take twice the best: a bug that needs a
    /// long line (a pawn walked to promotion) is found only by those.
    static let instanceDepth = 24
    /// Instances in a row that shrink no shorter than the best, after which
    /// the search for shorter ones ends (an easy bug is found every run).
    static let idleInstances = 4

    /// The first finding's shortest reproduction. A shrinker only deletes
    /// and simplifies steps of the line the fuzzer happened to play: a king
    /// reached by a long route shrinks to that route, and no edit of it
    /// leads to the shortest line. So a timed session that stops at its
    /// first finding spends some of the time left (until `end`) on fresh
    /// runs at most twice as long as the best reproduction so far (half
    /// of them at most `instanceDepth` steps), chosen
    /// as the session chooses steps; each instance of the same bug they
    /// find is shrunk too, and the shortest reproduction is reported, as
    /// Hypothesis keeps the smallest example of each failure it sees. It
    /// ends early after `idleInstances` instances in a row that were no
    /// shorter. Its runs are part of the hand-off, not of the fuzzing:
    /// they are not counted in the session's runs and steps.
    private func shortestInstance(of first: Report, until end: Double, firstRun: Int, session: Session,
                                  observe: (Int) -> Void) -> Report {
        let clock = session.clock
        var best = first
        var index = firstRun
        var instances = 1   // shrunk so far, the first included
        var idle = 0        // instances shrunk since the best last got shorter
        while clock() < end, best.shrunk.steps.count > 1, idle < Fuzzer.idleInstances, !session.shouldStop(),
              options.runLimit.map({ index < $0 }) ?? true {
            defer { index += 1 }
            guard owns(run: index) else { continue }
            let seeds = runSeeds(index)
            let start = FuzzProgram(pack: options.pack, seed: seeds.game, options: options.setupOptions)
            // Half the runs short (see `instanceDepth`), half up to twice the best.
            let longest = max(4, 2 * best.shrunk.steps.count)
            let depth = min(options.depth, (index / 2) % 2 == 0 ? min(longest, Fuzzer.instanceDepth) : longest)
            var request = Kernel.RunRequest(program: nil, choices: seeds.choices, depth: depth, rewindAtEnd: true)
            request.favoursRareKinds = options.search == .guided
            request.leavesOutKinds = request.favoursRareKinds && index % 2 == 1
            request.collectsCoverage = options.coverage
            let (program, result) = executor.play(start, request)
            session.played(PlayedRun(index: index, program: program))
            if let finding = result.finding, first.key.admits(finding) {
                instances += 1
                idle += 1
                if let shorter = shorterInstance(program, finding, than: best, until: end, clock: clock,
                                                 shouldStop: session.shouldStop, observe: observe) {
                    best = shorter
                    idle = 0
                }
            }
            observe(best.shrunk.steps.count)
        }
        best.instancesShrunk = instances
        return best
    }

    /// The reproduction of another instance of `best`'s bug, when it is
    /// shorter. The cheap passes first: an instance that they leave more
    /// than 2 steps longer than the best is not worth the rest.
    private func shorterInstance(_ program: FuzzProgram, _ finding: FuzzFinding, than best: Report, until end: Double,
                                 clock: @escaping Clock, shouldStop: () -> Bool, observe: (Int) -> Void) -> Report? {
        let quick = shrink(program, finding, stepsToDetection: best.stepsToDetection, timeLimit: end - clock(),
                           costlyPasses: false, clock: clock, shouldStop: shouldStop, observe: observe)
        guard quick.shrunk.steps.count <= best.shrunk.steps.count + 2 else { return nil }
        var instance = finishShrinking(quick, until: end, clock: clock, shouldStop: shouldStop, observe: observe)
        guard instance.key == best.key, instance.shrunk.steps.count < best.shrunk.steps.count else { return nil }
        instance.run = best.run   // the run that found the bug first (see `origin(of:)`)
        return instance
    }

    /// Shrinks a report's reproduction further when its shrinking was cut
    /// short (by a time limit, or without the costly passes), with what is
    /// left of the candidate budget, until `end` on `clock`.
    private func finishShrinking(_ report: Report, until end: Double, clock: @escaping Clock, shouldStop: () -> Bool,
                                 observe: (Int) -> Void) -> Report {
        let left = options.shrinkBudget - report.shrinkAttempts
        guard report.shrinkStatus == .budgetSpent || report.shrinkStatus == .timeUp, left > 0, !shouldStop(),
              clock() < end else { return report }
        var finished = shrink(report.shrunk, report.finding, stepsToDetection: report.stepsToDetection,
                              budget: left, timeLimit: end - clock(), clock: clock, shouldStop: shouldStop, observe: observe)
        finished.original = report.original
        finished.run = report.run
        finished.instancesShrunk = report.instancesShrunk
        finished.shrinkSeconds += report.shrinkSeconds
        finished.shrinkAttempts += report.shrinkAttempts
        return finished
    }

    /// Shrinks a failing program and times it on `clock`; `timeLimit` (the
    /// session's time left) caps the shrinker's own default.
    func shrink(_ program: FuzzProgram, _ finding: FuzzFinding, stepsToDetection: Int,
                budget: Int? = nil, timeLimit: Double? = nil, costlyPasses: Bool = true,
                clock: @escaping Clock = Fuzzer.monotonicClock, shouldStop: () -> Bool = { false },
                observe: (Int) -> Void = { _ in }) -> Report {
        let start = clock()
        var shrinker = Shrinker(executor: executor, budget: budget ?? options.shrinkBudget, clock: clock)
        shrinker.runsCostlyPasses = costlyPasses
        if let timeLimit { shrinker.timeLimit = max(0, min(shrinker.timeLimit, timeLimit)) }
        let (small, smallFinding) = shrinker.shrink(program, finding, shouldStop: shouldStop, observe: observe)
        let final = reportingExecutor.execute(small, checkLegality: false, finalChecks: false)
        let reported = final.finding.flatMap { $0.property == smallFinding.property ? $0 : nil } ?? smallFinding
        return Report(finding: reported, original: program, shrunk: small, outcomes: final.outcomes,
                      shrinkSeconds: clock() - start, shrinkAttempts: shrinker.attempts,
                      shrinkStatus: shrinker.status, stepsToDetection: stepsToDetection)
    }

    /// Plays one random game, checking as it goes (the step loop runs in the
    /// kernel: `Kernel/fuzz.lua` chooses and checks every step).
    func generate(gameSeed: Int64, choices: UInt64) -> (FuzzProgram, FuzzExecutor.Result) {
        let start = FuzzProgram(pack: options.pack, seed: gameSeed, options: options.setupOptions)
        return executor.generate(start, choices: choices, depth: options.depth)
    }
}

/// How shrinking a finding ended.
public enum ShrinkStatus: String, Sendable {
    /// No line of play is shorter: a breadth-first search proved it (`ShortestLine`).
    case shortest
    /// No single step of the reproduction can be deleted (the shrinker's
    /// fixpoint); a shorter line may still exist. Earlier reports said
    /// `minimal` for this (see `init(reading:)`).
    case minimal = "1-minimal"
    /// The shrinker's budget ran out first: a shorter reproduction may exist.
    case budgetSpent = "budget spent"
    /// The session's time (`--time`) ran out while shrinking: the shortest reproduction found so far.
    case timeUp = "time limit"
    /// Stopped by the user (Ctrl-C, SIGTERM): the shortest reproduction found so far.
    case interrupted
    /// The program did not fail the same way when re-run alone, so it was kept as found.
    case notReproducible = "not reproducible"
    /// Not shrunk at all (a corpus replay, or a determinism finding: there is no one program to shrink).
    case notShrunk = "not shrunk"

    /// A status as a report writes it, also as older reports wrote it (`minimal`).
    public init?(reading text: String) {
        self.init(rawValue: text == "minimal" ? ShrinkStatus.minimal.rawValue : text)
    }

    /// Whether the shrinking was cut short, so that a shorter reproduction may exist.
    public var wasCutShort: Bool { self == .budgetSpent || self == .timeUp || self == .interrupted }
}

/// Which bug a finding is: the failed property, the blamed action path and
/// the Lua file:line to blame. Two findings with the same key are reported
/// once (`fuzz --keep-going`), and the shrinker keeps a candidate only when
/// it fails at the same place, so that shrinking cannot slip to another bug.
public struct FindingKey: Hashable, Sendable, CustomStringConvertible {
    /// The property that failed.
    public var property: FuzzFinding.Property
    /// The blamed action or subaction path (`deal > draw`), or invariant (`invariant name`), when known.
    public var action: String?
    /// The blamed Lua file:line, when known.
    public var location: String?

    /// A key from its parts.
    public init(property: FuzzFinding.Property, action: String?, location: String?) {
        self.property = property
        self.action = action
        self.location = location
    }

    /// The key of a finding, read from its blame.
    ///
    /// `FuzzFinding` carries its blame as one text, written by the executor
    /// in one of three shapes: "ACTION (undo at FILE:LINE)", "ACTION at
    /// FILE:LINE" (errors and invariants) or "ACTION". This is the one place
    /// that reads it back; when findings carry the two parts separately,
    /// only this initializer changes.
    public init(_ finding: FuzzFinding) {
        property = finding.property
        guard let blame = finding.blame, !blame.isEmpty else { return }
        if blame.hasSuffix(")"), let open = blame.range(of: " (undo at ", options: .backwards) {
            action = String(blame[..<open.lowerBound])
            location = String(blame[open.upperBound..<blame.index(before: blame.endIndex)])
        } else if let at = blame.range(of: " at ", options: .backwards), Self.isLocation(blame[at.upperBound...]) {
            action = String(blame[..<at.lowerBound])
            location = String(blame[at.upperBound...])
        } else {
            action = blame
        }
        if action?.isEmpty == true { action = nil }
    }

    /// "FILE:LINE", as `SourceLocation` prints it.
    private static func isLocation(_ text: Substring) -> Bool {
        guard let colon = text.lastIndex(of: ":"), colon != text.startIndex else { return false }
        let line = text[text.index(after: colon)...]
        return !line.isEmpty && line.allSatisfy(\.isNumber)
    }

    /// Whether `other` is the same bug as the finding this key was made
    /// from, for shrinking: the same property and the same blamed line
    /// (the action path may change: a bug in `draw`'s undo is the same
    /// whether `draw` ran alone or inside `deal`); without a line, the same
    /// blamed action.
    public func admits(_ other: FuzzFinding) -> Bool {
        let key = FindingKey(other)
        guard key.property == property else { return false }
        if let location { return key.location == location }
        if let action { return key.action == action }
        return true
    }

    /// "PROPERTY in ACTION at FILE:LINE", for messages.
    public var description: String {
        property.rawValue + (action.map { " in \($0)" } ?? "") + (location.map { " at \($0)" } ?? "")
    }
}

/// Decides when progress is worth showing again: at most once per
/// `interval` seconds. The fuzzer reports after every run (hundreds per
/// second); a terminal redraws a line in place, but a log (CI, a pipe)
/// keeps every line, so it gets one every few seconds.
public struct ProgressPacer: Sendable {
    /// The least time between two lines, in seconds.
    public var interval: Double
    private var last: Double

    /// Seconds between redraws of a progress line in place on a terminal.
    public static let terminalInterval = 0.2
    /// Seconds between progress lines that go to a log (a pipe or a file, as on CI).
    public static let loggedInterval = 5.0

    /// A pacer whose first line is due `interval` seconds after `start`.
    public init(interval: Double, start: Double) {
        self.interval = interval
        last = start
    }

    /// A pacer for progress shown on a terminal (`toTerminal`) or written to a log.
    public init(toTerminal: Bool, start: Double) {
        self.init(interval: toTerminal ? Self.terminalInterval : Self.loggedInterval, start: start)
    }

    /// True when a line is due at `now` (and then the next is due `interval` later).
    public mutating func isDue(at now: Double) -> Bool {
        guard now - last >= interval else { return false }
        last = now
        return true
    }
}

/// How the fuzzer chooses its runs.
public enum SearchStrategy: String, Sendable, CaseIterable {
    /// Every run a fresh random game: each step uniform among the legal
    /// actions (with some undo, redo and illegal attempts).
    case uniform
    /// Each step chosen rare kinds first (a kind of move never played is
    /// played when offered), and runs guided by coverage of the pack's Lua:
    /// mutations of kept programs that reached new line-to-line edges,
    /// swarm runs that leave out some of the kinds played so far, and a breadth-first
    /// sweep of the first depths once 5,000 steps are taken.
    case guided
}

