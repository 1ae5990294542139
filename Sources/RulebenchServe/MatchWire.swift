import Rulebench
import RulebenchMatch

/// The WebSocket protocol's messages as JSON (docs/multiplayer.md, "The
/// WebSocket protocol"): what a client sends, read and checked here, and
/// what the server sends, written here (a step's members by `StepWire`,
/// which a broadcast shares between connections). One place for the wire format.
///
/// What is never written: a record's `hash` (the full state's, derived from
/// secrets) and the state itself. A connection is sent only its own view
/// (`StepView`, `Match.view(as:)`): its seat's, or a spectator's public one.
enum MatchWire {
    /// A message a client sent, checked.
    enum Incoming {
        /// Bring the connection in step from version `since`, whose view hash it holds (when it says).
        case sync(since: Int, viewHash: String?)
        /// Perform a call (`id` the client's call id, `version` the one it last saw).
        case call(id: ClientCallID, version: Int, call: ActionCall)
        /// Take back the seat's own last call.
        case takeBack(id: ClientCallID, version: Int)
        /// Consent to another seat's takeback at `version`.
        case consent(version: Int)
    }

    /// A message that is not one of the protocol's: the words sent back in an `error`.
    struct Malformed: Error {
        let message: String
    }

    /// Reads one text message.
    static func read(_ text: String) throws(Malformed) -> Incoming {
        guard let message = try? JSONValue.parse(text), case .object = message else {
            throw Malformed(message: "a message is a JSON object such as {\"type\": \"sync\", \"since\": 0}")
        }
        guard case .string(let type)? = message["type"] else { throw Malformed(message: "a message names its \"type\"") }
        switch type {
        case "sync": return .sync(since: try count(message, "since"), viewHash: try viewHash(message))
        case "call":
            guard case .object(let call)? = message["call"], case .string(let name)? = JSONValue.object(call)["name"] else {
                throw Malformed(message: "a call message holds \"call\": {\"name\": ..., \"params\": {...}}")
            }
            var params: [String: StateValue] = [:]
            if let given = JSONValue.object(call)["params"] {
                guard case .object(let members) = given else { throw Malformed(message: "\"params\" is an object") }
                for (key, value) in members {
                    guard let state = value.stateValue else { throw Malformed(message: "param \(key.prefix(40)) is not a state value") }
                    params[key] = state
                }
            }
            return .call(id: try callID(message), version: try count(message, "version"), call: ActionCall(name, params))
        case "takeback": return .takeBack(id: try callID(message), version: try count(message, "version"))
        case "consent": return .consent(version: try count(message, "version"))
        default: throw Malformed(message: "no message type \(type.prefix(40)) (sync, call, takeback, consent)")
        }
    }

    private static func count(_ message: JSONValue, _ key: String) throws(Malformed) -> Int {
        guard case .int(let value)? = message[key], value >= 0, value <= Int64(Int32.max) else {
            throw Malformed(message: "\"\(key)\" is a whole number from 0 to \(Int32.max)")
        }
        return Int(value)
    }

    /// A view hash a client says it holds: 1 to 64 hex digits, or absent.
    private static func viewHash(_ message: JSONValue) throws(Malformed) -> String? {
        guard let given = message["viewHash"] else { return nil }
        guard case .string(let text) = given, (1...64).contains(text.utf8.count), text.allSatisfy(\.isHexDigit) else {
            throw Malformed(message: "\"viewHash\" is the view hash the client holds: 1 to 64 hex digits")
        }
        return text
    }

    private static func callID(_ message: JSONValue) throws(Malformed) -> ClientCallID {
        guard case .string(let text)? = message["id"], let id = ClientCallID(text) else {
            throw Malformed(message: "\"id\" is the client's call id: 1 to \(ClientCallID.maximumLength) printable ASCII characters, no spaces")
        }
        return id
    }

    // MARK: What the server sends

    static func text(_ type: String, _ members: [(String, JSONValue)]) -> String {
        JSONValue.object([("type", .string(type))] + members).serialized(pretty: false)
    }

    /// A message whose members are written already (`StepWire`'s texts):
    /// `{"type":..,` then each member's name and text, in order.
    static func text(_ type: String, written members: [(String, String)]) -> String {
        var out = "{\"type\":"
        JSONValue.compact(string: type, into: &out)
        for (name, text) in members {
            out += ","
            JSONValue.compact(string: name, into: &out)
            out += ":" + text
        }
        return out + "}"
    }

    static func error(_ message: String) -> String {
        text("error", [("message", .string(message))])
    }
}
