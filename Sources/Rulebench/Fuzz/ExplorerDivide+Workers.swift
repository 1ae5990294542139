/// The divided walk (`runDivided`) on a `WorkerPool`: the subtrees below
/// the first actions are independent, so each worker walks whole subtrees in
/// a game of its own, made by the same recipe as the walk's game (same pack,
/// options and seed, hence the same first actions).
///
/// The invariant: the counts, the per-action counts and, when a walk fails,
/// the failure reported are those of the one-worker walk. Subtrees are taken
/// in legal order and summed in that order; after a failure no new subtree
/// starts, but those before it finish, so the first failure in legal order
/// is the one reported, as one worker meets it first.
extension Explorer {
    /// `runDivided` over `pool.workers` workers, each walking in a game from
    /// `makeGame` (called once per worker, on its thread; it must give the
    /// state this walk's `game` is in). `progress` hears subtrees in legal order.
    public func runDivided(on pool: WorkerPool, makeGame: @escaping @Sendable () throws(RulebenchError) -> Game,
                           shouldStop: @escaping @Sendable () -> Bool = { false },
                           progress: @escaping @Sendable (_ done: Int, _ of: Int, _ counted: Int) -> Void = { _, _, _ in })
        throws(ExplorationFailure) -> DividedCounts {
        precondition(distinctBound == nil, "a divided walk does not count distinct states")
        let first: [ActionCall]
        do { first = try game.legalActions() } catch { throw ExplorationFailure(path: [], error: error) }
        let depth = depth
        let failed = StopFlag()
        let counted = RunningTotal()
        let results = pool.map(
            count: first.count,
            makeWorker: { _ in Result { () throws(RulebenchError) in try makeGame() } },
            shouldStop: { shouldStop() || failed.isSet },
            completed: { index, result in
                if case .success(let below) = result { progress(index + 1, first.count, counted.add(1 + below.total)) }
            },
            body: { made, index -> Result<Counts, ExplorationFailure> in
                let outcome = made.mapError { ExplorationFailure(path: [], error: $0) }.flatMap { game in
                    Result { () throws(ExplorationFailure) in try Explorer(game: game, depth: depth).subtree(after: first[index], shouldStop: shouldStop) }
                }
                if case .failure = outcome { failed.set() }
                return outcome
            })
        var result = DividedCounts(counts: Counts(nodes: []), byFirstAction: [])
        result.counts.add(0, at: 0)
        for (call, outcome) in zip(first, results) {
            let below = try outcome.get()
            result.add(call, below: below, depth: depth)
        }
        result.counts.endAtFirstEmptyLevel()
        return result
    }
}
