/// One event of a step, at one side of the overlay: a text, an image of
/// the pack, how near it stands, how it comes on screen, and the choices
/// it offers.
public struct SequenceEvent: Hashable, Sendable {
    /// Where it stands on the overlay.
    public var side: SequenceSide
    /// The text as written: `{path}` shows the state's value at that path
    /// (`{players.p1.water}`; see `SequenceText`).
    public var text: String
    /// A file of the pack (`art/storm.svg`), or nil for none.
    public var image: String?
    /// How near it stands (default `near`).
    public var position: SequencePosition
    /// How it comes on screen (default `fade`).
    public var animation: SequenceAnimation
    /// The calls it offers (none: the player steps on).
    public var choices: [SequenceChoice]
    /// Where the event (its side's key), its text and its image are written.
    public var location: SourceLocation
    public var textLocation: SourceLocation
    public var imageLocation: SourceLocation?

    public init(side: SequenceSide, text: String, image: String? = nil, position: SequencePosition = .near,
                animation: SequenceAnimation = .fade, choices: [SequenceChoice] = [], location: SourceLocation,
                textLocation: SourceLocation? = nil, imageLocation: SourceLocation? = nil) {
        self.side = side
        self.text = text
        self.image = image
        self.position = position
        self.animation = animation
        self.choices = choices
        self.location = location
        self.textLocation = textLocation ?? location
        self.imageLocation = imageLocation
    }
}
