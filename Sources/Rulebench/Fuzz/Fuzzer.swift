import Foundation

/// The undo fuzzer: random games from a seed, checked after every step.
///
/// Each run starts a fresh game and takes up to `depth` steps: mostly a
/// random legal action, sometimes an undo or redo of a few steps, an undo to
/// the last checkpoint, or an attempt with illegal params. The first failing
/// property ends the run; the program is shrunk and reported.
public struct Fuzzer {
    /// What to fuzz and for how long.
    public struct Options: Sendable {
        public var pack: String
        public var seed: UInt64 = 1
        public var runs = 100
        public var depth = 100
        /// Stop starting new runs after this many seconds (nil: no limit).
        public var timeLimit: Double?
        /// This machine's share: runs whose index % count == index - 1.
        public var shard: (index: Int, count: Int) = (1, 1)
        public var setupOptions: [String: StateValue] = [:]
        public var configuration = Game.Configuration()
        /// Folder a relative pack path is resolved against.
        public var base: URL?

        public init(pack: String) { self.pack = pack }
    }

    /// A finding with its shrunk reproduction.
    public struct Report: Sendable {
        public var finding: FuzzFinding
        public var original: FuzzProgram
        public var shrunk: FuzzProgram
        /// Outcomes of the shrunk program's steps (for writing it as a scenario).
        var outcomes: [FuzzExecutor.Outcome]
        public var shrinkSeconds: Double
        public var shrinkAttempts: Int
        /// Steps the fuzzer took (in this session) before this finding.
        public var stepsToDetection: Int
    }

    /// Progress, reported as runs go.
    public struct Progress: Sendable {
        public var runs = 0
        public var steps = 0
        public var findings = 0
        public var elapsed = 0.0
        public var stepsPerSecond: Double { elapsed > 0 ? Double(steps) / elapsed : 0 }
    }

    public let options: Options
    /// Runs programs fast: animation leaves carry no source lines.
    let executor: FuzzExecutor
    /// Runs a reported program once more with every source line recorded.
    let reportingExecutor: FuzzExecutor

    public init(options: Options) {
        self.options = options
        var configuration = options.configuration
        configuration.strict = true
        configuration.animationSources = false
        executor = FuzzExecutor(configuration: configuration, base: options.base)
        configuration.animationSources = true
        reportingExecutor = FuzzExecutor(configuration: configuration, base: options.base)
    }

    /// Property 8, checked on every performed action.
    static func animationProblem(_ entry: HistoryEntry) -> String? {
        let timeline = entry.animation.timeline()
        if !timeline.duration.isFinite { return "the animation plan is not finite" }
        if let conflict = timeline.conflicts.first { return "animation conflict: \(conflict)" }
        return nil
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

    /// Runs the session. `shouldStop` is polled between runs (for SIGINT);
    /// `progress` is called after every run.
    public func run(shouldStop: () -> Bool = { false }, progress: (Progress) -> Void = { _ in }) -> (reports: [Report], progress: Progress) {
        let start = Date()
        var state = Progress()
        var reports: [Report] = []
        var seen = Set<String>()
        var index = 0
        while index < options.runs {
            defer { index += 1 }
            guard index % options.shard.count == options.shard.index - 1 else { continue }
            if shouldStop() { break }
            if let limit = options.timeLimit, Date().timeIntervalSince(start) > limit { break }
            let seeds = runSeeds(index)
            let (program, result) = generate(gameSeed: seeds.game, choices: seeds.choices)
            state.runs += 1
            state.steps += program.steps.count
            if state.runs == 1, result.finding == nil, let found = checkDeterminism(program, result) {
                reports.append(Report(finding: found, original: program, shrunk: program, outcomes: result.outcomes,
                                      shrinkSeconds: 0, shrinkAttempts: 0, stepsToDetection: state.steps))
            }
            if let finding = result.finding {
                let key = "\(finding.property)|\(finding.blame ?? "")"
                if !seen.contains(key) {
                    seen.insert(key)
                    reports.append(shrink(program, finding, stepsToDetection: state.steps))
                }
            }
            state.findings = reports.count
            state.elapsed = Date().timeIntervalSince(start)
            progress(state)
        }
        state.elapsed = Date().timeIntervalSince(start)
        return (reports, state)
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

    /// Shrinks a failing program and times it.
    func shrink(_ program: FuzzProgram, _ finding: FuzzFinding, stepsToDetection: Int) -> Report {
        let start = Date()
        var shrinker = Shrinker(executor: executor)
        let (small, smallFinding) = shrinker.shrink(program, finding)
        let final = reportingExecutor.execute(small, checkLegality: false, finalChecks: false)
        let reported = final.finding.flatMap { $0.property == smallFinding.property ? $0 : nil } ?? smallFinding
        return Report(finding: reported, original: program, shrunk: small, outcomes: final.outcomes,
                      shrinkSeconds: Date().timeIntervalSince(start), shrinkAttempts: shrinker.attempts,
                      stepsToDetection: stepsToDetection)
    }

    /// Plays one random game, checking as it goes (the step loop runs in the
    /// kernel: `Kernel/fuzz.lua` chooses and checks every step).
    func generate(gameSeed: Int64, choices: UInt64) -> (FuzzProgram, FuzzExecutor.Result) {
        let start = FuzzProgram(pack: options.pack, seed: gameSeed, options: options.setupOptions)
        return executor.generate(start, choices: choices, depth: options.depth)
    }
}
