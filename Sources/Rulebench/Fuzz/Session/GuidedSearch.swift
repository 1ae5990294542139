import Foundation

/// The guided search's choice of runs (`SearchStrategy.guided`).
///
/// Uniform random games rarely take a line of play that only one move in
/// forty starts, and they never know that they have not. Two things guide
/// this search. Within a run, every step is chosen rare kinds first (the
/// kernel's choice, `Kernel.RunRequest.favoursRareKinds`): a kind of move
/// never played in the session is played as soon as the rules offer it.
/// Between runs, it keeps every run that reached line-to-line edges of the
/// pack's Lua that no earlier run had (the kernel counts them in the runs
/// that collect coverage), with the steps where it did (its frontier), and
/// builds on those: a probe replays a kept run up to a new frontier and
/// tries every legal action there, with its undo checked; other runs
/// replay a kept run up to its frontier and go on, change one action's
/// params there, or join the start of one kept run to the end of another.
/// Most runs are fresh games, and over half of those are *swarm* runs
/// that leave out a random subset of the kinds played so far (so that a
/// common kind does not crowd out the rest, and a resource such as a card
/// is kept for a kind not seen yet). Every choice comes from the session's
/// seed, so a session runs the same way twice.
struct GuidedSearch {
    /// A program kept for reaching new edges.
    struct Kept {
        var program: FuzzProgram
        /// The edges it reached first.
        var newEdges: Int
        /// The steps at which it reached them: the frontier runs build on.
        var frontier: [Int]
        /// How often it was built on (the least built-on are preferred).
        var picked = 0
    }

    /// What to run next: the program's game (and any given steps) and the request.
    struct Run {
        var start: FuzzProgram
        var request: Kernel.RunRequest
        /// What kind of run it is (for the session's counts).
        var kind: Kind
    }

    /// The kinds of run.
    enum Kind: String, CaseIterable {
        case fresh, swarm, extend, otherParams = "other params", splice
        /// A kept program's start up to its frontier, then every line of
        /// play one or two moves deep from there (`Explorer`).
        case probe
    }

    /// The kept programs, oldest first.
    private(set) var corpus: [Kept] = []
    /// Probes not yet run: each new frontier is probed once, by the next
    /// probe runs (the legal moves a new branch offers are each tried there).
    private(set) var pending: [(program: FuzzProgram, cut: Int)] = []
    /// Pending probes at most; past it the oldest are dropped.
    let pendingCapacity = 64
    /// Kept programs at most; past it, the one that reached the fewest new edges goes.
    let capacity = 256
    private var random: FuzzRandom
    /// Steps per run at most.
    let depth: Int
    /// Fresh runs so far (one in eight collects coverage).
    private var freshRuns = 0

    /// Every run collects coverage (the session writes an LCOV report).
    let coversEveryRun: Bool

    init(seed: UInt64, depth: Int, coversEveryRun: Bool = false) {
        self.coversEveryRun = coversEveryRun
        random = FuzzRandom(seed: seed ^ 0x6775_6964_6564_2121)
        self.depth = max(1, depth)
    }

