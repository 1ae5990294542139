/// Counts the lines of exactly `length` moves from a game's current state
/// to its goal, up to a limit: `generate --unique`'s proof that a level's
/// shortest solution is the only one (a count of 1 with `length` the
/// shortest), or how many others there are.
///
/// Lines are sequences of calls: two lines that make the same moves in
/// another order are two lines. The walk is depth-first through the checked
/// engine (each move performed and undone, verified), a state's count at a
/// remaining depth remembered by its hash, and a goal's `estimate` (which
/// never overestimates) prunes the states it says are too far. Bounded by
/// `maxMoves` moves performed: a walk that runs out has proven nothing.
public struct SolutionCount {
    /// How a count ended.
    public enum Outcome: Sendable, Equatable {
        /// The lines counted, and whether the count stopped at the limit.
        case counted(Int, limitReached: Bool)
        /// The walk performed `maxMoves` moves without finishing: nothing proven.
        case outOfBudget(moves: Int)
        /// `shouldStop` became true.
        case interrupted
    }

    public let game: Game
    public let goal: String
    /// The count stops here (2 is enough to refute uniqueness).
    public let limit: Int
    /// The most moves the walk performs.
    public let maxMoves: Int

    public init(game: Game, goal: String, limit: Int = 2, maxMoves: Int = 200_000) {
        self.game = game
        self.goal = goal
        self.limit = max(limit, 1)
        self.maxMoves = maxMoves
    }

    private struct Key: Hashable {
        let hash: StateHash
        let remaining: Int
    }

    private final class Walk {
        var memo: [Key: Int] = [:]
        var moves = 0
        var stopped: Outcome?
    }

    /// Counts the lines of `length` moves; the game is back where it was.
    public func run(length: Int, shouldStop: () -> Bool = { false }) throws(RulebenchError) -> Outcome {
        let walk = Walk()
        let count = try lines(length, walk, shouldStop)
        if let stopped = walk.stopped { return stopped }
        return .counted(min(count, limit), limitReached: count >= limit && limit > 1)
    }

    private func lines(_ remaining: Int, _ walk: Walk, _ shouldStop: () -> Bool) throws(RulebenchError) -> Int {
        if remaining == 0 { return try game.goalHolds(goal) ? 1 : 0 }
        let key = Key(hash: game.stateHash, remaining: remaining)
        if let known = walk.memo[key] { return known }
        if let estimate = try game.goalEstimate(goal), estimate > Double(remaining) {
            walk.memo[key] = 0
            return 0
        }
        var total = 0
        for call in try game.legalActions() {
            guard walk.moves < maxMoves else { walk.stopped = .outOfBudget(moves: walk.moves); break }
            if shouldStop() { walk.stopped = .interrupted; break }
            walk.moves += 1
            try game.perform(call)
            let below: Int
            do { below = try lines(remaining - 1, walk, shouldStop) } catch {
                _ = try? game.undo()
                throw error
            }
            try game.undo()
            total += below
            if walk.stopped != nil || total >= limit { break }
        }
        if walk.stopped == nil { walk.memo[key] = min(total, limit) }
        return total
    }
}
