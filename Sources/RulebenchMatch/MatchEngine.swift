import Rulebench

/// How a server's matches make and check their games: the engine's limits
/// and where packs are found, and the seat policy. One value for every match
/// of a server, so that recovery replays with the rules the match was played by.
public struct MatchEngine: Sendable {
    /// The games' limits. `strict` is always on: a takeback is accepted only
    /// once its undo is proven, and recovery compares every hash.
    public var configuration: Game.Configuration
    /// Who may make which call.
    public var seats: any SeatPolicy

    public init(configuration: Game.Configuration = Game.Configuration(), seats: any SeatPolicy = EngineSeats()) {
        self.configuration = configuration
        self.configuration.strict = true
        self.seats = seats
    }

    /// A new game of a match's pack, set up as the match says.
    func game(_ setup: MatchSetup) throws(RulebenchError) -> Game {
        try game(pack: setup.pack, options: setup.options, seed: setup.seed)
    }

    /// A new game of `pack`, set up with `options` and `seed`, strict.
    func game(pack: String, options: [String: StateValue], seed: Int64) throws(RulebenchError) -> Game {
        var configuration = self.configuration
        configuration.strict = true
        return try Game(pack: pack, options: options, seed: seed, configuration: configuration)
    }
}
