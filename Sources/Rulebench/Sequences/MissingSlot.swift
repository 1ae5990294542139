/// A state slot a sequence's text reads that the state does not hold:
/// the text shows `{path?}` there.
public struct MissingSlot: Hashable, Sendable, CustomStringConvertible {
    /// The dotted path as the text writes it.
    public var path: String
    /// Where the text is written.
    public var location: SourceLocation

    public init(path: String, location: SourceLocation) {
        self.path = path
        self.location = location
    }

    /// `file:line: the text reads {path}, which the state does not have`.
    public var description: String { "\(location): the text reads {\(path)}, which the state does not have" }
}
