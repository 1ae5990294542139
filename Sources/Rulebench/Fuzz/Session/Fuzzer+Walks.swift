// The guided search's walks inside the kernel: the breadth-first sweep of the
// first depths and the probe of a kept program's frontier (both `Explorer`).
// A walk's failure is always played again as a program, so that it is shrunk
// and written like any other finding.

extension Fuzzer {
    /// Steps the guided search's runs take before its sweep: bugs that
    /// random runs find at once are not kept waiting behind it.
    static let sweepAfter = 5_000

    /// The guided search's breadth-first sweep: every sequence of legal
    /// actions up to depth 3 from the first run's setup (fewer when the tree
    /// would pass `nodeLimit` nodes: it must cost less than the bugs random
    /// runs find in a second), each perform and undo checked, inside
    /// the kernel (see `Explorer`). A rare line of play two or three moves
    /// deep is found here at once. When the sweep fails, its path is played
    /// again as a program (its actions, then undo of all of them) and
    /// returned with the result, and the sweep's node count.
    func sweep(seed: Int64, nodeLimit: Int = 5_000) -> (FuzzProgram, FuzzExecutor.Result, Int)? {
        let start = FuzzProgram(pack: options.pack, seed: seed, options: options.setupOptions)
        var counts: [Int] = []
        var nodes = 0
        for depth in 1...3 {
            if let last = counts.last {
                let previous = counts.count > 1 ? counts[counts.count - 2] : 1
                if last * last / max(1, previous) > nodeLimit { break }
            }
            guard let game = try? executor.newGame(start) else { return nil }
            do {
                counts = try Explorer(game: game, depth: depth).run().nodes
                nodes += counts.reduce(0, +)
            } catch {
                let (program, result) = replaying(error, after: start)
                return result.finding == nil ? nil : (program, result, nodes + error.path.count)
            }
        }
        return nil
    }

    /// A probe of the guided search: plays a kept program's start, then
    /// tries every action legal where it ends, each perform and undo checked
    /// (`Explorer`, inside the kernel; two moves deep when at most 8 actions
    /// are legal there). A frontier is where a new branch of the rules first
    /// ran, often in `legal`: the move it offers is tried at once. A failure
    /// is played again as a program: the start, the walk's path, and the
    /// undo of the path.
    func probe(_ run: GuidedSearch.Run) -> (program: FuzzProgram, result: FuzzExecutor.Result, nodes: Int) {
        let (start, result) = executor.play(run.start, run.request)
        guard result.finding == nil, result.valid, let game = executor.games.main,
              let legal = try? game.legalActions() else { return (start, result, 0) }
        do {
            return (start, result, try Explorer(game: game, depth: legal.count <= 8 ? 2 : 1).run().total)
        } catch {
            let (program, result) = replaying(error, after: start)
            return (program, result, error.path.count)
        }
    }

    /// A walk's failure played again as a program: `start`'s steps, the
    /// walk's path, and the undo of the path (where the walk failed).
    private func replaying(_ failure: ExplorationFailure, after start: FuzzProgram) -> (FuzzProgram, FuzzExecutor.Result) {
        var program = start
        program.steps += failure.path.map { .perform($0) } + [.undo(failure.path.count)]
        return (program, executor.execute(program, checkLegality: false))
    }
}
