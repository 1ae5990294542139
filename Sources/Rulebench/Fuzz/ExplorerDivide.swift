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
        for (level, n) in below.nodes.enumerated() { counts.add(n, at: level + 1) }
        byFirstAction.append((call, depth == 1 ? 1 : below.nodes.indices.contains(depth - 2) ? below.nodes[depth - 2] : 0))
    }
}

extension Explorer {
    /// Walks the tree one first action at a time; `progress` hears after
    /// each of them: how many first actions are done, of how many, and the
    /// sequences counted so far. The walk stops between and within subtrees
    /// when `shouldStop` turns true; the game is back where it began either
    /// way. Without `distinctBound` only: distinct states are counted over
    /// the whole tree, which subtrees cannot add up.
    public func runDivided(shouldStop: () -> Bool = { false },
                           progress: (_ done: Int, _ of: Int, _ counted: Int) -> Void = { _, _, _ in })
        throws(ExplorationFailure) -> DividedCounts {
        precondition(distinctBound == nil, "a divided walk does not count distinct states")
        let first: [ActionCall]
        do { first = try game.legalActions() } catch { throw ExplorationFailure(path: [], error: error) }
        var result = DividedCounts(counts: Counts(nodes: []), byFirstAction: [])
        result.counts.add(0, at: 0)
        for (index, call) in first.enumerated() where !shouldStop() {
            let below = try subtree(after: call, shouldStop: shouldStop)
            result.add(call, below: below, depth: depth)
            progress(index + 1, first.count, result.counts.total)
        }
        result.counts.endAtFirstEmptyLevel()
        return result
    }

    /// The counts of the tree below `call`, `depth - 1` deep; `call` is
    /// performed first and undone after. A failure's path starts with `call`.
    func subtree(after call: ActionCall, shouldStop: () -> Bool) throws(ExplorationFailure) -> Counts {
        do { try game.perform(call) } catch { throw ExplorationFailure(path: [call], error: error) }
        var below = Counts(nodes: [])
        if depth > 1 {
            do {
                below = try Explorer(game: game, depth: depth - 1).run(shouldStop: shouldStop)
            } catch {
                game.unwind(to: game.history.cursor - 1)
                throw ExplorationFailure(path: [call] + error.path, error: error.error)
            }
        }
        do { try game.undo() } catch { throw ExplorationFailure(path: [call], error: error) }
        return below
    }
}
