/// The fuzzer's sequence property: every story sequence's texts (and its
/// choices' `{path}` params) read only slots the state holds, in every state
/// of the run's history (docs/sequences.md). A sequence never changes the
/// state, so the texts are filled in the replay game the whole-history check
/// already played, walking it back with undo; a pack without sequences
/// that read slots costs nothing.
struct SequenceProbe {
    /// Each slot a sequence reads: its path, the sequence's name, and where the text is.
    let reads: [(path: StatePath, slot: MissingSlot, sequence: String)]

    /// The slots `game`'s pack's sequences read; nil when they read none.
    init?(_ game: Game) {
        let book = game.sequenceBook()
        var reads: [(path: StatePath, slot: MissingSlot, sequence: String)] = []
        for name in book.names {
            guard let sequence = book.sequences[name] else { continue }
            for event in sequence.events {
                let texts = [(event.text, event.textLocation)]
                    + event.choices.flatMap { choice in choice.call.params.values.compactMap { $0.stringValue.map { ($0, choice.location) } } }
                for (text, location) in texts {
                    for path in SequenceText.paths(in: text) {
                        guard let parsed = try? StatePath(parsing: path) else { continue }
                        reads.append((parsed, MissingSlot(path: path, location: location), name))
                    }
                }
            }
        }
        guard !reads.isEmpty else { return nil }
        self.reads = reads
    }

    /// The first state, from the history's end back to its start, where a
    /// sequence reads a slot the state lacks; `game` is left where the walk stopped.
    func finding(walkingBack game: Game, stepIndex: Int) -> FuzzFinding? {
        while true {
            let position = game.history.cursor
            guard let state = try? game.state() else { return nil }
            if let read = reads.first(where: { state.value(at: $0.path) == nil }) {
                let after = position == 0 ? "after setup" : "after history step \(position) (\(game.history.entries[position - 1].call))"
                return FuzzFinding(property: .sequenceTextsRead, stepIndex: stepIndex,
                                   message: "\(after): sequence '\(read.sequence)' at \(read.slot.description)",
                                   differences: [StateChange(path: read.slot.path, before: "a value", after: StateChange.absent)],
                                   blamed: Blame(action: "sequence \(read.sequence)", location: read.slot.location))
            }
            guard position > 0, (try? game.undo()) != nil else { return nil }
        }
    }
}
