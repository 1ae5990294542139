/// A player the program plays a seat with (docs/bots.md): `rulebench play
/// --bot SEAT=KIND`, the studio's and the match server's bot seats.
///
/// A bot is given the game at the position where its seat is to move and
/// the calls its seat may make, and picks one; it is a pure function of the
/// state and its seed, so the same position and seed give the same call.
/// Every move a bot tries is performed through the checked engine and undone
/// with strict verification; the game is back where it was after.
///
/// - `random`: a seeded pick among the calls.
/// - `greedy`: the call after which the pack's first goal holds, else the one
///   with the least estimate the goal declares; ties picked as `random` picks.
/// - `alphabeta:DEPTH[:STATES]`: the best call by `GameValue` searched DEPTH
///   moves deep, deepening one move at a time within a budget of STATES
///   states (the last round finished decides; the pack's `result`; equally
///   good calls picked as `random` picks).
/// - `mcts:PLAYOUTS[:MOVES]`: Monte Carlo tree search (UCT) of PLAYOUTS seeded
///   random playouts to the game's end (`MonteCarloSearch`), within a budget
///   of MOVES moves performed (a playout the budget cuts short is dropped);
///   the most visited call.
public struct Bot: Sendable, Hashable, CustomStringConvertible {
    /// Which bot, with its one parameter.
    public enum Kind: Sendable, Hashable {
        case random
        case greedy
        case alphabeta(depth: Int)
        case mcts(playouts: Int)
    }

    public let kind: Kind
    /// The bot's budget for one move: the most states `alphabeta` searches,
    /// the most moves `mcts` performs (each undone after); unused by the
    /// others. A count of work, not a time: the same call on every machine,
    /// and a bound on how long a move holds the thread (a match room's among them).
    public let nodeBudget: Int

    /// A bot of `kind` with `nodeBudget` (nil: the kind's default budget).
    public init(_ kind: Kind, nodeBudget: Int? = nil) {
        self.kind = kind
        self.nodeBudget = nodeBudget ?? Self.defaultBudget(of: kind)
    }

    /// The budget a bot of `kind` has without one written.
    public static func defaultBudget(of kind: Kind) -> Int {
        if case .mcts = kind { return defaultMoveBudget }
        return defaultNodeBudget
    }

    /// The depth `alphabeta` searches without one given.
    public static let defaultDepth = 9
    /// The states `alphabeta` searches for a move without a number given.
    public static let defaultNodeBudget = 20_000
    /// The largest budget of states an `alphabeta` bot takes.
    public static let largestNodeBudget = 10_000_000
    /// The playouts `mcts` makes without a number given.
    public static let defaultPlayouts = 200
    /// The largest playouts an `mcts` bot takes.
    public static let largestPlayouts = 100_000
    /// The moves `mcts` performs for a move without a number given: 200
    /// playouts of 250 moves (tic-tac-toe's default search performs fewer than 2,000).
    public static let defaultMoveBudget = 50_000
    /// The largest budget of moves an `mcts` bot takes (as `alphabeta`'s of states).
    public static let largestMoveBudget = 10_000_000
    /// The kinds, as a bot is written without its parameter.
    public static let names = ["random", "greedy", "alphabeta", "mcts"]
    /// How a bot is written, for messages.
    public static let forms = "random, greedy, alphabeta[:DEPTH[:STATES]] (DEPTH 1 to \(GameValue.largestDepth), "
        + "STATES 1 to \(largestNodeBudget), default \(defaultNodeBudget)), mcts[:PLAYOUTS[:MOVES]] (PLAYOUTS 1 to \(largestPlayouts), "
        + "MOVES 1 to \(largestMoveBudget), default \(defaultMoveBudget))"

