/// Visits every legal action sequence up to a depth, like perft in chess
/// engines: at each node it performs each legal action, walks on from there, and undoes
/// it (strictly verified), counting the nodes at each depth.
///
/// The top levels are walked here, through `Game`, so that `shouldStop` is
/// polled between subtrees; each subtree of at most `kernelDepth` levels is
/// walked inside the kernel in one call, with the same checks, because a
/// crossing per node would cost more than the node.
public struct Explorer {
    /// Subtrees this deep or shallower are walked inside the kernel.
    static let kernelDepth = 2
    /// The most finished states a walk of sequences keeps to count the
    /// distinct ones (a hash each); past it `endings` is a floor.
    static let endingBound = 1 << 20

    /// Counts of the walk.
    public struct Counts: Sendable {
        /// `nodes[d]` is the number of action sequences of length d + 1, one
        /// entry per length up to the depth. It ends early, with a 0, at the
        /// first length no sequence reaches (every longer length is 0 too),
        /// and it is shorter when the walk was stopped.
        public var nodes: [Int]
        /// With `distinctBound`: `distinct[d]` is the number of different
        /// states among the sequences of length d + 1 (equal state hashes
        /// are one state), one entry per entry of `nodes`.
        public var distinct: [Int]?
        /// `finished[d]` is the number of sequences of length d (from 0, the
        /// start) that end at a state with no legal call (a finished game),
        /// and `endings[d]` the distinct states they end at; one entry per
        /// depth whose states were all expanded (a walk `depth` deep expands
        /// depths 0 to `depth` - 1). Nil only from a walk stopped before it
        /// began.
        public var finished: [Int]?
        public var endings: [Int]?
        /// The walk of sequences: the states its finished games end at, by
        /// length (`endings` counts them), at most `Explorer.endingBound` in all.
        var endedAt: [Set<StateHash>] = []
        /// True when a finished game's state was not kept: `endings` is then a floor.
        public var endingsCapped = false
        /// Total perform+undo pairs.
        public var total: Int { nodes.reduce(0, +) }

        /// Counts `n` more sequences of length `level + 1`. The list grows
        /// as the walk reaches a level, never by the depth asked for: a
        /// depth of `Int.max` once allocated `Int.max` counters up front.
        mutating func add(_ n: Int, at level: Int) {
            while nodes.count <= level { nodes.append(0) }
            nodes[level] += n
        }

        /// Drops the lengths after the first one no sequence reaches, so the
        /// counts are the same whether a level was walked here or in the kernel.
        mutating func endAtFirstEmptyLevel() {
            if let empty = nodes.firstIndex(of: 0) { nodes.removeSubrange((empty + 1)...) }
        }

        /// `games` sequences of length `level` end at the finished states `states`.
        mutating func finish(_ games: Int, at level: Int, in states: some Sequence<StateHash>) {
            var list = finished ?? []
            while list.count <= level { list.append(0) }
            list[level] = list[level].addingReportingOverflow(games).overflow ? Int.max : list[level] + games
            finished = list
            while endedAt.count <= level { endedAt.append([]) }
            for state in states where !endedAt[level].contains(state) {
                guard endedAt.reduce(0, { $0 + $1.count }) < Explorer.endingBound else { endingsCapped = true; return }
                endedAt[level].insert(state)
            }
        }

        /// Adds the counts of a walk below `shift` more actions (a subtree's, a worker's part).
        mutating func add(_ below: Counts, shiftedBy shift: Int) {
            for (level, n) in below.nodes.enumerated() { add(n, at: level + shift) }
            for (level, games) in (below.finished ?? []).enumerated() {
                finish(games, at: level + shift, in: level < below.endedAt.count ? below.endedAt[level] : [])
            }
            endingsCapped = endingsCapped || below.endingsCapped
        }

        /// The walk of sequences is over (`depth` deep): `finished` and
        /// `endings` get an entry for each length whose states were all expanded.
        mutating func settleEndings(depth: Int) {
            let levels = min(depth, nodes.count)
            var list = Array((finished ?? []).prefix(levels))
            while list.count < levels { list.append(0) }
            finished = list
            endings = (0..<levels).map { $0 < endedAt.count ? endedAt[$0].count : 0 }
        }
    }

    /// The game walked; it is back where it was when `run` returns.
    public let game: Game
    /// The longest action sequences counted.
    public let depth: Int
    /// When set, distinct states are counted per depth too, by a walk
    /// that expands each distinct state of a depth once, keeping at most
    /// this many states in all (the walk fails past it).
    public let distinctBound: Int?

    /// A walk of `game` from its current state, `depth` actions deep;
    /// with `distinctBound`, counting the distinct states at each depth.
    public init(game: Game, depth: Int, distinctBound: Int? = nil) {
        self.game = game
        self.depth = depth
        self.distinctBound = distinctBound
    }

    /// Walks the tree. Any failure (an undo mismatch, a legal action that
    /// fails) stops the walk with the error and the path that led to it; the
    /// game is then undone back to where the walk began.
    /// With `distinctBound`, `progress` gets the depths finished so far
    /// after each call into the kernel (the walk of sequences reports none).
    public func run(shouldStop: () -> Bool = { false }, progress: (Counts) -> Void = { _ in }) throws(ExplorationFailure) -> Counts {
        if let distinctBound { return try walkDistinct(bound: distinctBound, shouldStop: shouldStop, progress: progress) }
        var counts = Counts(nodes: [])
        var path: [ActionCall] = []
        let start = game.history.cursor
        do {
            try walk(counts: &counts, path: &path, shouldStop: shouldStop)
        } catch {
            game.unwind(to: start)
            throw error
        }
        counts.endAtFirstEmptyLevel()
        counts.settleEndings(depth: depth)
        return counts
    }

