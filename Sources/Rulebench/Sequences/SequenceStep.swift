/// One step of a sequence: its events, one per side, shown together until
/// the player steps on (or picks a choice).
public struct SequenceStep: Hashable, Sendable {
    /// The events, in side order (left, center, right).
    public var events: [SequenceEvent]
    /// Where the step is written.
    public var location: SourceLocation

    public init(events: [SequenceEvent], location: SourceLocation) {
        self.events = events
        self.location = location
    }
}
