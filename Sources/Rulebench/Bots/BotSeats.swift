/// Seats a program plays with bots between its user's moves (`rulebench
/// play --bot`, the studio's bot seats; docs/bots.md): after a move, each
/// bot whose seat may act makes its call as that seat, seats in name order,
/// round after round until none may or `most` calls were made.
///
/// A bot's seed is a function of the seats' seed, its seat and the
/// history's length, so the same game played the same way gets the same
/// answers: a bot's moves are a function of the position and the seed.
public struct BotSeats: Sendable, Equatable {
    /// The bot of each seat the program plays.
    public var bots: [String: Bot]
    /// The seed every bot's pick is drawn from.
    public var seed: UInt64

    public init(_ bots: [String: Bot] = [:], seed: UInt64 = 0) {
        self.bots = bots
        self.seed = seed
    }

    /// A bot that failed: its seat, the bot, and the error (a search it
    /// cannot make, a step that failed).
    public struct Failure: Error, Sendable {
        public let seat: String
        public let bot: Bot
        public let error: RulebenchError
    }

    /// The seed of the pick `seat`'s bot makes with `cursor` steps in the history.
    public func seed(of seat: String, at cursor: Int) -> UInt64 {
        seed &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(cursor) &* 1_000_003 ^ UInt64(seat.utf8.count)
    }

    /// Lets the bots play: each bot whose seat may act makes its call, until
    /// none may or `most` calls were made; `made` hears each call and its
    /// step as it is made. Returns how many calls were made.
    @discardableResult
    public func play(in game: Game, most: Int,
                     made: (_ seat: String, _ bot: Bot, _ call: ActionCall, _ step: Game.SeatedStep) -> Void) throws(Failure) -> Int {
        var count = 0
        while count < most {
            var moved = false
            for (seat, bot) in bots.sorted(by: { $0.key < $1.key }) where count < most {
                do throws(RulebenchError) {
                    let calls = try game.legalActions(as: seat)
                    guard !calls.isEmpty else { continue }
                    let call = try bot.choose(calls, in: game, seat: seat, seed: seed(of: seat, at: game.history.cursor))
                    let step = try game.perform(call, as: seat)
                    made(seat, bot, call, step)
                } catch {
                    throw Failure(seat: seat, bot: bot, error: error)
                }
                count += 1
                moved = true
            }
            if !moved { break }
        }
        return count
    }
}
