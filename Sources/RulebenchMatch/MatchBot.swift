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
///
/// Which call: the `Bot` named (docs/bots.md): `random`, `greedy`,
/// `alphabeta:DEPTH` or `mcts:PLAYOUTS`, seeded by the match's seed, the
/// seat and the version.
public struct MatchBot: Sendable, Hashable, RawRepresentable {
    /// The bot that picks the call (`Bot`: random, greedy, alphabeta:DEPTH, mcts:PLAYOUTS).
    public let bot: Bot

    public init(_ bot: Bot) {
        self.bot = bot
    }

    /// A bot as the server's `"bots"` field and `serve --bot SEAT=KIND` write it (`Bot(spec:)`).
    public init?(rawValue: String) {
        guard let bot = Bot(spec: rawValue) else { return nil }
        self.bot = bot
    }

    /// The bot as written: what `init(rawValue:)` reads back, and what the match's bots are stored as.
    public var rawValue: String { bot.description }

    /// A seeded random pick among the seat's legal calls (the seed: the
    /// match's, the seat and the version).
    public static let random = MatchBot(Bot(.random))
    /// The call whose resulting state is best for the pack's first goal: one
    /// that meets the goal, else the least estimate the goal declares (each
    /// call tried and undone, strictly); ties (and a goal without an
    /// estimate) broken as `random` breaks them.
    public static let greedy = MatchBot(Bot(.greedy))
    /// One bot of each kind, with its default parameter (for messages).
    public static let allCases: [MatchBot] = [.random, .greedy, MatchBot(Bot(.alphabeta(depth: Bot.defaultDepth))),
                                              MatchBot(Bot(.mcts(playouts: Bot.defaultPlayouts)))]
    /// How a bot is written, for messages.
    public static let forms = Bot.forms

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
        let call: ActionCall
        if run >= Self.maximumRun, let end = checkpoints.first {
            call = end
        } else {
            call = try bot.choose(calls, in: match.game, seat: seat, seed: Self.seed(match, seat))
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
}
