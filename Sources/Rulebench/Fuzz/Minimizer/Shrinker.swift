import Foundation

/// Reduces a failing program to a small one that fails the same way, in
/// the manner of Hypothesis: a candidate is kept only when it is simpler
/// (`Shrinker.isSimpler`) and still fails at the same place
/// (`FindingKey.admits`), and the passes repeat until none helps.
///
/// First, on a long program (`quickPassesFrom` steps or more), the cheap
/// passes, one candidate per edit and no repairs: the line the program
/// leaves applied, played straight (`LiveLine`: undos, redos and rejected
/// attempts out), then chunks deleted by halving, half a chunk apart,
/// down to single steps, while that helps (`deleteChunksQuickly`). A long
/// random line (42 chess moves to a king capture) loses most of its steps
/// there, for a few hundred candidates, before the passes that repair and
/// mend (each chunk tried there can cost a dozen).
///
/// Then each round runs, in order:
/// 1. delete chunks of steps: halves, quarters, ... down to 8 steps, then
///    every chunk of 8, 7, ... 1 steps at every position. A deletion that
///    makes a later `perform` illegal is repaired: that step is mended
///    (another legal call of its action there: the other side's move, once
///    a turn is gone), or else deleted too (a rook went a1-b1 and comes
///    back: the two go together);
/// 2. simplify steps in place, the earliest first: `undo turn` and `undo
///    last turn` become
///    `undo N` (N the steps it undid), counts get smaller, an attempt
///    becomes a perform when legal, and a perform becomes a simpler call
///    among the legal ones at its point (`complexity`);
/// 3. shrink the game seed (0, 1, 2, ..., halves), when the setup lets the
///    steps stay legal and the finding stay;
/// 4. only when none of these helped: delete two separate steps, or two
///    separate pairs, at once (a move and the move that undoes it further
///    on; a move for each side), the pass that costs the most candidates;
/// 5. only when that did not help either: swap two moves of one side, then
///    delete the moved one with a neighbour (an idle move before a needed
///    one cannot otherwise go);
/// 6. only when nothing else helps: delete chunks of 4 to 1 steps again,
///    now letting each mending break a later step and mend it in turn.
///
/// Each candidate runs inside the kernel (one crossing), with every
/// `perform` checked against `legal`: the result is a game a player could
/// have played. It starts where the last candidate stood after the steps
/// the two share, rewound there with the strict undo (or redo: a
/// candidate's end-of-run rewind stops at the first entry a rewind
/// verified, so the game stands near the shared steps; a candidate differs
/// from the last from the chunk it deletes on), or from a restarted game
/// when it cannot (`FuzzExecutor.execute`). Resumed, it is sent only its
/// steps after the shared ones and answered for those only: what it costs
/// grows with the steps it plays and undoes, not with its length (the
/// history's entries are read only by a check that needs them,
/// `HistoryView`), and its first step's legality is checked against the
/// calls the last candidate listed in that very state (`Kernel/fuzz.lua`,
/// LAST's `listed`). One that fails so runs again
/// from a restarted game before it is kept (`resumes`). Verdicts are remembered, so no
/// program runs twice, and so is what each step the runs played did: a
/// candidate whose steps were all played before is judged without a run,
/// illegal when it reaches a `perform` refused before, passing when it
/// reaches its end and no check comes after its last step (`StepMemo`). The last round deleted every single step in vain:
/// the result is 1-minimal, unless the budget or the time ran out first
/// (`status`). Time is read from the session's clock (`clock`, injected:
/// tests use a fake one), once per candidate.
struct Shrinker {
    /// The default candidate budget: a few seconds at the kernel's speed.
    static let defaultBudget = 20_000

    let executor: FuzzExecutor
    /// Stop after this many candidate runs.
    var budget: Int
    /// Stop after this many seconds (the budget's fallback on a slow pack,
    /// or the share of a timed session's time left for shrinking).
    var timeLimit: Double
    /// The session's clock (seconds).
    var clock: Minimizer.Clock
    /// How far apart (in steps) the two parts of a split deletion may be.
    var pairWindow = 8
    /// Run passes 4-6 too. Without them a round that finds nothing ends
    /// the shrinking as `.budgetSpent`: a quick look at how short a program
    /// gets (the fuzzer's search for shorter instances of a bug).
    var runsCostlyPasses = true

