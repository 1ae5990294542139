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

    /// The key of a finding, read from its blame.
    ///
    /// `FuzzFinding` carries its blame as one text, written by the executor
    /// in one of three shapes: "ACTION (undo at FILE:LINE)", "ACTION at
    /// FILE:LINE" (errors and invariants) or "ACTION". This is the one place
    /// that reads it back; when findings carry the two parts separately,
    /// only this initializer changes.
    public init(_ finding: FuzzFinding) {
        property = finding.property
        guard let blame = finding.blame, !blame.isEmpty else { return }
        if blame.hasSuffix(")"), let open = blame.range(of: " (undo at ", options: .backwards) {
            action = String(blame[..<open.lowerBound])
            location = String(blame[open.upperBound..<blame.index(before: blame.endIndex)])
        } else if let at = blame.range(of: " at ", options: .backwards), Self.isLocation(blame[at.upperBound...]) {
            action = String(blame[..<at.lowerBound])
            location = String(blame[at.upperBound...])
        } else {
            action = blame
        }
        if action?.isEmpty == true { action = nil }
    }

    /// "FILE:LINE", as `SourceLocation` prints it.
    private static func isLocation(_ text: Substring) -> Bool {
        guard let colon = text.lastIndex(of: ":"), colon != text.startIndex else { return false }
        let line = text[text.index(after: colon)...]
        return !line.isEmpty && line.allSatisfy(\.isNumber)
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
