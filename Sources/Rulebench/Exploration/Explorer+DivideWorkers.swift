/// The divided walk (`runDivided`) on a `WorkerPool`: the subtrees below
/// the first actions are independent, so each worker walks whole subtrees in
/// a game of its own, made by the same recipe as the walk's game (same pack,
/// options and seed, hence the same first actions), taking the next one in
/// order as soon as it is free. When there are fewer than
/// `subtreesPerWorker` first actions per worker (chess has 20), the walk is
/// cut one level lower, below each pair of first and second actions (chess:
/// 400), so that the workers stay busy to the end: subtrees differ in size
/// (chess at depth 5: 190,000 to 425,000 sequences below a first action),
/// and with 10 subtrees each, one of 2 workers waited for the other's last
/// one through 5-10% of the walk.
///
/// The invariant: the counts, the per-action counts and, when a walk fails,
/// the failure reported are those of the one-worker walk. Subtrees are taken
/// in the order the one-worker walk visits them and summed in that order;
/// after a failure no new subtree starts, but those before it finish, so the
/// first failure in that order is the one reported, as one worker meets it
/// first.
extension Explorer {
    /// Below this many first actions per worker, the walk is cut a level
    /// lower: a worker's last subtree is then at most a sixteenth or so of
    /// its share, which the other workers' last ones can make up for.
    static let subtreesPerWorker = 16

    /// `runDivided` over `pool.workers` workers, each walking in a game from
    /// `makeGame` (called once per worker, on its thread; it must give the
    /// state this walk's `game` is in). `progress` hears first actions in legal order.
    public func runDivided(on pool: WorkerPool, makeGame: @escaping @Sendable () throws(RulebenchError) -> Game,
                           shouldStop: @escaping @Sendable () -> Bool = { false },
                           progress: @escaping @Sendable (_ done: Int, _ of: Int, _ counted: Int) -> Void = { _, _, _ in })
        throws(ExplorationFailure) -> DividedCounts {
        precondition(distinctBound == nil, "a divided walk does not count distinct states")
        let first: [ActionCall]
        let finished: Bool
        do {
            first = try game.legalActions()
            finished = try Self.isFinished(game, legal: first)
        } catch { throw ExplorationFailure(path: [], error: error) }
        let paths = cut(below: first, workers: pool.workers)
        let depth = depth
        let failed = StopFlag()
        let counted = RunningTotal()
        let results = pool.map(
            count: paths.count,
            makeWorker: { _ in Result { () throws(RulebenchError) in try makeGame() } },
            shouldStop: { shouldStop() || failed.isSet },
            completed: { index, result in
                guard case .success(let below) = result else { return }
                let opensAction = index == 0 || paths[index - 1][0] != paths[index][0]
                let total = counted.add(below.total + paths[index].count - (opensAction ? 0 : 1))
                if index + 1 == paths.count || paths[index + 1][0] != paths[index][0] {
                    progress(first.firstIndex(of: paths[index][0]).map { $0 + 1 } ?? first.count, first.count, total)
                }
            },
            body: { made, index -> Result<Counts, ExplorationFailure> in
                let outcome = made.mapError { ExplorationFailure(path: [], error: $0) }.flatMap { game in
                    Result { () throws(ExplorationFailure) in try Explorer(game: game, depth: depth).walk(below: paths[index], shouldStop: shouldStop) }
                }
                if case .failure = outcome { failed.set() }
                return outcome
            })
        var result = DividedCounts(counts: Counts(nodes: []), byFirstAction: [])
        result.counts.add(0, at: 0)
        if finished { result.counts.finish(1, at: 0, in: [game.stateHash]) }
        var index = 0
        while index < results.count {
            // The subtree below one first action: its own, or its second actions' added up.
            let call = paths[index][0]
            var below = Counts(nodes: [])
            while index < results.count, paths[index][0] == call {
                let part = try results[index].get()
                if paths[index].count == 2 { below.add(1, at: 0) }
                below.add(part, shiftedBy: paths[index].count - 1)
                index += 1
            }
            result.add(call, below: below, depth: depth)
        }
        result.counts.endAtFirstEmptyLevel()
        result.counts.settleEndings(depth: depth)
        return result
    }

    /// The paths below which `workers` workers walk the tree, whose first
    /// actions are `first`: each first action, or each first and second
    /// action when that gives too few subtrees per worker (and the depth is
    /// at least 3, so that something is left to walk below a pair).
    func cut(below first: [ActionCall], workers: Int) -> [[ActionCall]] {
        depth >= 3 && first.count < Self.subtreesPerWorker * workers ? secondLevel(below: first) : first.map { [$0] }
    }

    /// The paths the walk is cut at when it goes a level lower: each first
    /// action with each action legal after it, in the order a walk visits
    /// them. A first action after which the game is finished (nothing is
    /// legal, or a goal holds), or whose perform,
    /// legal list or undo fails, stays whole, as do those after a failure:
    /// its worker meets the failure again in the one-walk order.
    private func secondLevel(below first: [ActionCall]) -> [[ActionCall]] {
        var paths: [[ActionCall]] = []
        let start = game.history.cursor
        for (offset, call) in first.enumerated() {
            do {
                try game.perform(call)
                let second = try game.legalActions()
                // A finished state (no call, or a goal reached) is walked whole: its walk counts it.
                let whole = try Self.isFinished(game, legal: second)
                try game.undo()
                paths += whole ? [[call]] : second.map { [call, $0] }
            } catch {
                game.unwind(to: start)
                return paths + first[offset...].map { [$0] }
            }
        }
        return paths
    }

    /// The counts below `path` (one first action, or a first and a second),
    /// `depth - path.count` deep; `path` is performed first and undone after.
    /// A failure's path starts with `path`.
    func walk(below path: [ActionCall], shouldStop: () -> Bool) throws(ExplorationFailure) -> Counts {
        guard path.count == 2 else { return try subtree(after: path[0], shouldStop: shouldStop) }
        do { try game.perform(path[0]) } catch { throw ExplorationFailure(path: [path[0]], error: error) }
        let below: Counts
        do {
            below = try Explorer(game: game, depth: depth - 1).subtree(after: path[1], shouldStop: shouldStop)
        } catch {
            game.unwind(to: game.history.cursor - 1)
            throw ExplorationFailure(path: [path[0]] + error.path, error: error.error)
        }
        do { try game.undo() } catch { throw ExplorationFailure(path: [path[0]], error: error) }
        return below
    }
}
