/// The breadth-first search for a finding's shortest line of play, after
/// the shrinker: every line of legal actions from the reproduction's setup,
/// one action deeper at a time (iterative deepening with `Explorer`, each
/// perform and undo checked, inside the kernel), until a line fails at the
/// same place (`FindingKey.admits`) or the reproduction's own length is
/// reached.
///
/// What it proves: a reproduction fails at a state some line of performs
/// from its setup reaches (undo and redo steps only revisit states, and
/// attempts change nothing), and the walk checks every perform and the undo
/// of every action on every line up to its depth. So when every depth
/// below the reproduction's length was walked whole and nothing failed
/// there, no reproduction from that setup is shorter: `shortest`. A walk
/// cut short (its node limit, the session's time, a signal) or stopped by
/// another bug proves nothing, and the shrinker's status stands. It applies
/// to the findings the walk can see: a broken undo, a failing action, a
/// broken invariant; the rest keep their status. It assumes, as every
/// verdict of the fuzzer does, that rules keep their state in `game`.
struct ShortestLine: MinimizerPass {
    let phase = ", looking for a shorter line"

    func applies(to report: Minimization, in work: Minimizer.Work) -> Bool { true }

    func minimize(_ report: Minimization, in work: Minimizer.Work, by minimizer: Minimizer) -> Minimization {
        work.observe(report.shrunk.steps.count, phase)
        return minimizer.shortestLine(report, stop: work.budget.searchesStop)
    }
}

extension Minimizer {
    /// The most nodes (perform and undo pairs) one search walks: a second
    /// or two at the kernel's speed.
    static let shortestLineNodes = 200_000

    /// How a deepening search ended.
    enum Deepening {
        /// A line of this many actions (the path) failed, and no shorter line did.
        case failed([ActionCall])
        /// No line shorter than the limit fails; `proven` unless the walk was cut short.
        case passed(proven: Bool)
    }

    /// Every line of legal actions from `start` (its setup, then its steps
    /// played as a program from a fresh game, as the shrinker's candidates
    /// are: `shorterEnding`'s prefixes), one action deeper at a time, up to
    /// `limit - 1` actions, until one fails (a perform, or the undo of its
    /// last action). Cut short by `nodeLimit` or `stop`. `walked` grows by
    /// the nodes walked (by the size expected of a depth that failed).
    func deepen(from start: FuzzProgram, below limit: Int, nodeLimit: Int = Minimizer.shortestLineNodes,
                walked: inout Int, stop: @escaping () -> Bool) -> Deepening {
        var nodes: [Int] = []
        var walkedHere = 0
        defer { walked += walkedHere }
        for depth in 1..<max(1, limit) {
            var expected = 0
            if let last = nodes.last {
                let previous = nodes.count > 1 ? nodes[nodes.count - 2] : 1
                expected = last * last / max(1, previous) * 2
                if walkedHere + expected > nodeLimit { return .passed(proven: false) }
            }
            guard !stop(), let game = replayed(start) else { return .passed(proven: false) }
            do {
                let counts = try Explorer(game: game, depth: depth).run(shouldStop: stop)
                if stop() { return .passed(proven: false) }   // a walk stopped between subtrees is not whole
                nodes = counts.nodes
                walkedHere += counts.total
                if counts.nodes.count < depth || counts.nodes.last == 0 { break }   // no line is this long
            } catch {
                walkedHere += expected
                return .failed(error.path)
            }
        }
        return .passed(proven: true)
    }

    /// `deepen` without the count of nodes walked.
    func deepen(from start: FuzzProgram, below limit: Int, nodeLimit: Int = Minimizer.shortestLineNodes,
                stop: @escaping () -> Bool) -> Deepening {
        var walked = 0
        return deepen(from: start, below: limit, nodeLimit: nodeLimit, walked: &walked, stop: stop)
    }

    /// A game of `start`'s setup after its steps, played from a fresh game
    /// with every perform checked against `legal`; nil when they do not
    /// play through (illegal, or a finding on the way).
    private func replayed(_ start: FuzzProgram) -> Game? {
        guard let game = try? executor.newGame(start) else { return nil }
        guard !start.steps.isEmpty else { return game }
        let request = Kernel.RunRequest(program: start.steps, checkLegality: true)
        guard let reply = try? game.play(request), reply.valid, reply.finding == nil else { return nil }
        return game
    }

    /// The length of the shortest program that fails with `property` from
    /// any of `seeds` (the shortest line of actions, by `deepen`; a broken
    /// undo counts the performs alone, as the end-of-run rewind undoes
    /// them), or nil when none is found within `limit` actions and the
    /// node limit. For measuring the shrinker (the bench's time to detect).
    func shortestFailingLine(_ property: FuzzFinding.Property, pack: String, options: [String: StateValue], seeds: [Int64],
                             limit: Int, nodeLimit: Int) -> (length: Int, seed: Int64, proven: Bool)? {
        var best: (length: Int, seed: Int64, proven: Bool)?
        for seed in seeds {
            let start = FuzzProgram(pack: pack, seed: seed, options: options)
            switch deepen(from: start, below: min(limit, best?.length ?? limit) + 1, nodeLimit: nodeLimit, stop: { false }) {
            case .failed(let path):
                // Another bug first: this seed proves nothing about the length.
                guard let (program, _) = failing(along: path, from: start, as: { $0.property == property }) else {
                    best?.proven = false
                    continue
                }
                if best.map({ program.steps.count < $0.length }) ?? true { best = (program.steps.count, seed, best?.proven ?? true) }
            case .passed(let proven):
                if !proven { best?.proven = false }
            }
        }
        return best
    }

    /// The shortest program along a failing walk's path (`start`'s steps,
    /// the path's performs, then the undo of the last when the undo is what
    /// failed) that fails as `matches` asks, with its result.
    func failing(along path: [ActionCall], from start: FuzzProgram,
                 as matches: (FuzzFinding) -> Bool) -> (FuzzProgram, FuzzExecutor.Result)? {
        let performs = start.steps + path.map { FuzzStep.perform($0) }
        for steps in [performs, performs + [.undo(1)]] {
            var program = start
            program.steps = steps
            let result = reportingExecutor.execute(program, checkLegality: true, finalChecks: true)
            if result.valid, let finding = result.finding, matches(finding) { return (program, result) }
        }
        return nil
    }

    /// `report` with a shorter reproduction when the search finds one, and
    /// the status `shortest` when it proves none is shorter. `stop` ends
    /// the walk between subtrees (the session's time, a signal).
    func shortestLine(_ report: Minimization, stop: @escaping () -> Bool) -> Minimization {
        guard Minimizer.walkSees(report.finding.property), report.shrunk.steps.count > 1 else { return report }
        let start = FuzzProgram(pack: report.shrunk.pack, seed: report.shrunk.seed, options: report.shrunk.options)
        switch deepen(from: start, below: report.shrunk.steps.count, stop: stop) {
        case .failed(let path):
            // Another bug first proves nothing about this one.
            guard let (program, result) = failing(along: path, from: start, as: report.key.admits),
                  program.steps.count < report.shrunk.steps.count, let finding = result.finding else { return report }
            var found = report
            (found.shrunk, found.finding, found.outcomes) = (program, finding, result.outcomes)
            found.shrinkStatus = .shortest
            return found
        case .passed(let proven):
            var judged = report
            if proven { judged.shrinkStatus = .shortest }
            return judged
        }
    }
}
