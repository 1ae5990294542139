/// Where on the overlay an event of a step stands: a step holds at most
/// one event at each side, written as the step's key (`left:`, `right:`).
public enum SequenceSide: String, CaseIterable, Hashable, Sendable {
    case left
    case center
    case right
}
