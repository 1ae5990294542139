/// A choice an event offers: a call of the pack. Picking it performs the
/// call like any other (checked, journaled, undoable); the sequence itself
/// never changes the state.
public struct SequenceChoice: Hashable, Sendable {
    /// What the button says.
    public var label: String
    /// The call it performs.
    public var call: ActionCall
    /// Where the choice's `action:` is written.
    public var location: SourceLocation

    public init(label: String, call: ActionCall, location: SourceLocation) {
        self.label = label
        self.call = call
        self.location = location
    }
}