    /// Candidate programs run so far.
    private(set) var attempts = 0
    /// How shrinking ended.
    private(set) var status = ShrinkStatus.notShrunk

    /// The simplest failing program so far, its finding and its outcomes.
    private var best = FuzzProgram(pack: "", seed: 0, options: [:])
    private var bestFinding: FuzzFinding?
    private var bestOutcomes: [FuzzExecutor.Outcome] = []
    /// What a candidate must fail with.
    private var target = FindingKey(property: .undoRestores, action: nil, location: nil)
    /// The finding is `legal` raising after the last step: each candidate
    /// lists the legal actions after its last step.
    private var listsLegalAtEnd = false
    /// Whether the finding needs the end-of-run checks (rewind, save, replay).
    private var finalChecks = false
    /// Verdicts of the candidates run so far, and for each found illegal
    /// the legal calls at its illegal step: what its mending chooses from
    /// (`attemptMending`). One table: a program is hashed once a candidate.
    private var verdicts: [FuzzProgram: (verdict: Verdict, offered: [ActionCall]?)] = [:]
    /// Candidates start where the last one stood after the steps they
    /// share with it, rewound there with the strict undo (`FuzzExecutor`,
    /// `resuming`), rather than from a restarted game. Off once a
    /// candidate that failed so did not fail from a restart (the rules
    /// keep state outside the game). Off from the start: every candidate
    /// replayed from a restarted game (the tests' other way).
    var resumes = true
    /// Candidates the runs so far prove illegal or passing are judged
    /// without a run (`StepMemo`). Off: every candidate runs (the tests'
    /// other way).
    var remembersSteps = true
    /// What the runs so far showed of the game's steps.
    private(set) var memo = StepMemo()
    /// Each call's `complexity`, as `complexity(of:)` made it.
    private var complexities: [ActionCall: String] = [:]
    private var deadline = Double.infinity
    /// The clock's reading before the last candidate ran.
    private var now = 0.0
    /// The caller's `shouldStop`, while `shrink` runs.
    private var stopRequested: () -> Bool = { false }
    /// The caller's `observe`, while `shrink` runs.
    private var observer: (Int) -> Void = { _ in }

    /// The default time limit, without a session's.
    static let defaultTimeLimit = MinimizerBudget.defaultShrinkSeconds

    init(executor: FuzzExecutor, budget: Int = Shrinker.defaultBudget, timeLimit: Double = Shrinker.defaultTimeLimit,
         clock: @escaping Minimizer.Clock = MonotonicClock.seconds) {
        self.executor = executor
        self.budget = budget
        self.timeLimit = timeLimit
        self.clock = clock
    }

    /// What running a candidate gave.
    enum Verdict: Equatable {
        /// It fails the same way.
        case reproduces
        /// Its step at this index is a `perform` that is not legal there.
        case illegal(at: Int)
        /// It passes, or fails another way.
        case other
    }

    /// The shrunk program and its finding. A finding the shrinker cannot
    /// reproduce from the program alone (determinism) is returned as it is.
    /// `shouldStop` is polled between candidates (Ctrl-C): the best program
    /// so far is returned at once. `observe` hears the best length after
    /// every candidate (the progress line).
    mutating func shrink(_ program: FuzzProgram, _ finding: FuzzFinding, shouldStop: () -> Bool = { false },
                         observe: (Int) -> Void = { _ in }) -> (FuzzProgram, FuzzFinding) {
        withoutActuallyEscaping(shouldStop) { stop in
            withoutActuallyEscaping(observe) { observe in
                (stopRequested, observer) = (stop, observe)
                defer { (stopRequested, observer) = ({ false }, { _ in }) }
                return shrinkUntilFixpoint(program, finding)
            }
        }
    }

