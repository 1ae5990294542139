/// A story sequence as its writer wrote it: a YAML file of a pack's
/// `sequences/` folder, named after the file (`storm_rises.yaml` is
/// `storm_rises`). Reading it changes nothing; `SequenceResolver` fills it
/// in for one state.
public struct StorySequence: Hashable, Sendable {
    /// The file's name without `.yaml`.
    public var name: String
    /// The file, as messages show it.
    public var file: String
    /// What starts it besides plans (`starts:`), if anything.
    public var trigger: SequenceTrigger?
    /// Where `starts:` is written.
    public var triggerLocation: SourceLocation?
    /// Its steps, in order (at least one).
    public var steps: [SequenceStep]

    public init(name: String, file: String, trigger: SequenceTrigger? = nil, triggerLocation: SourceLocation? = nil,
                steps: [SequenceStep]) {
        self.name = name
        self.file = file
        self.trigger = trigger
        self.triggerLocation = triggerLocation
        self.steps = steps
    }

    /// Every event of every step, in order.
    public var events: [SequenceEvent] { steps.flatMap(\.events) }
}
