import Rulebench

/// A seat the server plays (docs/multiplayer.md, "Bots"). A bot's request
/// is a pure function of the match at its version: the same state, the same
/// call, with the client call id `bot-v<version>`; so a bot's step is logged,
/// made durable and recovered like any seat's, and after a restart the bot
/// goes on from the log.
///
/// When a bot acts: when its seat may make a call and, in a pack whose
/// actions include a checkpoint (a turn's end, such as desert's `end_turn`),
/// only while a checkpoint call is among its calls: its own turn, not the
/// free calls a pack may let a seat make in another's turn.
public enum MatchBot: String, Sendable, CaseIterable {
    /// A seeded random pick among the seat's legal calls (the seed: the
    /// match's, the seat and the version).
    case random
    /// The call whose resulting state is best for the pack's first goal: one
    /// that meets the goal, else the least estimate the goal declares (each
    /// call tried and undone, strictly); ties (and a goal without an
    /// estimate) broken as `random` breaks them.
    case greedy

    /// The most calls a bot makes in one turn: after them it ends its turn
    /// (the checkpoint call), so a bot never plays on forever.
    public static let maximumRun = 40

    /// The request the bot of `seat` makes now, or nil when it does not act.
    /// `run` is how many steps in a row the seat has made.
    public func request(in match: Match, seat: String, run: Int) throws(RulebenchError) -> MatchRequest? {
        let calls = try match.legalCalls(as: seat)
        guard !calls.isEmpty else { return nil }
        let checkpoints = calls.filter { match.game.pack.actions[$0.name]?.isCheckpoint ?? false }
        let turnBased = match.game.pack.actions.values.contains { $0.isCheckpoint }
        if turnBased, checkpoints.isEmpty { return nil }
        var random = FuzzRandom(seed: Self.seed(match, seat))
        let call: ActionCall
        if run >= Self.maximumRun, let end = checkpoints.first {
            call = end
        } else {
            switch self {
            case .random: call = calls[random.below(calls.count)]
            case .greedy: call = try Self.best(calls, in: match.game, random: &random)
            }
        }
        guard let id = ClientCallID("bot-v\(match.version)") else { return nil }
        return MatchRequest(seat: seat, clientCallID: id, expectedVersion: match.version, action: .perform(call))
    }

    /// The seed of a bot's pick: the match's seed, the seat (FNV-1a of its name) and the version.
    private static func seed(_ match: Match, _ seat: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in seat.utf8 { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return UInt64(bitPattern: match.setup.seed) &* 0x9E37_79B9_7F4A_7C15 ^ h ^ UInt64(match.version) &* 1_000_003
    }

    /// The call whose resulting state scores best for the pack's first goal
    /// (each performed and undone, strictly; the state is as before after).
    private static func best(_ calls: [ActionCall], in game: Game, random: inout FuzzRandom) throws(RulebenchError) -> ActionCall {
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
            if try game.goalHolds(goal) { score = 0 }
        } catch {
            score = .greatestFiniteMagnitude
        }
        try game.undo()
        return score
    }
}
