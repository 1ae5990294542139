import Rulebench

/// What a match answers a request (`Match.handle`).
public enum MatchReply: Sendable {
    /// Performed (or taken back), written to the store and synced: the step
    /// is durable, and only now may the client be told. `detail` is what the
    /// engine gave (the entry with its plan, or the undo), for the server to
    /// send every connection its view of the step.
    case accepted(MatchRecord, detail: Detail)
    /// The client call id was accepted before: its record, from the log,
    /// without performing anything. `current` is the match's version now.
    case answeredAgain(MatchRecord, current: Int)
    /// The client's version is not the match's: nothing was done; `current`
    /// is the version to catch up to.
    case stale(current: Int)
    /// Not done, and why; the match goes on, unchanged.
    case refused(MatchRefusal)

    /// What the engine gave for an accepted step.
    public enum Detail: Sendable {
        /// The call performed: the history's entry and each seat's view of the step.
        case performed(Game.SeatedStep)
        case undone(UndoOutcome)
    }

    /// The record of an accepted or answered step.
    public var record: MatchRecord? {
        switch self {
        case .accepted(let record, _), .answeredAgain(let record, _): return record
        case .stale, .refused: return nil
        }
    }
}

/// A request the match did not carry out, and why.
public struct MatchRefusal: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        /// The pack's `check` (or the seat policy) said no.
        case rejected
        /// A Lua error in the pack's rules.
        case scriptError = "script-error"
        /// The instruction budget, memory cap or wall clock ran out.
        case budget
        /// A pack invariant failed after the call.
        case invariant
        /// An action the pack does not have, or params it does not take.
        case badCall = "bad-call"
        /// The seat is not one of the match's.
        case unknownSeat = "unknown-seat"
        /// The client call id was used before for another call.
        case reusedCallID = "reused-call-id"
        /// The match is over.
        case finished
        /// No call of the seat is in effect to take back.
        case nothingToTakeBack = "nothing-to-take-back"
        /// The last call in effect is another seat's.
        case notYours = "not-yours"
        /// The last call revealed something (an undo barrier).
        case barrier
        /// The call finished a turn, and this match keeps finished turns.
        case finishedTurn = "finished-turn"
        /// Taking back a finished turn needs consent not (yet) given.
        case needsConsent = "needs-consent"
        /// The undo did not prove it restored the state (a rule bug): the call stands.
        case undoNotProven = "undo-not-proven"
        /// The store could not make the step durable: nothing was done, the request can be sent again.
        case unavailable
        /// The match stopped taking requests (its game could not be brought back in step with its log).
        case halted
    }

    public var kind: Kind
    /// Why, in words for the seat (a pack's reason, a Lua error with its file:line and phase).
    public var reason: String
    /// The match's version, unchanged by the refusal.
    public var current: Int

    public init(_ kind: Kind, _ reason: String, current: Int) {
        self.kind = kind
        self.reason = reason
        self.current = current
    }

    /// A refusal for an engine error: nothing changed in the game.
    init(_ error: RulebenchError, current: Int) {
        let kind: Kind
        switch error {
        case .rejected: kind = .rejected
        case .script: kind = .scriptError
        case .budgetExceeded: kind = .budget
        case .invariant: kind = .invariant
        case .badInput, .packLoad: kind = .badCall
        case .undoMismatch, .redoMismatch: kind = .undoNotProven
        }
        var reason = error.description
        if case .rejected(let why, _) = error { reason = why }
        self.init(kind, reason, current: current)
    }

    public var description: String { "refused (\(kind.rawValue)) at version \(current): \(reason)" }
}