    private mutating func shrinkUntilFixpoint(_ program: FuzzProgram, _ finding: FuzzFinding) -> (FuzzProgram, FuzzFinding) {
        now = clock()
        deadline = now + timeLimit
        target = FindingKey(finding)
        listsLegalAtEnd = finding.isLegalListingFailure
        guard start(from: program, finding) else {
            status = .notReproducible
            return (program, finding)
        }
        if best.steps.count >= Shrinker.quickPassesFrom {
            _ = straighten()
            while deleteChunksQuickly() {}
        }
        while hasBudget {
            var improved = deleteChunks()
            improved = simplifySteps() || improved
            improved = shrinkSeed() || improved
            // Split deletions cost the most candidates: tried only when
            // nothing cheaper helps any more.
            if !improved && !runsCostlyPasses { break }
            if !improved { improved = deletePairs() }
            if !improved { improved = swapThenDeletePairs() }
            if !improved { improved = deleteChunksMendingInTurn() }
            // A pass cut short by the budget may have missed a deletion, so
            // only a round that ran whole and found nothing is a fixpoint.
            if !improved && hasBudget {
                status = .minimal
                return (best, bestFinding ?? finding)
            }
        }
        // Or the costly passes were left out (`runsCostlyPasses`).
        status = stopRequested() ? .interrupted : now >= deadline ? .timeUp : .budgetSpent
        return (best, bestFinding ?? finding)
    }

    // MARK: Candidates

    private var hasBudget: Bool { attempts < budget && !stopRequested() && now < deadline }

    /// Counts a candidate run (or a listing of legal calls) and reads the clock.
    private mutating func count() {
        attempts += 1
        now = clock()
        observer(best.steps.count)
    }

    /// Finds out how the program fails under the shrinker's rules: trimmed
    /// after its failing step, without the end-of-run checks when it fails
    /// before them (they cost a save and a replay per candidate). A finding
    /// of the end-of-run rewind (`rewindUndos`) came after every step passed
    /// its checks: it is not tried without them.
    private mutating func start(from program: FuzzProgram, _ finding: FuzzFinding) -> Bool {
        var trimmed = program
        if finding.stepIndex >= 0 && finding.stepIndex + 1 < trimmed.steps.count {
            trimmed.steps = Array(trimmed.steps[...finding.stepIndex])
        }
        best = trimmed
        for needsFinal in finding.rewindUndos == nil ? [false, true] : [true] {
            finalChecks = needsFinal
            verdicts = [:]
            if run(trimmed, keep: true) == .reproduces { return true }
        }
        return false
    }

    /// Runs `candidate` (or recalls its verdict); with `keep`, a candidate
    /// that reproduces becomes the best, trimmed after its failing step.
    private mutating func run(_ candidate: FuzzProgram, keep: Bool) -> Verdict {
        if let known = verdicts[candidate] { return known.verdict }
        count()
        if remembersSteps, let known = memo.answer(for: candidate, passesWithoutEndChecks: !finalChecks && !listsLegalAtEnd) {
            switch known {
            case .illegal(let index, let offered):
                verdicts[candidate] = (.illegal(at: index), offered)
                return .illegal(at: index)
            case .passes:
                verdicts[candidate] = (.other, nil)
                return .other
            }
        }
        // A resumed candidate that fails is played again below before it
        // is kept, the whole-history checks then included.
        var result = executor.execute(candidate, checkLegality: true, finalChecks: finalChecks, listLegalAtEnd: listsLegalAtEnd,
                                      resuming: resumes, seeking: target, wholeHistoryIfResumed: false)
        if remembersSteps { memo.learn(candidate, result) }
        if result.resumed, result.valid, let found = result.finding, target.admits(found) {
            // A candidate kept is one that fails from a restarted game: the
            // rules may keep state outside the game that rewinding leaves.
            result = executor.execute(candidate, checkLegality: true, finalChecks: finalChecks, listLegalAtEnd: listsLegalAtEnd,
                                      seeking: target)
            // Nor is what the runs showed of its steps a function of where they were played.
            if !(result.valid && result.finding.map(target.admits) == true) { (resumes, remembersSteps) = (false, false) }
        }
        let verdict: Verdict
        if !result.valid {
            verdict = .illegal(at: result.outcomes.count)
        } else if let found = result.finding, target.admits(found) {
            verdict = .reproduces
            if keep {
                best = candidate
                if found.stepIndex >= 0 && found.stepIndex + 1 < best.steps.count {
                    best.steps = Array(best.steps[...found.stepIndex])
                }
                bestFinding = found
                bestOutcomes = result.outcomes
            }
        } else {
            verdict = .other
        }
        verdicts[candidate] = (verdict, result.valid ? nil : result.offered)
        return verdict
    }

