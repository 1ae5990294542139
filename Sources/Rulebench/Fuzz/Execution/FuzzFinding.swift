// What a fuzz run found wrong: the failed property, the step, the message,
// the differing slots and the blame (`Blame`). The property's raw value is the text
// reports print, so renaming a case does not change a report.

/// What the fuzzer found wrong.
public struct FuzzFinding: Sendable, CustomStringConvertible {
    /// Which of the fuzzer's properties failed.
    public enum Property: String, Sendable, CaseIterable {
        case undoRestores = "undo restores the state exactly"
        case redoReproduces = "redo reproduces the action"
        case undoMirrorsDo = "an undo plays its action's animation backwards"
        case failureChangesNothing = "a rejected or failed action changes nothing"
        case legalIsAllowed = "every legal action passes check and applies"
        case invariantsHold = "pack invariants hold"
        case rewindAndReplay = "rewinding and replaying give the same hashes"
        case seatSeesOnly = "no seat is shown what is hidden from it"
        case saveAndLoad = "saving and loading keep every hash"
        case animationIsSound = "animation plans are finite and free of conflicts"
        case deterministic = "the same seed gives the same run"
        case sequenceTextsRead = "story sequences read only slots the state holds"

        /// The property's name: the word the kernel's fuzz loop sends for it
        /// (`Kernel/protocol.lua`'s `property`) and the part of a finding
        /// file's name that says which property failed. It is the case's own
        /// name, so the property is defined here once.
        public var word: String { "\(self)" }
    }

    /// The property that failed.
    public var property: Property
    /// The step (0-based index in the program) where it failed.
    public var stepIndex: Int
    /// What happened, in a sentence or a few lines.
    public var message: String
    /// The first differing state paths, when the finding is about state.
    public var differences: [StateChange]
    /// The blamed action or subaction and its Lua file:line, when known.
    public var blamed: Blame?
    /// A finding of the end-of-run rewind: how many undos it ran, the
    /// failing one included (a reproduction ends with `undo:` that many).
    public var rewindUndos: Int?

    /// The blame as reports write it (`Blame.description`); set from text, it is read as `Blame(text:)`.
    public var blame: String? {
        get { blamed?.description }
        set { blamed = newValue.map { Blame(text: $0) } }
    }

    /// A finding from its parts.
    public init(property: Property, stepIndex: Int, message: String, differences: [StateChange], blamed: Blame?) {
        self.property = property
        self.stepIndex = stepIndex
        self.message = message
        self.differences = differences
        self.blamed = blamed
    }

    /// A finding whose blame is given as text (`Blame(text:)`).
    public init(property: Property, stepIndex: Int, message: String, differences: [StateChange], blame: String?) {
        self.init(property: property, stepIndex: stepIndex, message: message, differences: differences,
                  blamed: blame.map { Blame(text: $0) })
    }

    /// How the message of a finding starts when listing the legal actions
    /// failed (a rule's `legal` raised) rather than an action.
    static let legalListingFailed = "legal raised an error: "

    /// How the message of a finding starts when it showed only as the run
    /// ended, rewinding the whole history: a reproduction then ends by
    /// undoing every step still done.
    static let rewindFailed = "rewinding the whole history"

    /// Whether the end-of-run rewind is what failed.
    public var isRewindFailure: Bool { message.hasPrefix(FuzzFinding.rewindFailed) }

    /// Whether listing the legal actions failed, before step `stepIndex`
    /// was chosen: a reproduction then ends with a `legal:` expectation.
    public var isLegalListingFailure: Bool {
        property == .legalIsAllowed && message.hasPrefix(FuzzFinding.legalListingFailed)
    }

    /// The property, the step and the message, then the blame and the first differences, a line each.
    public var description: String {
        var text = "\(property.rawValue) failed at step \(stepIndex + 1): \(message)"
        if let blame { text += "\n  blame: \(blame)" }
        for difference in differences.prefix(5) { text += "\n  " + UndoProblem.line(difference) }
        return text
    }

    /// Two findings are the same bug for shrinking when the same property fails.
    func matches(_ other: FuzzFinding) -> Bool { property == other.property }
}
