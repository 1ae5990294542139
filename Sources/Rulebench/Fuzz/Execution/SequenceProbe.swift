/// The fuzzer's sequence property: every story sequence's texts (and its
/// choices' `{path}` params) read only slots the state holds (docs/sequences.md),
/// in every state a run reaches, on the branches it undid and replaced too:
/// the kernel's step loop looks each slot up after setup and after every
/// step that performs (`Kernel.RunRequest.reads`; an undo or a redo goes
/// back to a state already looked at). A pack whose sequences read no slot
/// pays nothing. The shrunk reproduction ends where the slot is missing,
/// and its last step expects it to exist (`Reproduction`).
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

    /// The kernel's finding that the state after step `stepIndex` (-1:
    /// setup; `call`, the step's call) lacks `reads[index]`, worded for the report.
    func finding(missing index: Int, stepIndex: Int, call: ActionCall?) -> FuzzFinding? {
        guard reads.indices.contains(index) else { return nil }
        let read = reads[index]
        let after = call.map { "after step \(stepIndex + 1) (\($0))" } ?? "after setup"
        return FuzzFinding(property: .sequenceTextsRead, stepIndex: stepIndex,
                           message: "\(after): sequence '\(read.sequence)' at \(read.slot.description)",
                           differences: [StateChange(path: read.slot.path, before: "a value", after: StateChange.absent)],
                           blamed: Blame(action: "sequence \(read.sequence)", location: read.slot.location))
    }
}