    /// Runs a candidate that must be simpler than the best (see `run`);
    /// nil, without running it, when it is not or the budget is spent.
    private mutating func verdict(ofSimpler candidate: FuzzProgram) -> Verdict? {
        guard hasBudget, Shrinker.isSimpler(candidate, than: best) else { return nil }
        return run(candidate, keep: true)
    }

    /// Tries a candidate that must be simpler than the best; true when it became the best.
    private mutating func attempt(_ candidate: FuzzProgram) -> Bool {
        verdict(ofSimpler: candidate) == .reproduces
    }

    /// Tries a candidate made by deleting steps; when a later `perform`
    /// turns out illegal, first plays another legal call of the same action
    /// there (the other player's move, once a turn is gone), then deletes
    /// it and tries again (a few times), so that steps that depend on the
    /// deleted ones go with them or are mended.
    /// With `cascade`, a mending that breaks a later step mends it in turn
    /// (see `attemptMending`).
    private mutating func attemptRepairing(_ candidate: FuzzProgram, repairs: Int = 3, cascade: Int = 0) -> Bool {
        var candidate = candidate
        for _ in 0...repairs {
            switch verdict(ofSimpler: candidate) {
            case .reproduces?: return true
            case .illegal(let index)? where index < candidate.steps.count:
                if attemptMending(candidate, at: index, cascade: cascade) { return true }
                candidate.steps.remove(at: index)
            default: return false
            }
        }
        return false
    }

    /// The most legal calls tried in place of an illegal `perform`: at the
    /// step a deletion broke, and at each later step a mending broke.
    static let mendingsPerStep = (first: 4, later: 2)
    /// How many later steps a mending may break and mend in turn (pass 6).
    static let mendingCascade = 3

    /// Tries `candidate` with its illegal `perform` at `index` replaced by
    /// a legal call of the same action there, the simplest first. A mending
    /// may make a later step illegal (black's pawn walk d5-d4-d3 loses its
    /// first move): that step is mended the same way, up to `cascade` times.
    private mutating func attemptMending(_ candidate: FuzzProgram, at index: Int, cascade: Int,
                                         first: Bool = true) -> Bool {
        guard case .perform(let call) = candidate.steps[index], hasBudget else { return false }
        // Counted as the run that listed them was, though the candidate's
        // run brought them back: the budget buys what it bought before.
        count()
        guard let legal = offeredCalls(at: index, of: candidate) else { return false }
        let fanOut = first ? Shrinker.mendingsPerStep.first : Shrinker.mendingsPerStep.later
        // Each call's complexity made once, not at every comparison.
        let mendings = legal.filter { $0.name == call.name }
            .map { ($0, complexity(of: $0)) }
            .sorted { $0.1 < $1.1 }
            .prefix(fanOut)
            .map(\.0)
        for mending in mendings {
            var mended = candidate
            mended.steps[index] = .perform(mending)
            switch verdict(ofSimpler: mended) {
            case .reproduces?: return true
            case .illegal(let later)? where later > index && later < mended.steps.count && cascade > 0:
                if attemptMending(mended, at: later, cascade: cascade - 1, first: false) { return true }
            default: continue
            }
        }
        return false
    }

    /// The legal calls at the illegal step `index` of `candidate`: those
    /// its run brought back, or else listed by playing its steps up to there.
    private func offeredCalls(at index: Int, of candidate: FuzzProgram) -> [ActionCall]? {
        if let known = verdicts[candidate]?.offered { return known }
        var prefix = candidate
        prefix.steps = Array(candidate.steps[...index])
        let legal = executor.execute(prefix, checkLegality: true, recordLegal: true, finalChecks: false, resuming: resumes).legal
        return legal.indices.contains(index) ? legal[index] : nil
    }

