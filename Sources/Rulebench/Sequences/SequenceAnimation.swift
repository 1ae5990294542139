/// How an event comes on screen: the documented set (docs/sequences.md),
/// each with a fixed length so a host can time a step without guessing.
public enum SequenceAnimation: String, CaseIterable, Hashable, Sendable {
    /// No motion: the event is simply there.
    case none
    /// Fades in from transparent.
    case fade
    /// Slides in from its side's edge.
    case slide
    /// Drops in and bounces twice.
    case bounce
    /// Appears, then shakes side to side.
    case shake

    /// Seconds the animation lasts.
    public var seconds: Double {
        switch self {
        case .none: return 0
        case .fade: return 0.4
        case .slide: return 0.5
        case .bounce: return 0.7
        case .shake: return 0.6
        }
    }
}
