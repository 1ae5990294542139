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
extension Fuzzer {
    /// The most nodes the searches after one finding walk in all: a few
    /// seconds at the kernel's speed, a few dozen chess prefixes walked 3
    /// moves deep. A timed session's end stops them sooner.
    public static let shorterEndingNodes = 1_000_000

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
        var nodesPerSearch = Fuzzer.shortestLineNodes
        var nodes = Fuzzer.shorterEndingNodes
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
    func shorterEnding(of report: Report, budget: inout EndingBudget) -> Report? {
        let steps = report.shrunk.steps
        guard Fuzzer.walkSees(report.finding.property) else { return nil }
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
}