    // MARK: Passes

    /// The shortest program the cheap passes run on. On shorter ones the
    /// repairing passes finish, and their mending finds routes that greedy
    /// deletion closes off: with the cheap passes from 24 steps, the
    /// guided search's king-taken line of session seed 3 shrank to 17
    /// steps, from 40 to 9 (BENCHMARKS.md, "Time to detect").
    static let quickPassesFrom = 40

    /// The first cheap pass: the line the best program leaves applied before its
    /// failing step (`LiveLine`), then that step; every step when the
    /// finding comes after the last one (the end-of-run checks).
    private mutating func straighten() -> Bool {
        let failing = bestFinding?.stepIndex ?? best.steps.count
        let end = failing >= 0 && failing < best.steps.count ? failing : best.steps.count
        guard var line = LiveLine.of(best.steps, outcomes: bestOutcomes, end: end) else { return false }
        if end < best.steps.count { line.append(best.steps[end]) }
        var candidate = best
        candidate.steps = line
        return attempt(candidate)
    }

    /// The second cheap pass: chunks of half the program, a quarter, ... one step,
    /// each size at every half-chunk offset, each deletion one candidate
    /// (no repair, no mending). Repeated while it helps.
    private mutating func deleteChunksQuickly() -> Bool {
        var improved = false
        var size = best.steps.count / 2
        while size >= 1 && hasBudget {
            var start = 0
            var deleted = false
            while start + size <= best.steps.count && hasBudget {
                if attempt(deleting(start..<start + size)) { deleted = true } else { start += max(1, size / 2) }
            }
            improved = improved || deleted
            // After a deletion, the same size again from the start; else the next size.
            if !deleted { size /= 2 }
        }
        return improved
    }

    /// Pass 1: chunks, large ones first (by halving, for long programs),
    /// then every size from 8 to 1 at every position.
    private mutating func deleteChunks() -> Bool {
        var improved = false
        var size = best.steps.count / 2
        while size > 8 && hasBudget {
            var start = 0
            while start + size <= best.steps.count && hasBudget {
                if attemptRepairing(deleting(start..<start + size)) { improved = true } else { start += size }
            }
            size /= 2
        }
        for size in stride(from: 8, through: 1, by: -1) {
            var start = 0
            while start + size <= best.steps.count && hasBudget {
                // After a deletion the next chunk starts where this one did.
                if attemptRepairing(deleting(start..<start + size)) { improved = true } else { start += 1 }
            }
        }
        return improved
    }

    /// Pass 2: two separate single steps, then two separate pairs, at most
    /// `pairWindow` steps apart.
    private mutating func deletePairs() -> Bool {
        var improved = false
        for size in [1, 2] {
            var first = 0
            while first + size < best.steps.count && hasBudget {
                var deleted = false
                var second = first + size + 1
                while second + size <= min(best.steps.count, first + size + pairWindow) && hasBudget {
                    var candidate = best
                    candidate.steps.removeSubrange(second..<second + size)
                    candidate.steps.removeSubrange(first..<first + size)
                    if attemptRepairing(candidate) { improved = true; deleted = true; break }
                    second += 1
                }
                if !deleted { first += 1 }
            }
        }
        return improved
    }

    /// Pass 5: two `perform` steps an even distance apart (in a game where
    /// sides alternate, two moves of one side) swapped, then two adjacent
    /// steps deleted. Deletion alone cannot reorder: a side's idle move that
    /// came before one it needs stays, since deleting it with an idle move
    /// of the other side would hand every step between to the wrong side.
    /// Swapped behind its needed move, it goes with the other side's idle
    /// move next to it. Tried only when nothing else helps, within
    /// `pairWindow`.
    private mutating func swapThenDeletePairs() -> Bool {
        for first in best.steps.indices {
            for second in stride(from: first + 2, to: min(best.steps.count, first + pairWindow + 1), by: 2) {
                guard hasBudget else { return false }
                guard case .perform = best.steps[first], case .perform = best.steps[second] else { continue }
                var swapped = best
                swapped.steps.swapAt(first, second)
                // The moved step with the step before it, or after it.
                for start in [second - 1, second] where start + 2 <= swapped.steps.count {
                    if attemptRepairing(deleting(start..<start + 2, from: swapped)) { return true }
                }
            }
        }
        return false
    }

