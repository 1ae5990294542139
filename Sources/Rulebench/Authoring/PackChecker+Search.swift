/// `check`'s short search: goals and invariants in the states a bounded
/// breadth-first walk from the start reaches, not only in those random play
/// samples. Random play rarely reaches a goal position (a solved puzzle, a
/// won game), so a goal that misbehaves only there (writes the state, fails)
/// went unreported until `solve` ran into it.
///
/// The walk keeps: at most `Options.searchStates` distinct states (by hash)
/// are visited, each once, nearest the start first; the game is back at the
/// start when it returns.
extension PackChecker {
    /// Visits states breadth first from the game's start; in each, runs every
    /// goal and the invariants, and reports what fails.
    func search(_ game: Game, seed: Int64, report: (PackProblem) -> Void) {
        guard options.searchStates > 0 else { return }
        var seen: Set<StateHash> = [game.stateHash]
        var frontier: [[ActionCall]] = [[]]
        var visited = 0
        while !frontier.isEmpty, visited < options.searchStates {
            var next: [[ActionCall]] = []
            for path in frontier where visited < options.searchStates {
                guard replay(path, in: game) else { continue }
                visited += 1
                let context = "seed \(seed), search, after " + (path.isEmpty ? "setup" : path.map(\.description).joined(separator: " ; "))
                lintGoals(game, context: context, probingEstimates: false, report: report)
                do { try game.checkInvariants() } catch {
                    report(failureProblem(error, game: game, during: "the invariants", context: context))
                }
                // Calls that fail or undo wrongly are the sampling's to
                // report (with its fixed seeds, so verdicts stay as they
                // were); the search only goes where they succeed.
                for call in (try? game.legalActions()) ?? [] {
                    guard (try? game.perform(call)) != nil else { continue }
                    if seen.insert(game.stateHash).inserted { next.append(path + [call]) }
                    guard (try? game.undo()) != nil else {
                        try? game.rewind()
                        return
                    }
                }
            }
            frontier = next
        }
        try? game.rewind()
    }

    /// Plays `path` from the start; false when a step fails (the sampling
    /// reports such failures where it meets them).
    private func replay(_ path: [ActionCall], in game: Game) -> Bool {
        do {
            try game.rewind()
            for call in path { try game.perform(call) }
            return true
        } catch {
            return false
        }
    }
}
