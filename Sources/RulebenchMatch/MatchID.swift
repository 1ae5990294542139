/// A match's number in its store: positive, given by the store when the
/// match is created, never reused.
public struct MatchID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number (at least 1).
    public let value: Int64

    /// A match number as a store or a client gives it: nil unless it is at least 1.
    public init?(_ value: Int64) {
        guard value >= 1 else { return nil }
        self.value = value
    }

    public static func < (lhs: MatchID, rhs: MatchID) -> Bool { lhs.value < rhs.value }

    /// `match 12`.
    public var description: String { "match \(value)" }
}
