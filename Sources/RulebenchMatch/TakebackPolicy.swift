/// When a seat may take back a call of a turn it has finished (its last call
/// is a checkpoint, such as desert's `end_turn`): an option of the match,
/// chosen when it is created. A call of the turn still under way is always
/// the seat's own to take back (see `Match.takeBack`).
public enum TakebackPolicy: String, Sendable, CaseIterable {
    /// A finished turn stands.
    case currentTurnOnly = "current-turn-only"
    /// A finished turn can be taken back when every other seat consents.
    case finishedTurnWithConsent = "finished-turn-with-consent"
}