    /// Pass 6: chunks of 4 down to 1 step deleted again, each mending
    /// allowed to break and mend later steps (`mendingCascade`). An idle
    /// move paid for by a walk of the other side (d5, d4, d3, dxc2 while
    /// the needed moves are made) goes only when the whole walk is played
    /// another way. The costliest pass: tried only when nothing else helps.
    private mutating func deleteChunksMendingInTurn() -> Bool {
        for size in stride(from: 4, through: 1, by: -1) {
            for start in 0..<max(0, best.steps.count - size + 1) {
                guard hasBudget else { return false }
                if attemptRepairing(deleting(start..<start + size), repairs: 0, cascade: Shrinker.mendingCascade) { return true }
            }
        }
        return false
    }

    /// Pass 3: each step replaced by simpler ones, the earliest step first.
    private mutating func simplifySteps() -> Bool {
        var improved = false
        var legal = recordLegal()
        var index = 0
        while index < best.steps.count && hasBudget {
            let options = replacements(at: index, legal: index < legal.count ? legal[index] : [],
                                       outcome: index < bestOutcomes.count ? bestOutcomes[index] : nil)
            for replacement in options where hasBudget {
                var candidate = best
                candidate.steps[index] = replacement
                if attempt(candidate) {
                    improved = true
                    legal = recordLegal()
                    break
                }
            }
            index += 1
        }
        return improved
    }

    /// Pass 4: smaller game seeds, smallest first.
    private mutating func shrinkSeed() -> Bool {
        for seed in Shrinker.smallerSeeds(than: best.seed) where hasBudget {
            var candidate = best
            candidate.seed = seed
            if attemptRepairing(candidate) { return true }
        }
        return false
    }

    /// `program` (the best so far when not given) without the steps in `range`.
    private func deleting(_ range: Range<Int>, from program: FuzzProgram? = nil) -> FuzzProgram {
        var candidate = program ?? best
        candidate.steps.removeSubrange(range)
        return candidate
    }

    /// The legal calls before each step of the best program (for `perform`
    /// steps). Its steps are legal: checked so, the next candidate can
    /// start where it stands (`FuzzExecutor.resumePoint`).
    private func recordLegal() -> [[ActionCall]] {
        executor.execute(best, checkLegality: true, recordLegal: true, finalChecks: false, resuming: resumes).legal
    }

    // MARK: Simpler steps and seeds

    /// The most simpler legal calls tried in place of one `perform`.
    static let alternativesPerStep = 24

    /// Simpler steps to try in place of the step at `index`, simplest first.
    private mutating func replacements(at index: Int, legal: [ActionCall], outcome: FuzzExecutor.Outcome?) -> [FuzzStep] {
        let step = best.steps[index]
        switch step {
        case .undoTurn, .undoLastTurn:
            // The count it undid; when the turn's undo is the failing step
            // its outcome is unknown, so every count up to the actions before it.
            if case .undone(let n)? = outcome { return n > 0 ? [.undo(n)] : [] }
            let before = best.steps[..<index].count { if case .perform = $0 { return true }; if case .attempt = $0 { return true }; return false }
            return before > 0 ? (1...min(before, 16)).map { .undo($0) } : []
        case .undo(let n):
            if case .undone(let done)? = outcome, done > 0, done < n { return Shrinker.smallerCounts(done + 1).map { .undo($0) } }
            return Shrinker.smallerCounts(n).map { .undo($0) }
        case .redo(let n):
            if case .redone(let done)? = outcome, done > 0, done < n { return Shrinker.smallerCounts(done + 1).map { .redo($0) } }
            return Shrinker.smallerCounts(n).map { .redo($0) }
        case .attempt(let call):
            return [.perform(call)]
        case .perform(let call):
            let current = complexity(of: call)
            return legal.map { ($0, complexity(of: $0)) }
                .filter { $0.1 < current }
                .sorted { $0.1 < $1.1 }
                .prefix(Shrinker.alternativesPerStep)
                .map { .perform($0.0) }
        }
    }

