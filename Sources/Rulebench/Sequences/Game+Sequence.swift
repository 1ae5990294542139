import Foundation

extension Game {
    /// The pack's sequences, read afresh from its `sequences/` folders.
    public func sequenceBook() -> SequenceBook {
        SequenceBook(folders: packFolders)
    }

    /// The sequence `name` resolved in the current state, for a host to play
    /// with its own views: texts filled in, images' pack paths (serve them
    /// with `packFile`), timings. The state is read, never changed.
    public func sequence(_ name: String, in book: SequenceBook? = nil) throws(RulebenchError) -> PlayedSequence {
        let sequence = try (book ?? sequenceBook()).sequence(name)
        return PlayedSequence(sequence, state: try state()) { self.packFile($0) != nil }
    }

    /// The sequences the opening starts: its plan's `anim.sequence` cues, then
    /// the files that say `starts: opening`.
    public func openingSequences(in book: SequenceBook? = nil) -> [String] {
        let book = book ?? sequenceBook()
        var names = SequenceCue.started(by: openingAnimation)
        for name in book.openingNames where !names.contains(name) { names.append(name) }
        return names
    }

    /// The goals that start a sequence and hold now: what a host keeps
    /// before a step, to give `sequences(startedBy:goalsHeldBefore:)`.
    public func triggeringGoalsHeld(in book: SequenceBook? = nil) -> Set<String> {
        let book = book ?? sequenceBook()
        return Set(book.goalTriggers.keys.filter { (try? goalHolds($0)) == true })
    }

    /// The sequences a step just performed starts, in order: those its plan
    /// cues (`anim.sequence`), then those of each goal it reached (a goal that
    /// holds now and did not before, `goalsHeldBefore`).
    public func sequences(startedBy animation: ActionAnimation?, goalsHeldBefore: Set<String>,
                          in book: SequenceBook? = nil) -> [String] {
        let book = book ?? sequenceBook()
        var names = SequenceCue.started(by: animation)
        guard animation?.direction != .undo else { return names }
        for (goal, triggered) in book.goalTriggers.sorted(by: { $0.key < $1.key })
        where !goalsHeldBefore.contains(goal) && (try? goalHolds(goal)) == true {
            for name in triggered where !names.contains(name) { names.append(name) }
        }
        return names
    }
}
