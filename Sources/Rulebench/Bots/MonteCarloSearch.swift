import Foundation

/// The `mcts` bot's search: Monte Carlo tree search with UCT (UCB1 on each
/// node's children), seeded random playouts to the game's end, and the pack's
/// `result` as the reward (a win 1, a draw 0.5, a loss 0 for the seat that
/// made the move). Every move is performed through the checked engine and
/// undone with strict verification (`Game.perform`, `Game.undo`); the game is
/// back where it was when `best` returns. Deterministic for the generator
/// it is given: no clock, no hash order. Its work is bounded by `moveBudget`,
/// the moves performed in all (the tree's and the playouts'): a playout the
/// budget cuts short is undone and dropped, its reward never counted.
///
/// Two seats taking turns: a node's mover is the bot's seat when the seat
/// has a call there, else the other; a game without seats is the bot's alone.
struct MonteCarloSearch {
    let game: Game
    let seat: String?
    let playouts: Int
    /// The most moves performed for one choice.
    let moveBudget: Int
    /// The moves performed so far.
    private(set) var moves = 0
    /// The playouts finished (and counted) so far.
    private(set) var finishedPlayouts = 0

    init(game: Game, seat: String?, playouts: Int, moveBudget: Int) {
        self.game = game
        self.seat = seat
        self.playouts = playouts
        self.moveBudget = moveBudget
    }

    /// A playout ends after this many moves even if the game goes on (a draw).
    static let longestPlayout = 400
    /// UCB1's exploration constant, √2.
    static let exploration = 2.0.squareRoot()

    /// A position of the tree: its calls, and what each child's playouts earned its mover.
    final class Node {
        let calls: [ActionCall]
        /// Whether the bot's seat moves here.
        let botMoves: Bool
        var children: [Node?]
        var visits = 0
        /// Per child: visits and reward for this node's mover.
        var childVisits: [Int], childReward: [Double]

        init(calls: [ActionCall], botMoves: Bool) {
            self.calls = calls
            self.botMoves = botMoves
            children = Array(repeating: nil, count: calls.count)
            childVisits = Array(repeating: 0, count: calls.count)
            childReward = Array(repeating: 0, count: calls.count)
        }
    }

    /// The most visited of `calls` after the playouts, or as many as the
    /// budget of moves finishes (ties: the first).
    mutating func best(among calls: [ActionCall], random: inout FuzzRandom) throws(RulebenchError) -> ActionCall {
        let root = Node(calls: calls, botMoves: true)
        let start = game.history.cursor
        defer { game.unwind(to: start) }
        for _ in 0..<playouts {
            let finished = try playout(root, random: &random)
            // Each move undone, strictly verified: a mismatch throws (`defer` then takes the game back as far as it can).
            while game.history.cursor > start { try game.undo() }
            guard finished else { break }
            finishedPlayouts += 1
        }
        var chosen = 0
        for index in calls.indices where root.childVisits[index] > root.childVisits[chosen] { chosen = index }
        return calls[chosen]
    }

    /// Performs `call` when the budget has a move left; false when spent.
    private mutating func step(_ call: ActionCall) throws(RulebenchError) -> Bool {
        guard moves < moveBudget else { return false }
        moves += 1
        try game.perform(call)
        return true
    }

    /// One playout: down the tree by UCB1, one node added, random moves to
    /// the end, the reward carried back up; false (nothing carried back)
    /// when the budget of moves ran out first. The caller undoes its moves.
    private mutating func playout(_ root: Node, random: inout FuzzRandom) throws(RulebenchError) -> Bool {
        var path: [(node: Node, index: Int)] = []
        var node = root
        var reward: Double?
        while true {
            let index = pick(node, random: &random)
            path.append((node, index))
            guard try step(node.calls[index]) else { return false }
            if let ended = try ending() { reward = ended; break }
            if let next = node.children[index] {
                node = next
                continue
            }
            let added = try makeNode()
            node.children[index] = added
            guard let added else { reward = 0.5; break }
            node = added
            break
        }
        let score: Double
        if let reward { score = reward } else {
            guard let rolled = try rollout(random: &random) else { return false }
            score = rolled
        }
        for (node, index) in path {
            node.visits += 1
            node.childVisits[index] += 1
            node.childReward[index] += node.botMoves ? score : 1 - score
        }
        return true
    }

    /// A child not yet tried (the first, in order), else the best by UCB1 (ties: a seeded pick).
    private func pick(_ node: Node, random: inout FuzzRandom) -> Int {
        if let untried = node.childVisits.firstIndex(of: 0) { return untried }
        let logVisits = Double(max(node.visits, 1)).squareRootOfLog
        var best: [Int] = [], bestScore = -Double.infinity
        for index in node.calls.indices {
            let n = Double(node.childVisits[index])
            let score = node.childReward[index] / n + Self.exploration * logVisits / n.squareRoot()
            if score > bestScore {
                bestScore = score
                best = [index]
            } else if score == bestScore {
                best.append(index)
            }
        }
        return best[random.below(best.count)]
    }

    /// A node for the current position, or nil when no call is legal there.
    private func makeNode() throws(RulebenchError) -> Node? {
        if let seat {
            let mine = try game.legalActions(as: seat)
            if !mine.isEmpty { return Node(calls: mine, botMoves: true) }
        }
        let all = try game.legalActions()
        return all.isEmpty ? nil : Node(calls: all, botMoves: seat == nil)
    }

    /// The bot seat's reward when the game is over now (1 a win, 0.5 a draw, 0 a loss), else nil.
    private func ending() throws(RulebenchError) -> Double? {
        guard let scores = try game.result() else { return nil }
        let mine = scores[seat ?? ""] ?? scores.values.first ?? 0
        return mine > 0 ? 1 : mine < 0 ? 0 : 0.5
    }

    /// Seeded random moves to the game's end; the bot seat's reward, or nil when the budget ran out first.
    private mutating func rollout(random: inout FuzzRandom) throws(RulebenchError) -> Double? {
        for _ in 0..<Self.longestPlayout {
            if let ended = try ending() { return ended }
            let calls = try game.legalActions()
            if calls.isEmpty { return 0.5 }
            guard try step(calls[random.below(calls.count)]) else { return nil }
        }
        return try ending() ?? 0.5
    }
}

private extension Double {
    /// √(ln x), UCB1's numerator.
    var squareRootOfLog: Double { Foundation.log(self).squareRoot() }
}
