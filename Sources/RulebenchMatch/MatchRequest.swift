import Rulebench

/// What a seat sends: a call or a takeback, with the client's id for it and
/// the version the client last saw.
public struct MatchRequest: Hashable, Sendable {
    /// What the seat asks for.
    public enum Action: Hashable, Sendable {
        /// Perform this call.
        case perform(ActionCall)
        /// Take back the seat's own last call in effect. `consent` is the
        /// seats that agreed, as the server gathered them: taking back a
        /// finished turn needs every other seat's (`TakebackPolicy`).
        case takeBack(consent: Set<String>)
    }

    public var seat: String
    public var clientCallID: ClientCallID
    /// The match's version when the client sent it: anything else is stale.
    public var expectedVersion: Int
    public var action: Action

    public init(seat: String, clientCallID: ClientCallID, expectedVersion: Int, action: Action) {
        self.seat = seat
        self.clientCallID = clientCallID
        self.expectedVersion = expectedVersion
        self.action = action
    }

    /// Whether `record` is what this request asks for (a resent request is
    /// answered from its record only if it asks for the same thing).
    func asks(for record: MatchRecord) -> Bool {
        switch (action, record.step) {
        case (.perform(let call), .call(let recorded)): return call == recorded
        case (.takeBack, .takeback): return true
        default: return false
        }
    }
}
