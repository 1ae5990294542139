// `explore --divide`: a walk split at its first action, one subtree at a
// time (see `DividedCounts` for the invariant its counts keep).

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
        let finished: Bool
        do {
            first = try game.legalActions()
            finished = try Self.isFinished(game, legal: first)
        } catch { throw ExplorationFailure(path: [], error: error) }
        var result = DividedCounts(counts: Counts(nodes: []), byFirstAction: [])
        result.counts.add(0, at: 0)
        if finished { result.counts.finish(1, at: 0, in: [game.stateHash]) }
        for (index, call) in first.enumerated() where !shouldStop() {
            let below = try subtree(after: call, shouldStop: shouldStop)
            result.add(call, below: below, depth: depth)
            progress(index + 1, first.count, result.counts.total)
        }
        result.counts.endAtFirstEmptyLevel()
        result.counts.settleEndings(depth: depth)
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
