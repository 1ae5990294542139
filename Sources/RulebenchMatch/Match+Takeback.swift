import Rulebench

extension Match {
    /// Takes back the seat's own last call in effect, as a verified undo.
    ///
    /// Refused when no call is in effect, when the last one is another
    /// seat's (nobody undoes for another seat, and a seat's call with
    /// another's after it is out of reach), when the seat policy names it an
    /// undo barrier, and when it finished the seat's turn (a checkpoint
    /// call) unless the match takes back finished turns and every other seat
    /// consented. The undo is strict: only once the engine has proven it
    /// restored the state (every slot written, then the hash) is it written,
    /// synced and acknowledged.
    func takeBack(_ request: MatchRequest, consent: Set<String>) -> MatchReply {
        guard let last = inEffect.last, game.history.cursor > 0 else {
            return refuse(.nothingToTakeBack, "no call is in effect to take back")
        }
        let record = records[last - 1]
        guard record.seat == request.seat else {
            return refuse(.notYours, "the last call in effect is \(record.seat)'s (version \(last)): a seat takes back only its own calls")
        }
        let entry = game.history.entry(at: game.history.cursor - 1)
        if let why = barriers[last] { return refuse(.barrier, "version \(last): " + why) }
        if entry.isCheckpoint, let refusal = finishedTurnRefusal(record, seat: request.seat, consent: consent) { return refusal }
        let outcome: UndoOutcome
        do {
            outcome = try game.undo()
        } catch {
            if case .undoMismatch = error {
                // The undo took effect (the engine repaired the state from its journal) but was not proven: the call stands.
                restore { () throws(RulebenchError) in try game.redo() }
            }
            return .refused(MatchRefusal(error, current: version))
        }
        let takeback = MatchRecord(version: version + 1, seat: request.seat, clientCallID: request.clientCallID,
                                   step: .takeback(version: last), hash: outcome.hash)
        return acknowledge(takeback, .undone(outcome)) { () throws(RulebenchError) in try game.redo() }
    }

    /// Why a call that finished a turn cannot be taken back now, or nil when it can.
    private func finishedTurnRefusal(_ record: MatchRecord, seat: String, consent: Set<String>) -> MatchReply? {
        switch setup.takebacks {
        case .currentTurnOnly:
            return refuse(.finishedTurn, "version \(record.version) finished \(seat)'s turn, and this match keeps finished turns")
        case .finishedTurnWithConsent:
            let missing = setup.seats.filter { $0 != seat && !consent.contains($0) }
            guard missing.isEmpty else {
                return refuse(.needsConsent, "version \(record.version) finished \(seat)'s turn: taking it back needs the consent of "
                              + missing.joined(separator: ", "))
            }
            return nil
        }
    }
}
