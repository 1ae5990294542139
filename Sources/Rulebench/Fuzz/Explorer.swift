/// Visits every legal action sequence up to a depth, like perft in chess
/// engines: at each node it performs each legal action, recurses, and undoes
/// it (strictly verified), counting the nodes at each depth.
///
/// The top levels are walked here, through `Game`, so that `shouldStop` is
/// polled between subtrees; each subtree of at most `kernelDepth` levels is
/// walked inside the kernel in one call, with the same checks, because a
/// crossing per node would cost more than the node.
public struct Explorer {
    /// Subtrees this deep or shallower are walked inside the kernel.
    static let kernelDepth = 2

    /// Counts of the walk.
    public struct Counts: Sendable {
        /// `nodes[d]` is the number of action sequences of length d + 1.
        public var nodes: [Int]
        /// Total perform+undo pairs.
        public var total: Int { nodes.reduce(0, +) }
    }

    public let game: Game
    public let depth: Int

    public init(game: Game, depth: Int) {
        self.game = game
        self.depth = depth
    }

    /// Walks the tree. Any failure (an undo mismatch, a legal action that
    /// fails) stops the walk with the error and the path that led to it; the
    /// game is then undone back to where the walk began.
    public func run(shouldStop: () -> Bool = { false }) throws(ExplorationFailure) -> Counts {
        var counts = Counts(nodes: Array(repeating: 0, count: depth))
        var path: [ActionCall] = []
        let start = game.history.cursor
        do {
            try visit(level: 0, counts: &counts, path: &path, shouldStop: shouldStop)
        } catch {
            // An undo that throws a mismatch has still taken effect (the state
            // was repaired), so the loop ends; any other failure stops it.
            while game.history.cursor > start {
                do { try game.undo() } catch {
                    if case .undoMismatch = error { continue }
                    break
                }
            }
            throw error
        }
        return counts
    }

    private func visit(level: Int, counts: inout Counts, path: inout [ActionCall], shouldStop: () -> Bool) throws(ExplorationFailure) {
        guard level < depth, !shouldStop() else { return }
        if depth - level <= Explorer.kernelDepth {
            let found: Kernel.Exploration
            do {
                found = try game.kernel.explore(depth: depth - level, strict: game.configuration.strict)
            } catch {
                throw ExplorationFailure(path: path + error.path, error: error.error)
            }
            switch found {
            case .counts(let nodes):
                for (offset, n) in nodes.enumerated() where level + offset < depth { counts.nodes[level + offset] += n }
            case .undoMismatch(let below, let problems):
                throw ExplorationFailure(path: path + below, error: .undoMismatch(problems))
            }
            return
        }
        let legal: [ActionCall]
        do { legal = try game.legalActions() } catch { throw ExplorationFailure(path: path, error: error) }
        for call in legal {
            path.append(call)
            do { try game.perform(call) } catch { throw ExplorationFailure(path: path, error: error) }
            counts.nodes[level] += 1
            try visit(level: level + 1, counts: &counts, path: &path, shouldStop: shouldStop)
            do { try game.undo() } catch { throw ExplorationFailure(path: path, error: error) }
            path.removeLast()
            if shouldStop() { return }
        }
    }
}

/// Where an exploration failed: the action sequence from the start, and the error.
public struct ExplorationFailure: Error, CustomStringConvertible {
    public let path: [ActionCall]
    public let error: RulebenchError

    public var description: String {
        "after " + (path.isEmpty ? "setup" : path.map(\.description).joined(separator: " ; ")) + ": \(error)"
    }
}
