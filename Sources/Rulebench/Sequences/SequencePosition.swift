/// How far from the viewer an event's image stands: `near` (large, in
/// front), `far` (small, behind) or `off` (not shown: the text alone).
public enum SequencePosition: String, CaseIterable, Hashable, Sendable {
    case near
    case far
    case off
}
