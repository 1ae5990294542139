// The search for a shorter ending of a reproduction, after the shrinker and
// the whole-line search: from each prefix of the reproduction, a bounded
// breadth-first search for a shorter way to fail the same way. Invariant: a
// reproduction it returns is shorter than the one it was given, plays
// legally from a fresh game and fails at the same place (`FindingKey.admits`);
// it never claims `shortest` (only the whole-line search proves that).

/// Why it exists: the shrinker deletes, swaps and mends the steps of the
/// line the fuzzer happened to play, so a line that reaches the bug by a
/// detour (a king reached by a long route) stays as long as the detour when
/// no single edit shortens it; and the whole-line search from the setup
/// (`shortestLine`) cannot reach chess depths of 6 or more within its
/// nodes. Searching from each prefix needs only the few actions after it:
/// after the first k steps of a reproduction of n, every line of at most
/// n - k - 1 actions, one action deeper at a time (`deepen`, each perform
/// and undo checked), the cheapest prefixes (the longest) first. The first
/// line that fails the same way and makes a shorter program replaces the
/// reproduction; the shrinker runs on it again and the search starts over,
/// until no prefix gives a shorter one or the budget is spent.
///
/// A prefix is played as a program from a fresh game, undo, redo and
/// attempt steps included, as the shrinker judges its candidates; the
/// ending is performs, then an undo of the last when the undo is what
/// failed (`failing(along:from:as:)`).
struct ShorterEnding: MinimizerPass {
    let phase = ", looking for a shorter ending"

    /// Only a reproduction no search has proven the shortest.
    func applies(to report: Minimization, in work: Minimizer.Work) -> Bool { report.shrinkStatus != .shortest }

    func minimize(_ report: Minimization, in work: Minimizer.Work, by minimizer: Minimizer) -> Minimization {
        let (budget, stop) = (work.budget, work.budget.searchesStop)
        var nodes = Minimizer.EndingBudget(nodes: Minimizer.endingNodes(shrinkCandidates: minimizer.shrinkBudget), stop: stop)
        var shorter = minimizer.shortenedEndings(report, budget: &nodes, until: budget.end, clock: budget.clock,
                                                 shouldStop: budget.shouldStop, observe: { work.observe($0, phase) })
        // Shorter now, the whole-line search may reach the length and prove it.
        if shorter.shrunk.steps.count < report.shrunk.steps.count { shorter = minimizer.shortestLine(shorter, stop: stop) }
        return shorter
    }
}

extension Minimizer {
    /// The most nodes the searches after one finding walk in all: a few
    /// seconds at the kernel's speed, a few dozen chess prefixes walked 3
    /// moves deep. A timed session's end stops them sooner.
    static let shorterEndingNodes = 1_000_000

    /// The nodes in all for a session whose shrinks may run `candidates`
    /// candidates: 50 a candidate (a chess candidate of a dozen steps costs
    /// about as much as 50 nodes walked), at most `shorterEndingNodes`. The
    /// default budget gives the most; a session that barely shrinks (a
    /// test's `shrinkBudget` of 1) walks next to nothing.
    static func endingNodes(shrinkCandidates candidates: Int) -> Int {
        min(shorterEndingNodes, max(0, candidates) * 50)
    }

    /// What the search for shorter endings may spend: nodes per prefix
    /// searched, nodes in all, and a stop (the session's time, a signal).
    struct EndingBudget {
        var nodesPerSearch = Minimizer.shortestLineNodes
        var nodes = Minimizer.shorterEndingNodes
        var stop: () -> Bool = { false }
        /// Nodes walked so far.
        var walked = 0

        var isSpent: Bool { walked >= nodes || stop() }
        /// The node limit of the next search.
        var nextLimit: Int { min(nodesPerSearch, nodes - walked) }
    }

    /// Whether the walk of every line can see `property` fail (a broken
    /// undo, a failing action, a broken invariant): the findings the
    /// breadth-first searches look for.
    static func walkSees(_ property: FuzzFinding.Property) -> Bool {
        [.undoRestores, .invariantsHold, .legalIsAllowed].contains(property)
    }

    /// A reproduction of `report`'s bug shorter than its own, made of a
    /// prefix of it and a new ending; nil when no prefix gives one within
    /// `budget`.
    func shorterEnding(of report: Minimization, budget: inout EndingBudget) -> Minimization? {
        let steps = report.shrunk.steps
        guard Minimizer.walkSees(report.finding.property) else { return nil }
        // The prefix of all steps but one leaves nothing to search: n - 2 is the first.
        for kept in stride(from: steps.count - 2, through: 0, by: -1) {
            guard !budget.isSpent else { return nil }
            var prefix = report.shrunk
            prefix.steps = Array(steps[..<kept])
            let stop = budget.stop
            let outcome = deepen(from: prefix, below: steps.count - kept, nodeLimit: budget.nextLimit,
                                 walked: &budget.walked, stop: stop)
            guard case .failed(let path) = outcome,
                  let (program, result) = failing(along: path, from: prefix, as: report.key.admits),
                  program.steps.count < steps.count, let finding = result.finding else { continue }
            var shorter = report
            (shorter.shrunk, shorter.finding, shorter.outcomes) = (program, finding, result.outcomes)
            return shorter
        }
        return nil
    }

    /// `report` with ever shorter endings (`shorterEnding`) until no prefix
    /// gives a shorter one, then shrunk again (a new ending may let steps
    /// of the prefix go) and searched again while that helps, until
    /// `budget` is spent or `end` passes on `clock`. The endings come
    /// first: a search of a few prefixes costs less than a shrink, and
    /// gains more. The status is the last shrink's (`1-minimal`, or cut
    /// short), or says what stopped the work when a new ending was not
    /// shrunk.
    func shortenedEndings(_ report: Minimization, budget: inout EndingBudget, until end: Double?,
                          clock: @escaping Minimizer.Clock, shouldStop: () -> Bool, observe: (Int) -> Void) -> Minimization {
        var best = report
        var unshrunk = false   // a new ending the shrinker has not seen
        while true {
            if let shorter = shorterEnding(of: best, budget: &budget) {
                observe(shorter.shrunk.steps.count)
                (best, unshrunk) = (shorter, true)
                continue
            }
            let left = shrinkBudget - best.shrinkAttempts
            let timeLeft = end.map { $0 - clock() }
            guard unshrunk, left > 0, timeLeft.map({ $0 > 0 }) ?? true, !shouldStop() else { break }
            let again = shrink(best.shrunk, best.finding, budget: left,
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
}