    /// A bot as written: `random`, `greedy`, `alphabeta`, `alphabeta:9`,
    /// `alphabeta:9:20000`, `mcts`, `mcts:400`, `mcts:400:20000`; nil for anything else.
    public init?(spec: String) {
        var parts = spec.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        var budget: Int?
        if parts.count == 3 {
            let largest = [("alphabeta", Self.largestNodeBudget), ("mcts", Self.largestMoveBudget)].first { $0.0 == parts[0] }?.1
            guard let largest, let work = Int(parts[2]), (1...largest).contains(work) else { return nil }
            budget = work
            parts.removeLast()
        }
        let number = parts.count == 2 ? Int(parts[1]) : nil
        if parts.count == 2, number == nil { return nil }
        switch parts[0] {
        case "random" where parts.count == 1: kind = .random
        case "greedy" where parts.count == 1: kind = .greedy
        case "alphabeta":
            let depth = number ?? Self.defaultDepth
            guard (1...GameValue.largestDepth).contains(depth) else { return nil }
            kind = .alphabeta(depth: depth)
        case "mcts":
            let playouts = number ?? Self.defaultPlayouts
            guard (1...Self.largestPlayouts).contains(playouts) else { return nil }
            kind = .mcts(playouts: playouts)
        default: return nil
        }
        nodeBudget = budget ?? Self.defaultBudget(of: kind)
    }

    /// The bot as written (`alphabeta:9`): what `init(spec:)` reads back.
    public var description: String {
        switch kind {
        case .random: return "random"
        case .greedy: return "greedy"
        case .alphabeta(let depth) where nodeBudget == Self.defaultNodeBudget: return "alphabeta:\(depth)"
        case .alphabeta(let depth): return "alphabeta:\(depth):\(nodeBudget)"
        case .mcts(let playouts) where nodeBudget == Self.defaultMoveBudget: return "mcts:\(playouts)"
        case .mcts(let playouts): return "mcts:\(playouts):\(nodeBudget)"
        }
    }

    /// The call the bot makes among `calls` (its seat's legal calls, not
    /// empty) in `game`'s current position, `seat` its seat (nil in a game
    /// without seats). The same position and seed give the same call.
    ///
    /// - Throws: `alphabeta` and `mcts` on a pack they cannot search (no
    ///   `result`, chance), or any step that fails.
    public func choose(_ calls: [ActionCall], in game: Game, seat: String?, seed: UInt64) throws(RulebenchError) -> ActionCall {
        precondition(!calls.isEmpty, "a bot chooses among one call or more")
        var random = FuzzRandom(seed: seed)
        switch kind {
        case .random:
            return calls[random.below(calls.count)]
        case .greedy:
            return try Self.greedy(calls, in: game, random: &random)
        case .alphabeta(let depth):
            let result: GameValue.Result
            do { result = try GameValue(game: game, maxDepth: depth, nodeBudget: nodeBudget).run(lines: false) } catch { throw error.error }
            guard case .valued(_, let moves, _, _, _) = result.outcome else { return calls[random.below(calls.count)] }
            let mine = moves.filter { move in calls.contains(move.call) }
            guard let best = mine.map(\.value).max() else { return calls[random.below(calls.count)] }
            let ties = mine.filter { $0.value == best }
            return ties[random.below(ties.count)].call
        case .mcts(let playouts):
            var search = MonteCarloSearch(game: game, seat: seat, playouts: playouts, moveBudget: nodeBudget)
            return try search.best(among: calls, random: &random)
        }
    }

    /// The call whose resulting state scores best for the pack's first goal.
    private static func greedy(_ calls: [ActionCall], in game: Game, random: inout FuzzRandom) throws(RulebenchError) -> ActionCall {
        guard let goal = game.pack.goals.first else { return calls[random.below(calls.count)] }
        var best: [ActionCall] = [], bestScore = Double.infinity
        for call in calls {
            guard let score = try score(call, goal: goal, in: game) else { continue }
            if score < bestScore {
                bestScore = score
                best = [call]
            } else if score == bestScore {
                best.append(call)
            }
        }
        if best.isEmpty { best = calls }
        return best[random.below(best.count)]
    }

    /// The goal's score after `call`: 0 when it meets the goal, else the
    /// goal's estimate plus one (the worst when it declares none); nil when
    /// the call fails. The call is undone before this returns.
    private static func score(_ call: ActionCall, goal: String, in game: Game) throws(RulebenchError) -> Double? {
        do { try game.perform(call) } catch { return nil }
        var score = Double.greatestFiniteMagnitude
        do {
            if try game.goalHolds(goal) { score = 0 } else if let estimate = try game.goalEstimate(goal) { score = estimate + 1 }
        } catch {
            score = .greatestFiniteMagnitude
        }
        try game.undo()
        return score
    }
}
