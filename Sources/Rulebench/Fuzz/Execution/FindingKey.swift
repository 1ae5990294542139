// Which bug a finding is: the key fuzz sessions deduplicate by and the
// shrinker stays on. Invariant: two findings of the same property blamed on
// the same Lua line are one bug, whatever action path led there.

/// Which bug a finding is: the failed property, the blamed action path and
/// the Lua file:line to blame. Two findings with the same key are reported
/// once (`fuzz --keep-going`), and the shrinker keeps a candidate only when
/// it fails at the same place, so that shrinking cannot slip to another bug.
public struct FindingKey: Hashable, Sendable, CustomStringConvertible {
    /// The property that failed.
    public var property: FuzzFinding.Property
    /// The blamed action or subaction path (`deal > draw`), or invariant (`invariant name`), when known.
    public var action: String?
    /// The blamed Lua file:line, when known.
    public var location: String?

    /// A key from its parts.
    public init(property: FuzzFinding.Property, action: String?, location: String?) {
        self.property = property
        self.action = action
        self.location = location
    }

    /// The key of a finding: its property and the parts of its blame (an
    /// empty action path is none).
    public init(_ finding: FuzzFinding) {
        property = finding.property
        guard let blamed = finding.blamed else { return }
        action = blamed.action.isEmpty ? nil : blamed.action
        location = blamed.location?.description
    }

    /// Whether `other` is the same bug as the finding this key was made
    /// from, for shrinking: the same property and the same blamed line
    /// (the action path may change: a bug in `draw`'s undo is the same
    /// whether `draw` ran alone or inside `deal`); without a line, the same
    /// blamed action.
    public func admits(_ other: FuzzFinding) -> Bool {
        let key = FindingKey(other)
        guard key.property == property else { return false }
        if let location { return key.location == location }
        if let action { return key.action == action }
        return true
    }

    /// "PROPERTY in ACTION at FILE:LINE", for messages.
    public var description: String {
        property.rawValue + (action.map { " in \($0)" } ?? "") + (location.map { " at \($0)" } ?? "")
    }
}
