// From a finding to its report: shrinking, the search for shorter instances,
// finishing a shrink cut short, the searches for a shorter line and for
// shorter endings, and the budget of each. A timed session's
// hand-off ends by the session's end less `handOffReserve`.

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

    /// From a finding to its report: shrinking, the search for shorter
    /// instances (a timed session that stops at its first finding), the
    /// breadth-first search for a shorter line (`shortestLine`), when it
    /// proves nothing the search for shorter endings from each prefix
    /// (`shortenedEndings`, with what time is left), and the judgement of
    /// the reproduction from a fresh start. A timed
    /// session's hand-off ends by the session's end (`--time`, less
    /// `handOffReserve`), with the shortest reproduction found by then:
    /// the searches for a shorter line and shorter endings get its last
    /// quarter (`endingShare`); of the rest, the first shrink gets a third,
    /// the search for other instances up to half of the time limit
    /// (`instanceSearchEnd`), finishing the shrink the rest (a finding made in the
    /// session's last share has that share for its shrink: `shrinkReserve`).
    /// `state` shows the phase
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
        // The last share of the time is the searches for a shorter line and shorter endings'.
        let shrinkEnd = end.map { $0 - Fuzzer.endingShare(left: $0 - begun, of: options.timeLimit!) }
        if !options.keepGoing, let shrinkEnd, let index {
            report = shrink(program, finding, stepsToDetection: state.steps,
                            timeLimit: Fuzzer.firstShrinkSeconds(left: shrinkEnd - clock(), of: options.timeLimit!),
                            clock: clock, shouldStop: session.shouldStop, observe: { show($0) })
            report.run = index
            let searchEnd = Fuzzer.instanceSearchEnd(now: clock(), end: shrinkEnd, of: options.timeLimit!,
                                                     shrinkCutShort: report.shrinkStatus.wasCutShort)
            report = shortestInstance(of: report, until: searchEnd, firstRun: index + 1, session: session,
                                      observe: { show($0, ", looking for a shorter instance") })
            report = finishShrinking(report, until: shrinkEnd, clock: clock, shouldStop: session.shouldStop, observe: { show($0) })
        } else {
            report = shrink(program, finding, stepsToDetection: state.steps, timeLimit: shrinkEnd.map { $0 - clock() },
                            clock: clock, shouldStop: session.shouldStop, observe: { show($0) })
            report.run = index
        }
        show(report.shrunk.steps.count, ", looking for a shorter line")
        let stop = { session.shouldStop() || end.map { clock() >= $0 } ?? false }
        report = shortestLine(report, stop: stop)
        if report.shrinkStatus != .shortest {
            let before = report.shrunk.steps.count
            var budget = EndingBudget(nodes: Fuzzer.endingNodes(shrinkCandidates: options.shrinkBudget), stop: stop)
            report = shortenedEndings(report, budget: &budget, until: end, clock: clock, shouldStop: session.shouldStop,
                                      observe: { show($0, ", looking for a shorter ending") })
            // Shorter now, the whole-line search may reach the length and prove it.
            if report.shrunk.steps.count < before { report = shortestLine(report, stop: stop) }
        }
        show(report.shrunk.steps.count, ", judging it from a fresh start")
        return judgedFromAFreshStart(report)
    }

    /// The seconds at the end of a session of `limit` seconds that its
    /// shrinking leaves for what follows it (the reproduction run again
    /// with sources, judged from a fresh start, written): a quarter, at
    /// most a second. On a loaded machine those take a good part of a
    /// second; the session must still end within its limit and a second.
    static func handOffReserve(of limit: Double) -> Double { min(1, limit / 4) }

    /// The seconds at the end of a hand-off with `left` seconds to go, in a
    /// session of `limit` seconds, kept for the searches for a shorter line
    /// and shorter endings (`shortenedEndings`): a quarter of what is left
    /// beyond the shrink reserve, none for a finding made in the reserve.
    /// Without it the search for shorter instances and the finishing of
    /// the shrink took all the time on a loaded machine, and the ending
    /// search that takes chess king taken from 10 steps to 5 in a second
    /// never ran.
    static func endingShare(left: Double, of limit: Double) -> Double {
        max(0, left - shrinkReserve(of: limit)) / 4
    }

    /// The share of a session of `limit` seconds kept for shrinking: no run
    /// starts in it, so a bug found at the very end of the fuzzing still has
    /// that much time to shrink (a 77-step line found at 19.7 s of 20 was
    /// reported unshrunk). A tenth (2 s of 20: a few hundred candidates of
    /// the shrinker's cheap passes on chess), at most what one shrink takes
    /// without a time limit.
    static func shrinkReserve(of limit: Double) -> Double { min(limit / 10, Options.defaultShrinkSeconds) }

    /// Seconds into a session of `limit` seconds after which no run starts.
    static func fuzzingSeconds(of limit: Double) -> Double {
        limit - handOffReserve(of: limit) - shrinkReserve(of: limit)
    }

    /// The first shrink's time, `left` seconds before the hand-off's end: a
    /// third of it, but never less than the reserve (a late finding's
    /// shrink takes all that is left; no shorter instance is sought).
    static func firstShrinkSeconds(left: Double, of limit: Double) -> Double {
        min(left, max(left / 3, shrinkReserve(of: limit)))
    }

    /// When the search for shorter instances ends, at `now`, for a hand-off
    /// ending at `end` in a session of `limit` seconds: up to half of the
    /// limit (at most `refinementSeconds`), but when the first shrink was
    /// cut short, no later than halfway to `end`, so that finishing it has
    /// the other half. A search that finds no instance would otherwise
    /// take all that is left: a 16-step promotion line cut short by time
    /// was reported as it was, 10 s spent on runs that found nothing.
    static func instanceSearchEnd(now: Double, end: Double, of limit: Double, shrinkCutShort: Bool) -> Double {
        let searchEnd = min(end, now + min(limit / 2, Fuzzer.refinementSeconds))
        return shrinkCutShort ? min(searchEnd, now + (end - now) / 2) : searchEnd
    }

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
            var request = Kernel.RunRequest(program: nil, choiceSeed: seeds.choiceSeed, depth: depth, rewindAtEnd: true)
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
        let finished = shrink(report.shrunk, report.finding, stepsToDetection: report.stepsToDetection,
                              budget: left, timeLimit: end - clock(), clock: clock, shouldStop: shouldStop, observe: observe)
        return finished.continuing(report)
    }

    /// `report` with ever shorter endings (`shorterEnding`) until no prefix
    /// gives a shorter one, then shrunk again (a new ending may let steps
    /// of the prefix go) and searched again while that helps, until
    /// `budget` is spent or `end` passes on `clock`. The endings come
    /// first: a search of a few prefixes costs less than a shrink, and
    /// gains more. The status is the last shrink's (`1-minimal`, or cut
    /// short), or says what stopped the work when a new ending was not
    /// shrunk.
    func shortenedEndings(_ report: Report, budget: inout EndingBudget, until end: Double?,
                          clock: @escaping Clock, shouldStop: () -> Bool, observe: (Int) -> Void) -> Report {
        var best = report
        var unshrunk = false   // a new ending the shrinker has not seen
        while true {
            if let shorter = shorterEnding(of: best, budget: &budget) {
                observe(shorter.shrunk.steps.count)
                (best, unshrunk) = (shorter, true)
                continue
            }
            let left = options.shrinkBudget - best.shrinkAttempts
            let timeLeft = end.map { $0 - clock() }
            guard unshrunk, left > 0, timeLeft.map({ $0 > 0 }) ?? true, !shouldStop() else { break }
            let again = shrink(best.shrunk, best.finding, stepsToDetection: best.stepsToDetection, budget: left,
                               timeLimit: timeLeft, clock: clock, shouldStop: shouldStop, observe: observe)
            guard again.shrinkStatus != .notReproducible else { break }
            let gained = again.shrunk.steps.count < best.shrunk.steps.count
            (best, unshrunk) = (again.continuing(best), false)
            if !gained { break }   // the line the search has just searched
        }
        if unshrunk {
            best.shrinkStatus = shouldStop() ? .interrupted : end.map({ clock() >= $0 }) == true ? .timeUp : .budgetSpent
        }
        return best
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
}
