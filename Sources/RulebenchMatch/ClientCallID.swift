/// The id a client gives each call it sends, so that a call resent after a
/// lost connection is answered again instead of performed again.
///
/// A seat's ids are its own: two seats may use the same id. An id is 1 to
/// `maximumLength` bytes of printable ASCII (no spaces), so it fits a log
/// line, a database key and a JSON string without escaping.
public struct ClientCallID: Hashable, Sendable, CustomStringConvertible {
    /// The longest id taken, in bytes.
    public static let maximumLength = 64

    /// The id's text.
    public let text: String

    /// An id as a client sent it; nil when it is empty, too long, or holds
    /// anything other than printable ASCII without spaces.
    public init?(_ text: String) {
        let bytes = text.utf8
        guard (1...ClientCallID.maximumLength).contains(bytes.count),
              bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        self.text = text
    }

    public var description: String { text }
}
