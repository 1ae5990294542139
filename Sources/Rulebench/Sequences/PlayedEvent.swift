/// An event of a played sequence, resolved for one state: its text filled
/// in, its image's path in the pack, its animation's length.
public struct PlayedEvent: Hashable, Sendable {
    public var side: SequenceSide
    /// The text with every `{path}` replaced by the state's value.
    public var text: String
    /// The image as the file names it (pack-relative), if any.
    public var image: String?
    /// Whether the pack (or a base it extends) has that image.
    public var imageFound: Bool
    public var position: SequencePosition
    public var animation: SequenceAnimation
    /// Seconds its animation lasts.
    public var seconds: Double { animation.seconds }
    /// The calls it offers.
    public var choices: [SequenceChoice]
}
