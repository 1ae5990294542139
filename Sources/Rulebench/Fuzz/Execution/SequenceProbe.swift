/// The fuzzer's sequence property: every story sequence's texts (and its
/// choices' `{path}` params) read only slots the state holds (docs/sequences.md),
/// in every state of the history each run leaves: after the whole-history
/// check, its replay game plays the history once more, a step at a time,
/// reading the state after each. A pack whose sequences read no slot pays
/// nothing. The shrunk reproduction ends where the slot is missing, and its
/// last step expects it to exist (`Reproduction`).
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

    /// The first state where a sequence reads a slot the state lacks: the
    /// state `game` is in (after setup), then after each of `calls`,
    /// performed in `game` in turn; as a finding at `stepIndex`.
    func finding(replaying calls: [ActionCall], in game: Game, stepIndex: Int) -> FuzzFinding? {
        for position in 0...calls.count {
            if position > 0, (try? game.perform(calls[position - 1])) == nil { return nil }
            guard let state = try? game.state() else { return nil }
            guard let read = reads.first(where: { state.value(at: $0.path) == nil }) else { continue }
            let after = position == 0 ? "after setup" : "after history step \(position) (\(calls[position - 1]))"
            return FuzzFinding(property: .sequenceTextsRead, stepIndex: stepIndex,
                               message: "\(after): sequence '\(read.sequence)' at \(read.slot.description)",
                               differences: [StateChange(path: read.slot.path, before: "a value", after: StateChange.absent)],
                               blamed: Blame(action: "sequence \(read.sequence)", location: read.slot.location))
        }
        return nil
    }
}