    /// The next run. `newGame` is the fresh game the session would play now
    /// (its game seed and generator seed come from the run's index).
    ///
    /// Every run chooses its steps rare kinds first (`Kernel.RunRequest.favoursRareKinds`).
    /// Of a hundred runs, 40 are fresh games, 45 swarm runs, and 15 build
    /// on the corpus (4 probes, 6 extensions, 4 "other params", 1 splice).
    /// Coverage is collected in one fresh run in eight and in every run
    /// built on the corpus, the runs whose edges the search uses: the line
    /// hook doubles the cost of a step, and measured on the planted bugs,
    /// runs without it found the rare paths sooner for the time spent.
    mutating func next(newGame: FuzzProgram, choiceSeed: UInt64) -> Run {
        var request = Kernel.RunRequest(program: nil, choiceSeed: choiceSeed, depth: depth, rewindAtEnd: true)
        request.favoursRareKinds = true
        request.collectsCoverage = true
        let roll = random.below(100)
        if corpus.isEmpty || roll < 40 {
            freshRuns += 1
            request.collectsCoverage = coversEveryRun || freshRuns % 8 == 1
            return Run(start: newGame, request: request, kind: .fresh)
        }
        if roll < 85 {
            request.leavesOutKinds = true
            request.collectsCoverage = coversEveryRun
            return Run(start: newGame, request: request, kind: .swarm)
        }
        if roll < 89 {
            if !pending.isEmpty {
                let (program, cut) = pending.removeFirst()
                return probe(program, upTo: cut)
            }
            let base = pick()
            return probe(base.program, upTo: cutPoint(base))
        }
        let base = pick()
        let start = base.program
        let steps = base.program.steps
        let cut = cutPoint(base)
        request.checkLegality = true
        if roll < 95 {
            request.program = Array(steps.prefix(cut))
            return Run(start: start, request: request, kind: .extend)
        }
        if roll < 99, case .perform(let call)? = steps.indices.contains(cut - 1) ? steps[cut - 1] : nil {
            request.program = Array(steps.prefix(cut))
            request.anyLegalCall = (cut - 1, call.name)
            return Run(start: start, request: request, kind: .otherParams)
        }
        // Splice: this program's start, then another kept program's end, of
        // the same game; steps that became illegal end the run as invalid.
        let others = corpus.indices.filter { corpus[$0].program.seed == start.seed }
        let other = corpus[others[random.below(others.count)]].program.steps
        let from = random.below(max(1, other.count))
        request.program = Array((steps.prefix(cut) + other.dropFirst(from)).prefix(depth))
        return Run(start: start, request: request, kind: .splice)
    }

    /// A probe: `program`'s first `cut` steps replayed (each still legal),
    /// with no rewind, so the session can walk every line from where they end.
    private func probe(_ program: FuzzProgram, upTo cut: Int) -> Run {
        var request = Kernel.RunRequest(program: Array(program.steps.prefix(cut)), depth: cut, checkLegality: true)
        request.collectsCoverage = true
        return Run(start: program, request: request, kind: .probe)
    }

    /// Keeps a run that reached new edges (and was a game a player could play).
    mutating func observe(_ program: FuzzProgram, _ result: FuzzExecutor.Result) {
        guard result.newEdges > 0, result.valid, result.finding == nil, !program.steps.isEmpty else { return }
        if corpus.count >= capacity, let weakest = corpus.indices.min(by: { corpus[$0].newEdges < corpus[$1].newEdges }) {
            corpus.remove(at: weakest)
        }
        corpus.append(Kept(program: program, newEdges: result.newEdges, frontier: result.novelSteps))
        // Probe each new frontier: the state before the step (where `legal`
        // first showed the new branch) and after it (where it first ran).
        for step in result.novelSteps where step > 0 {
            pending.append((program, step))
            if step + 1 <= program.steps.count { pending.append((program, step + 1)) }
        }
        if pending.count > pendingCapacity { pending.removeFirst(pending.count - pendingCapacity) }
    }

    /// Where to cut a kept program: mostly at its frontier, just before a
    /// step that reached new edges (the legal enumeration there may have
    /// shown a new branch) or just after it (the step itself was new);
    /// sometimes anywhere. At least one step.
    private mutating func cutPoint(_ kept: Kept) -> Int {
        let count = kept.program.steps.count
        if !kept.frontier.isEmpty && random.below(5) != 0 {
            let step = kept.frontier[random.below(kept.frontier.count)]
            return min(count, max(1, step + random.below(2)))
        }
        return 1 + random.below(max(1, count))
    }

    /// A kept program, the less built-on of two drawn at random.
    private mutating func pick() -> Kept {
        let a = random.below(corpus.count), b = random.below(corpus.count)
        let chosen = corpus[a].picked <= corpus[b].picked ? a : b
        corpus[chosen].picked += 1
        return corpus[chosen]
    }
}
