// From a finding to its report: the minimizer called once, on the session's
// budget, its progress shown as the session's phase, then the judgement from
// a fresh start. Invariant: every second of the hand-off counts as
// shrinking, and a timed session's hand-off ends by the session's end less
// `MinimizerBudget.handOffReserve`.

extension Fuzzer {
    /// What the hand-off of a finding needs of the session that found it.
    struct Session {
        /// When the session started, on `clock`.
        let start: Double
        let clock: Clock
        let shouldStop: () -> Bool
        let progress: (Progress) -> Void
        let played: (PlayedRun) -> Void
    }

    /// The session's minimizer: its executors and shrink budget.
    var minimizer: Minimizer {
        Minimizer(executor: executor, reportingExecutor: reportingExecutor, shrinkBudget: options.shrinkBudget)
    }

    /// From a finding to its report: the minimizer's passes
    /// (`Minimizer.passes`) on the session's budget (`MinimizerBudget`:
    /// a timed session's hand-off ends by the session's end, with the
    /// shortest reproduction found by then), then the judgement of the
    /// reproduction from a fresh start (`FreshStart`). `state` shows the
    /// phase and counts the seconds as shrinking.
    func handOff(_ program: FuzzProgram, _ finding: FuzzFinding, run index: Int?, state: inout Progress,
                 session: Session) -> Report {
        let clock = session.clock
        let begun = clock(), before = state.shrinkingSeconds
        let number = state.findings + 1
        let from = program.steps.count
        /// Every second since `begun` is the hand-off's.
        func account() {
            state.elapsed = clock() - session.start
            state.shrinkingSeconds = before + (state.elapsed - (begun - session.start))
        }
        func show(_ best: Int, _ what: String) {
            state.phase = "shrinking finding \(number): \(from) → \(best) steps" + what
            account()
            session.progress(state)
        }
        defer {
            state.phase = nil
            account()
        }
        let budget = MinimizerBudget(timeLimit: options.timeLimit, start: session.start, begun: begun, clock: clock,
                                     shouldStop: session.shouldStop)
        let minimized = minimizer.minimize(FailingProgram(program: program, finding: finding), budget: budget,
                                           instances: instances(after: index, session: session), observe: show)
        let report = Report(minimized, run: index, stepsToDetection: state.steps)
        show(report.shrunk.steps.count, ", judging it from a fresh start")
        guard let pack = reportingExecutor.games.main?.packURL ?? executor.games.main?.packURL else { return report }
        return FreshStart.judged(report, pack: pack, executor: reportingExecutor)
    }

    /// The session's fresh runs for the search for shorter instances
    /// (`ShorterInstance`), after run `index`: only a timed session that
    /// stops at its first finding, made by one of its runs, seeks them.
    /// Each run is this shard's, chosen as the session chooses steps, at
    /// most `options.depth` steps, and told to `session.played`.
    private func instances(after index: Int?, session: Session) -> Minimizer.Instances? {
        guard !options.keepGoing, options.timeLimit != nil, let index else { return nil }
        return Minimizer.Instances(firstRun: index + 1, hasRun: { [options] run in options.runLimit.map { run < $0 } ?? true }) {
            index, depth in
            guard owns(run: index) else { return nil }
            let seeds = runSeeds(index)
            let start = FuzzProgram(pack: options.pack, seed: seeds.game, options: options.setupOptions)
            var request = Kernel.RunRequest(program: nil, choiceSeed: seeds.choiceSeed, depth: min(options.depth, depth),
                                            rewindAtEnd: true)
            request.favoursRareKinds = options.search == .guided
            request.leavesOutKinds = request.favoursRareKinds && index % 2 == 1
            request.collectsCoverage = options.coverage
            let (program, result) = executor.play(start, request)
            session.played(PlayedRun(index: index, program: program))
            return (program, result)
        }
    }

    /// The seconds into a session of `limit` seconds after which no run
    /// starts: the rest is the hand-off's (`MinimizerBudget`).
    static func fuzzingSeconds(of limit: Double) -> Double {
        limit - MinimizerBudget.handOffReserve(of: limit) - MinimizerBudget.shrinkReserve(of: limit)
    }

    /// The length of the shortest program that fails with `property` from
    /// any of `seeds` (`Minimizer.shortestFailingLine`), or nil when none
    /// is found within `limit` actions and the node limit. For measuring
    /// the shrinker (the bench's time to detect).
    public func shortestFailingLine(_ property: FuzzFinding.Property, seeds: [Int64],
                                    limit: Int) -> (length: Int, seed: Int64, proven: Bool)? {
        minimizer.shortestFailingLine(property, pack: options.pack, options: options.setupOptions, seeds: seeds, limit: limit,
                                      nodeLimit: Minimizer.shortestLineNodes)
    }
}
