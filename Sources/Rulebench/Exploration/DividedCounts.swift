/// A walk split at its first action, as perft tools "divide": each legal
/// first action is performed, the tree below it walked `depth - 1` deep by
/// an `Explorer`, and the action undone (verified, as every undo of a walk).
///
/// The invariant it keeps: the counts are those of `Explorer.run` over the
/// same game and depth (one walk, cut into subtrees), and the per-action
/// counts of sequences of length `depth` sum to its last level. Walking one
/// subtree at a time is also what lets `explore` say how far it has come.
public struct DividedCounts: Sendable {
    /// The whole walk's counts, as `Explorer.run` gives them.
    public var counts: Explorer.Counts
    /// Each first action, in legal order, with how many sequences of length
    /// `depth` begin with it (the sequence itself when the depth is 1).
    public var byFirstAction: [(call: ActionCall, count: Int)]

    /// Adds the subtree below first action `call`, `depth - 1` deep.
    mutating func add(_ call: ActionCall, below: Explorer.Counts, depth: Int) {
        counts.add(1, at: 0)
        counts.add(below, shiftedBy: 1)
        byFirstAction.append((call, depth == 1 ? 1 : below.nodes.indices.contains(depth - 2) ? below.nodes[depth - 2] : 0))
    }
}