    /// `distinctBound`'s walk, inside the kernel (Kernel/solve.lua): a depth
    /// at a time, each distinct state of a depth expanded once, the number
    /// of sequences that reach it carried as a count. It costs the distinct
    /// states of each depth, not the sequences, and counts both. Each call
    /// expands a batch of states (a tenth of a second or so); `shouldStop`
    /// is polled between calls, and a stopped walk returns the depths it
    /// finished.
    private func walkDistinct(bound: Int, shouldStop: () -> Bool, progress: (Counts) -> Void) throws(ExplorationFailure) -> Counts {
        let kernel = game.kernel
        do { try kernel.uniqueBegin(depth: depth, bound: bound) } catch { throw ExplorationFailure(path: [], error: error) }
        defer { kernel.uniqueEnd() }
        var counts = Counts(nodes: [], distinct: [])
        var batch = 16
        while !shouldStop() {
            let began = MonotonicClock.seconds()
            let step = try kernel.uniqueStep(expansions: batch)
            counts = Counts(nodes: step.sequences, distinct: step.distinct, finished: step.finished, endings: step.ended)
            if step.done { break }
            progress(counts)
            batch = MonotonicClock.nextBatch(batch, seconds: MonotonicClock.seconds() - began)
        }
        counts.endAtFirstEmptyLevel()
        counts.distinct = Array(counts.distinct?.prefix(counts.nodes.count) ?? [])
        return counts
    }

    /// Depth first, with a stack of the actions left to try at each level of
    /// the current path rather than recursion: a pack whose games never end,
    /// explored deep, would overflow the thread's stack. `shouldStop` is
    /// polled before each action; once it is true, every level is undone.
    private func walk(counts: inout Counts, path: inout [ActionCall], shouldStop: () -> Bool) throws(ExplorationFailure) {
        var pending: [ArraySlice<ActionCall>] = []
        if let first = try expand(level: 0, counts: &counts, path: path, shouldStop: shouldStop) { pending.append(first) }
        while let level = pending.indices.last {
            guard !shouldStop(), let call = pending[level].popFirst() else {
                // This level is done (or the walk stops): back to the level above.
                pending.removeLast()
                if level > 0 { try undoLast(&path) }
                continue
            }
            path.append(call)
            do { try game.perform(call) } catch { throw ExplorationFailure(path: path, error: error) }
            counts.add(1, at: level)
            if let next = try expand(level: level + 1, counts: &counts, path: path, shouldStop: shouldStop) {
                pending.append(next)
            } else {
                try undoLast(&path)
            }
        }
    }

    /// The actions to try at `level` (the game being after `path`), or nil
    /// when there is nothing to walk from here: the depth is reached, the
    /// walk stops, or the subtree is shallow enough to be walked (and
    /// counted) inside the kernel in one call.
    private func expand(level: Int, counts: inout Counts, path: [ActionCall],
                        shouldStop: () -> Bool) throws(ExplorationFailure) -> ArraySlice<ActionCall>? {
        guard level < depth, !shouldStop() else { return nil }
        if depth - level <= Explorer.kernelDepth {
            let found: Kernel.Exploration
            do {
                found = try game.kernel.explore(depth: depth - level, strict: game.configuration.strict)
            } catch {
                throw ExplorationFailure(path: path + error.path, error: error.error)
            }
            switch found {
            case .counts(let nodes, let finished, let ended):
                for (offset, n) in nodes.enumerated() where offset < depth - level { counts.add(n, at: level + offset) }
                for (offset, games) in finished.enumerated() where games > 0 {
                    counts.finish(games, at: level + offset, in: offset < ended.count ? ended[offset] : [])
                }
            case .undoMismatch(let below, let problems):
                throw ExplorationFailure(path: path + below, error: .undoMismatch(problems))
            }
            return nil
        }
        let legal: [ActionCall]
        do { legal = try game.legalActions() } catch { throw ExplorationFailure(path: path, error: error) }
        counts.add(0, at: level)   // the level was reached, even if nothing is legal there
        do {
            if try Self.isFinished(game, legal: legal) { counts.finish(1, at: level, in: [game.stateHash]) }
        } catch { throw ExplorationFailure(path: path, error: error) }
        return legal[...]
    }

    /// Whether `game` ends a finished game where it stands, `legal` its
    /// legal calls there: no call, or one of the pack's goals holds (the
    /// walk goes on past a goal). The kernel's walks ask the same
    /// (explore.lua, `goalreached`).
    static func isFinished(_ game: Game, legal: [ActionCall]) throws(RulebenchError) -> Bool {
        if legal.isEmpty { return true }
        for goal in game.pack.goals {
            if try game.goalHolds(goal) { return true }
        }
        return false
    }

    /// Undoes the last action of the path and drops it.
    private func undoLast(_ path: inout [ActionCall]) throws(ExplorationFailure) {
        do { try game.undo() } catch { throw ExplorationFailure(path: path, error: error) }
        path.removeLast()
    }
}
