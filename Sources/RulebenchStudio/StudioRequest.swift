import Rulebench

/// One message a studio page sends over its WebSocket, read from its JSON text.
///
/// The wire form is an object with a `type` and the fields that type needs,
/// and an optional `id` the reply repeats:
/// `{"type": "perform", "call": "dash token=p1"}`, `{"type": "undo"}`, `{"type": "redo"}`,
/// `{"type": "undoTurn"}`, `{"type": "seek", "step": 12}`, `{"type": "save", "path": "game.json"}`
/// (with `"overwrite": true` to replace a file that is not a saved history; see `FolderSave`),
/// `{"type": "seat", "seat": "p2"}` (show the game as seat p2 sees it; `"seat": null`: the
/// author's view), `{"type": "bot", "seat": "o", "bot": "alphabeta:9", "seed": 7}` (a bot plays seat o
/// from now on, seeded: docs/bots.md; `"bot": null`: the page plays it again), `{"type": "sync"}` (send
/// the position again); with a level file open, `{"type": "level", "level": 2}` (set level 2 up),
/// `{"type": "solutionStep"}` (perform the next call of its stored solution) and `{"type": "levelList"}`
/// (the list, to the sender only). Anything else is a `StudioProtocolError`.
struct StudioRequest: Equatable {
    enum Command: Equatable {
        case perform(call: String)
        case undo
        case redo
        case undoTurn
        case seek(step: Int)
        case save(path: String, overwrite: Bool)
        /// Show the game as this seat sees it (nil: the author's view).
        case seat(String?)
        /// A bot plays `seat` (nil: the page does), its picks drawn from `seed`.
        case bot(seat: String, bot: Bot?, seed: UInt64)
        case sync
        /// Set up the level of this number (1-based) of the opened level file.
        case level(Int)
        /// Perform the next call of the level's stored solution.
        case solutionStep
        /// Send the opened level file's list of levels.
        case levelList
    }

    /// What to do.
    var command: Command
    /// The sender's number for this message, repeated in its reply (nil when it gave none).
    var id: Int64?

    /// The request a message's text holds.
    ///
    /// - Throws: `StudioProtocolError` saying what is wrong and what the message should look like.
    init(text: String) throws(StudioProtocolError) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(text)
        } catch {
            throw StudioProtocolError("the message is not JSON (\(error)); send an object such as {\"type\": \"undo\"}")
        }
        guard case .object = value else {
            throw StudioProtocolError("the message is not a JSON object; send an object such as {\"type\": \"undo\"}")
        }
        if case .int(let id)? = value["id"] { self.id = id }
        guard case .string(let type)? = value["type"] else {
            throw StudioProtocolError("the message has no \"type\" (one of \(StudioRequest.types))", id: id)
        }
        command = try StudioRequest.command(type, value, id: id)
    }

    static let types = "perform, undo, redo, undoTurn, seek, save, seat, bot, sync, level, solutionStep, levelList"

    private static func command(_ type: String, _ value: JSONValue, id: Int64?) throws(StudioProtocolError) -> Command {
        switch type {
        case "perform":
            guard case .string(let call)? = value["call"], !call.isEmpty else {
                throw StudioProtocolError("perform needs \"call\": the call as `play` prints it, e.g. \"dash token=p1\"", id: id)
            }
            return .perform(call: call)
        case "undo": return .undo
        case "redo": return .redo
        case "undoTurn": return .undoTurn
        case "sync": return .sync
        case "solutionStep": return .solutionStep
        case "levelList": return .levelList
        case "level":
            // Any integer the message held: the session checks it against the list before using it.
            guard case .int(let number)? = value["level"], let level = Int(exactly: number) else {
                throw StudioProtocolError("level needs \"level\": a whole number, the level's place in the file (1: the first)", id: id)
            }
            return .level(level)
        case "seat":
            switch value["seat"] {
            case nil, .null?: return .seat(nil)
            case .string(let seat)? where !seat.isEmpty: return .seat(seat)
            default: throw StudioProtocolError("seat's \"seat\" is a seat's name such as \"p2\", or null for the author's view", id: id)
            }
        case "bot": return try bot(value, id: id)
        case "seek":
            guard case .int(let step)? = value["step"], let position = Int(exactly: step) else {
                throw StudioProtocolError("seek needs \"step\": a whole number, the history position (0: after setup)", id: id)
            }
            return .seek(step: position)
        case "save":
            guard case .string(let path)? = value["path"], !path.isEmpty else {
                throw StudioProtocolError("save needs \"path\": the file to write, e.g. \"game.json\"", id: id)
            }
            switch value["overwrite"] {
            case nil, .bool(false)?: return .save(path: path, overwrite: false)
            case .bool(true)?: return .save(path: path, overwrite: true)
            default: throw StudioProtocolError("save's \"overwrite\" is true or false (true: replace a file that is not a saved history)", id: id)
            }
        default:
            throw StudioProtocolError("unknown message type '\(type)' (types: \(types))", id: id)
        }
    }

    /// `{"type": "bot", "seat": "o", "bot": "alphabeta:9", "seed": 7}`; `"bot": null` hands the seat back.
    private static func bot(_ value: JSONValue, id: Int64?) throws(StudioProtocolError) -> Command {
        guard case .string(let seat)? = value["seat"], !seat.isEmpty else {
            throw StudioProtocolError("bot needs \"seat\": the seat's name, such as \"o\"", id: id)
        }
        let seed: UInt64
        switch value["seed"] {
        case nil: seed = 0
        case .int(let n)? where n >= 0: seed = UInt64(n)
        default: throw StudioProtocolError("bot's \"seed\" is a whole number from 0 up", id: id)
        }
        switch value["bot"] {
        case nil, .null?: return .bot(seat: seat, bot: nil, seed: seed)
        case .string(let spec)?:
            guard let bot = Bot(spec: spec) else { throw StudioProtocolError("bot's \"bot\" is one of \(Bot.forms), or null", id: id) }
            return .bot(seat: seat, bot: bot, seed: seed)
        default: throw StudioProtocolError("bot's \"bot\" is one of \(Bot.forms), or null", id: id)
        }
    }
}
