// What a fuzz finding blames: the action or subaction path (or the
// invariant), and the line of Lua. Invariant: `description` is the one text
// form (reports, reproduction headers, `fuzz --json`'s `blame`), and
// `init(text:)` reads every text `description` writes back to the same value.

/// The blamed action and Lua line of a finding.
public struct Blame: Hashable, Sendable, CustomStringConvertible {
    /// The blamed action or subaction path (`deal > draw`), or invariant
    /// (`invariant name`); empty when only the line is known.
    public var action: String
    /// The blamed line of Lua, when known.
    public var location: SourceLocation?
    /// Whether `location` is the action's own `undo` (an undo that did not
    /// restore the state), rather than where an error was raised.
    public var inUndo: Bool

    /// A blame from its parts.
    public init(action: String, location: SourceLocation? = nil, inUndo: Bool = false) {
        self.action = action
        self.location = location
        self.inUndo = inUndo
    }

    /// "ACTION (undo at FILE:LINE)", "ACTION at FILE:LINE" (errors and
    /// invariants) or "ACTION".
    public var description: String {
        guard let location else { return action }
        return inUndo ? "\(action) (undo at \(location))" : "\(action) at \(location)"
    }

    /// A blame read from its text (`description`'s three shapes); text in
    /// none of them is all action.
    public init(text: String) {
        self.init(action: text)
        if text.hasSuffix(")"), let open = text.range(of: " (undo at ", options: .backwards),
           let location = Self.location(text[open.upperBound..<text.index(before: text.endIndex)]) {
            (action, self.location, inUndo) = (String(text[..<open.lowerBound]), location, true)
        } else if let at = text.range(of: " at ", options: .backwards), let location = Self.location(text[at.upperBound...]) {
            (action, self.location) = (String(text[..<at.lowerBound]), location)
        }
    }

    /// "FILE:LINE" (or "FILE:LINE:COL"), as `SourceLocation` prints it, when
    /// it prints back to the same text.
    private static func location(_ text: Substring) -> SourceLocation? {
        guard let colon = text.lastIndex(of: ":"), colon != text.startIndex else { return nil }
        let line = text[text.index(after: colon)...]
        guard !line.isEmpty, line.allSatisfy(\.isASCII), line.allSatisfy(\.isNumber),
              let location = SourceLocation(String(text)), location.description == text else { return nil }
        return location
    }
}
