/// A studio message that cannot be read: not JSON, not an object, an unknown
/// type or a missing field. The server answers it with an error reply and
/// goes on serving the next message.
struct StudioProtocolError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, and what to send instead.
    var description: String
    /// The id the message gave, when it could be read.
    var id: Int64?

    init(_ description: String, id: Int64? = nil) {
        self.description = description
        self.id = id
    }
}
