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
        let verdicts = AnimationVerdicts()
        executor = FuzzExecutor(configuration: configuration, base: options.base, animationCheck: verdicts.problem)
        configuration.animationSources = true
        reportingExecutor = FuzzExecutor(configuration: configuration, base: options.base, animationCheck: Fuzzer.animationProblem)
    }

    /// Property 8, checked on every performed action.
    static func animationProblem(_ entry: HistoryEntry) -> String? {
        let timeline = entry.animation.timeline()
        if !timeline.duration.isFinite { return "the animation plan is not finite" }
        if let conflict = timeline.conflicts.first { return "animation conflict: \(conflict)" }
        return nil
    }

    /// Property 8's verdicts by encoded plan: the same plan bytes give the
    /// same verdict, and a fuzz session performs the same plans again and
    /// again, while building a timeline costs more than the action itself.
    final class AnimationVerdicts {
        private var known: [[UInt8]: String?] = [:]

        func problem(_ entry: HistoryEntry) -> String? {
            if let verdict = known[entry.plan] { return verdict }
            let verdict = Fuzzer.animationProblem(entry)
            if known.count >= 50_000 { known.removeAll(keepingCapacity: true) }
            known[entry.plan] = verdict
            return verdict
        }
    }

    /// The game seed and choice generator of run `index`.
    func runSeeds(_ index: Int) -> (game: Int64, choices: UInt64) {
        var mixer = FuzzRandom(seed: options.seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index))
        let choices = mixer.next()
        return (Int64(mixer.next() % 100_000), choices)
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

    /// Runs the session. `shouldStop` is polled between steps (for SIGINT);
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
            let (program, result) = generate(gameSeed: seeds.game, choices: seeds.choices, shouldStop: shouldStop)
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

    /// Plays one random game, checking as it goes.
    func generate(gameSeed: Int64, choices: UInt64, shouldStop: () -> Bool) -> (FuzzProgram, FuzzExecutor.Result) {
        var result = FuzzExecutor.Result()
        var random = FuzzRandom(seed: choices)
        let start = FuzzProgram(pack: options.pack, seed: gameSeed, options: options.setupOptions)
        let program = executor.play(start, finalChecks: true, result: &result) { game, index, _ in
            guard index < options.depth, !shouldStop() else { return .stop }
            let legal: [ActionCall]
            do { legal = try game.legalActions() } catch {
                return .finding(FuzzFinding(property: .legalIsAllowed, stepIndex: index, message: "legal raised an error: \(error)", differences: [], blame: nil))
            }
            guard let step = choose(legal: legal, game: game, random: &random) else { return .stop }
            return .step(step)
        }
        return (program, result)
    }

    /// The next step of a random game; nil when the game is over and nothing can be undone.
    func choose(legal: [ActionCall], game: Game, random: inout FuzzRandom) -> FuzzStep? {
        let canUndo = game.history.cursor > 0
        let canRedo = game.history.cursor < game.history.entries.count
        let roll = random.below(100)
        if roll < 10 && canUndo { return .undo(1 + random.below(3)) }
        if roll < 16 && canRedo { return .redo(1 + random.below(3)) }
        if roll < 19 && canUndo { return .undoTurn }
        if roll < 27 && !legal.isEmpty { return .attempt(illegal(from: legal, random: &random)) }
        if !legal.isEmpty { return .perform(legal[random.below(legal.count)]) }
        if canUndo { return .undo(1 + random.below(3)) }
        return nil
    }

    /// A call that is probably illegal: a legal one with one param swapped for
    /// another legal call's value, or another action's params.
    func illegal(from legal: [ActionCall], random: inout FuzzRandom) -> ActionCall {
        var call = legal[random.below(legal.count)]
        let donor = legal[random.below(legal.count)]
        if random.chance(0.3), let name = options.pack.isEmpty ? nil : donor.name as String? {
            call.name = name
            return call
        }
        let keys = call.params.keys.sorted()
        if let key = keys.isEmpty ? nil : keys[random.below(keys.count)] {
            let values = donor.params.values.sorted { $0.description < $1.description }
            if let value = values.isEmpty ? nil : values[random.below(values.count)] {
                call.params[key] = value
            } else {
                call.params[key] = .int(Int64(random.below(20)) - 5)
            }
        }
        return call
    }
}
