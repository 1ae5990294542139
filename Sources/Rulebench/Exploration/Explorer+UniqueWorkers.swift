/// `explore --unique --jobs N`: the walk of distinct states (`distinctBound`)
/// spread over a `WorkerPool`, one depth at a time.
///
/// The states of a depth are cut into batches, handed out in order; each
/// worker, in a game of its own made by the walk's recipe, writes a state's
/// plain copy over its game, performs each legal action (checked), undoes it
/// (strictly verified) and says which state it reached (Kernel/unique.lua,
/// `uniquechildren`). The caller merges the children in the order one
/// worker meets them, batch after batch, state after state, action after
/// action, into the one table of the next depth's states.
///
/// The invariant: the counts per depth (sequences and distinct states) are
/// those of the one-worker walk (Kernel/unique.lua): the merge keeps its
/// order and its rules (a state's sequences are the sum over the actions
/// reaching it, saturating; the bound is checked where it checks it). A walk
/// that fails anywhere (a rule's error, an undo that does not restore, the
/// bound) is walked again on one worker, in the walk's own game, so that
/// the failure reported, and its path, are the one-worker walk's.
extension Explorer {
    /// At most this many states go to a worker at a time (fewer when the
    /// depth is small, so that every worker has several batches).
    static let uniqueBatchLimit = 32

    /// `run` with `distinctBound` over `pool.workers` workers, each walking
    /// in a game from `makeGame` (called on the worker's thread, once per
    /// worker and depth; it must give the state this walk's `game` is in).
    /// `progress` hears the counts after each depth; `shouldStop` is polled
    /// between batches, and a stopped walk returns the depths it finished.
    public func runDistinct(on pool: WorkerPool, makeGame: @escaping @Sendable () throws(RulebenchError) -> Game,
                            shouldStop: @escaping @Sendable () -> Bool = { false },
                            progress: (Counts) -> Void = { _ in }) throws(ExplorationFailure) -> Counts {
        guard let bound = distinctBound else { preconditionFailure("runDistinct walks distinct states: set distinctBound") }
        let start: Kernel.SolveState
        do { start = try game.kernel.solveStart().state } catch { throw ExplorationFailure(path: [], error: error) }
        var levels = UniqueLevels(start: start, bound: bound)
        while levels.sequences.count < depth, !levels.layer.isEmpty, !shouldStop() {
            guard let shares = expand(levels.layer, last: levels.sequences.count + 1 == depth, on: pool, makeGame: makeGame,
                                      shouldStop: shouldStop) else { break }
            // A failure (or the bound): the one-worker walk says what and
            // where; unless the walk is being stopped (a stop request also
            // ends a worker's call): then the depths finished are the answer.
            guard let shares, levels.merge(shares) else {
                if shouldStop() { break }
                return try run(shouldStop: shouldStop, progress: progress)
            }
            progress(levels.counts)
        }
        return levels.counts
    }

    /// The children of every state of `layer`, in order, expanded by the
    /// pool's workers: nil when the walk was stopped first, .some(nil) when
    /// a worker failed (or its game could not be made).
    private func expand(_ layer: [UniqueLevels.Open], last: Bool, on pool: WorkerPool,
                        makeGame: @escaping @Sendable () throws(RulebenchError) -> Game,
                        shouldStop: @escaping @Sendable () -> Bool) -> [[Kernel.Expansion]]?? {
        let size = max(1, min(Self.uniqueBatchLimit, layer.count / (pool.workers * 8)))
        let batches = stride(from: 0, to: layer.count, by: size).map { Array(layer[$0..<min($0 + size, layer.count)].map(\.state)) }
        let failed = StopFlag()
        let results = pool.map(
            count: batches.count,
            makeWorker: { _ in Result { () throws(RulebenchError) in try makeGame() } },
            shouldStop: { shouldStop() || failed.isSet },
            body: { made, index -> [Kernel.Expansion]? in
                let children = try? made.get().kernel.uniqueChildren(of: batches[index], last: last)
                if children == nil { failed.set() }
                return children
            })
        let shares = results.compactMap { $0 }
        if failed.isSet || shares.count < results.count { return .some(nil) }
        return shares.count == batches.count ? shares : nil
    }
}


/// The distinct states of `explore --unique --jobs N`, a depth at a time:
/// the depth being expanded, the counts of those finished, and the merge of
/// a depth's children by Kernel/unique.lua's rules.
struct UniqueLevels {
    /// A state of the depth being expanded: its copy and the number of
    /// sequences that reach it.
    struct Open {
        let state: Kernel.SolveState
        var paths: Int
    }

    let bound: Int
    /// The states of the depth to expand next, in the order they were first met.
    private(set) var layer: [Open]
    /// New states kept over all depths, against `bound`.
    private var kept = 0
    private(set) var sequences: [Int] = []
    private var distinct: [Int] = []
    /// Per depth expanded (from 0): the sequences ending at a finished state (no legal call, or a goal reached), and those states.
    private var finished: [Int] = [], endings: [Int] = []

    init(start: Kernel.SolveState, bound: Int) {
        self.bound = bound
        layer = [Open(state: start, paths: 1)]
    }

    /// The counts of the depths finished, as `Explorer.run` gives them.
    var counts: Explorer.Counts {
        var counts = Explorer.Counts(nodes: sequences, distinct: distinct, finished: finished, endings: endings)
        counts.endAtFirstEmptyLevel()
        counts.distinct = Array(distinct.prefix(counts.nodes.count))
        return counts
    }

    /// Merges the children of every state of the layer (`shares`: per
    /// batch, per state, whether it is finished and, per action, the state an action reaches, by its
    /// hash, and its plain copy, empty at the walk's last depth and when the
    /// same hash came earlier in the worker's call), which become the next
    /// layer. False
    /// when the bound is reached (unique.lua's check: before a new state,
    /// the states kept plus the distinct children of the state being
    /// expanded, new or not, reach the bound).
    mutating func merge(_ shares: [[Kernel.Expansion]]) -> Bool {
        var next: [Open] = [], at: [UInt64: Int] = [:]
        var parents = layer.makeIterator()
        var ended = (sequences: 0, states: 0)
        for expansion in shares.joined() {
            let children = expansion.children
            guard let parent = parents.next() else { return false }
            if expansion.finished { ended = (Self.add(ended.sequences, parent.paths), ended.states + 1) }
            var born: Set<UInt64> = [], new = 0
            for child in children {
                if let index = at[child.key] {
                    next[index].paths = Self.add(next[index].paths, parent.paths)
                } else {
                    if kept + born.count >= bound { return false }
                    at[child.key] = next.count
                    next.append(Open(state: child, paths: parent.paths))
                    new += 1
                }
                born.insert(child.key)
            }
            kept += new
        }
        finished.append(ended.sequences)
        endings.append(ended.states)
        sequences.append(next.reduce(0) { Self.add($0, $1.paths) })
        distinct.append(next.count)
        layer = next
        return true
    }

    /// Sequences grow exponentially: saturate, never wrap (unique.lua's `add`).
    static func add(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : sum
    }
}
