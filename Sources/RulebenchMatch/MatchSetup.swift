import Rulebench

/// How a match began: everything its log is replayed from.
///
/// The pack, its options and the seed make the game; the seats are who may
/// play it; the pack's name, version and the state hash after setup are what
/// the engine found when the match was created, so that a pack that changed
/// since is noticed before the first step is replayed (`MatchReplayRefusal`).
public struct MatchSetup: Hashable, Sendable {
    /// The most seats a match has.
    public static let maximumSeats = 16

    /// The pack as it was named: a name under the rules folder, or a path.
    public var pack: String
    /// The pack's own name and version when the match was created.
    public var packName: String
    public var packVersion: String
    /// The setup options as given (the pack's defaults fill the rest).
    public var options: [String: StateValue]
    /// The seed of the game's random generator.
    public var seed: Int64
    /// The seats, in order: each a name the seat policy knows (desert's `p1`, `p2`...).
    public var seats: [String]
    /// Whether a finished turn can be taken back.
    public var takebacks: TakebackPolicy
    /// The state hash right after setup.
    public var initialHash: StateHash

    public init(pack: String, packName: String, packVersion: String, options: [String: StateValue], seed: Int64,
                seats: [String], takebacks: TakebackPolicy, initialHash: StateHash) {
        self.pack = pack
        self.packName = packName
        self.packVersion = packVersion
        self.options = options
        self.seed = seed
        self.seats = seats
        self.takebacks = takebacks
        self.initialHash = initialHash
    }

    /// Why `seats` cannot be a match's seats, or nil: 1 to `maximumSeats`
    /// distinct names, each a valid `ClientCallID`'s text (printable ASCII, no spaces).
    public static func problem(seats: [String]) -> String? {
        guard (1...maximumSeats).contains(seats.count) else {
            return "a match has 1 to \(maximumSeats) seats, not \(seats.count)"
        }
        if let bad = seats.first(where: { ClientCallID($0) == nil }) {
            return "seat name '\(bad.prefix(40))' is not 1 to \(ClientCallID.maximumLength) printable ASCII characters without spaces"
        }
        guard Set(seats).count == seats.count else { return "a seat is named twice in \(seats)" }
        return nil
    }
}
