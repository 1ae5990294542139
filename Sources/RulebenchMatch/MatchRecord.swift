import Rulebench

/// One step of a match's log: an accepted call or a takeback, as the store
/// keeps it and as recovery replays it.
///
/// Versions count the log: the record that makes version `n` is the log's
/// `n`th; a match at version 0 is fresh from setup. `hash` is the state hash
/// the step left, which recovery checks step by step.
///
/// The hash is the *full* state's: it is derived from every slot, secrets
/// included (deck orders), so it stays on the server. A seat is sent its
/// own view hash (the engine's per-seat views), never this one.
public struct MatchRecord: Hashable, Sendable {
    /// What the step did.
    public enum Step: Hashable, Sendable {
        /// A call, performed.
        case call(ActionCall)
        /// The call that made version `version`, taken back (a verified undo).
        case takeback(version: Int)
    }

    /// The version this step made (at least 1).
    public var version: Int
    /// The seat that sent it.
    public var seat: String
    /// The id its client gave it.
    public var clientCallID: ClientCallID
    /// What it did.
    public var step: Step
    /// The state hash after it.
    public var hash: StateHash

    public init(version: Int, seat: String, clientCallID: ClientCallID, step: Step, hash: StateHash) {
        self.version = version
        self.seat = seat
        self.clientCallID = clientCallID
        self.step = step
        self.hash = hash
    }

    /// `3 p1 c-7 move player=p1 to=b2` or `4 p1 c-8 takeback 3`: the version, seat, client id and step.
    public var summary: String {
        let what: String
        switch step {
        case .call(let call): what = call.description
        case .takeback(let version): what = "takeback \(version)"
        }
        return "\(version) \(seat) \(clientCallID) \(what)"
    }
}