    /// Counts below `n`, smallest first: 1, 2, ... up to 8, then halves and n - 1.
    static func smallerCounts(_ n: Int) -> [Int] {
        guard n > 1 else { return [] }
        var counts = Array(1..<min(n, 9))
        var half = n / 2
        while half > 8 { counts.append(half); half /= 2 }
        if n - 1 > 8 { counts.append(n - 1) }
        return Array(Set(counts)).sorted()
    }

    /// Seeds simpler than `seed`, simplest first: 0 to 7, then halvings and `seed - 1`.
    static func smallerSeeds(than seed: Int64) -> [Int64] {
        var seeds: [Int64] = Array(0...7)
        var half = seed / 2
        while half.magnitude > 7 { seeds.append(half); half /= 2 }
        seeds.append(seed > 0 ? seed - 1 : seed + 1)
        return Array(Set(seeds)).filter { seedIsSimpler($0, than: seed) }.sorted { seedIsSimpler($0, than: $1) }
    }

    private static func seedIsSimpler(_ a: Int64, than b: Int64) -> Bool {
        a.magnitude != b.magnitude ? a.magnitude < b.magnitude : (a >= 0 && b < 0)
    }

    // MARK: The order

    /// The shrinker's order ("shortlex"): fewer steps; then, at the first
    /// step that differs, the simpler step (`stepRank`); then the smaller seed.
    /// Every kept candidate is simpler than the last, so shrinking ends.
    static func isSimpler(_ a: FuzzProgram, than b: FuzzProgram) -> Bool {
        if a.steps.count != b.steps.count { return a.steps.count < b.steps.count }
        for (x, y) in zip(a.steps, b.steps) where x != y {
            let (rx, ry) = (stepRank(x), stepRank(y))
            if rx.kind != ry.kind { return rx.kind < ry.kind }
            if rx.count != ry.count { return rx.count < ry.count }
            return rx.call < ry.call
        }
        return seedIsSimpler(a.seed, than: b.seed)
    }

    /// How simple a step is: by kind (undo, redo, perform, attempt, undo
    /// turn, undo last turn), then by its count or its call's complexity.
    private static func stepRank(_ step: FuzzStep) -> (kind: Int, count: Int, call: String) {
        switch step {
        case .undo(let n): return (0, n, "")
        case .redo(let n): return (1, n, "")
        case .perform(let call): return (2, 0, complexity(call))
        case .attempt(let call): return (3, 0, complexity(call))
        case .undoTurn: return (4, 0, "")
        case .undoLastTurn: return (5, 0, "")
        }
    }

    /// A total order on calls: fewer params, shorter text, then alphabetical.
    /// The counts are zero-padded (3 and 6 digits, as `%03d%06d` writes
    /// them) so that the strings compare as the numbers do; written by hand:
    /// a mending sorts every legal call, and `String(format:)` cost more
    /// than the comparison.
    static func complexity(_ call: ActionCall) -> String {
        let text = call.description
        return padded(call.params.count, 3) + padded(text.count, 6) + text
    }

    /// `complexity(call)`, made once for each call of a shrink: a mending
    /// sorts the legal calls of a state, and one state's come back again
    /// and again (a call is hashed in a tenth of the time its text is made).
    private mutating func complexity(of call: ActionCall) -> String {
        if let known = complexities[call] { return known }
        if complexities.count >= Shrinker.complexitiesKept { complexities = [:] }
        let made = Shrinker.complexity(call)
        complexities[call] = made
        return made
    }

    /// The most complexities `complexity(of:)` keeps.
    static let complexitiesKept = 20_000

    /// `n`'s digits, zeros before them up to `width` (none cut off).
    private static func padded(_ n: Int, _ width: Int) -> String {
        let digits = String(n)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
