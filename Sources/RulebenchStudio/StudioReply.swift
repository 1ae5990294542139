import Rulebench

/// A message for the page that sent a request (never broadcast): an error
/// (a malformed message, a rejected call, a failed undo) or what a save wrote.
///
/// Wire form: `{"type": "error", "kind": "malformed" | "rejected" | "failed", "message": "...", "id": N}`
/// and `{"type": "saved", "path": "...", "steps": N, "id": N}`.
enum StudioReply: Equatable {
    /// Why an error happened, so a page can tell its user what to change.
    enum ErrorKind: String {
        /// The message itself could not be read.
        case malformed
        /// The pack refused the call (its reason is the message).
        case rejected
        /// The engine could not do it (nothing to undo, a redo that differs, a file that cannot be written).
        case failed
    }

    case error(ErrorKind, message: String, id: Int64?)
    case saved(path: String, steps: Int, id: Int64?)

    /// The reply to a message that could not be read.
    init(_ error: StudioProtocolError) {
        self = .error(.malformed, message: error.description, id: error.id)
    }

    /// The JSON text sent over the socket.
    var text: String {
        switch self {
        case .error(let kind, let message, let id):
            return Self.object([("type", .string("error")), ("kind", .string(kind.rawValue)), ("message", .string(message))], id: id)
        case .saved(let path, let steps, let id):
            return Self.object([("type", .string("saved")), ("path", .string(path)), ("steps", .int(Int64(steps)))], id: id)
        }
    }

    private static func object(_ members: [(String, JSONValue)], id: Int64?) -> String {
        JSONValue.object(members + (id.map { [("id", JSONValue.int($0))] } ?? [])).serialized(pretty: false)
    }
}
