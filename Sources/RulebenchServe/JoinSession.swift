import Foundation
import Rulebench

/// What `rulebench join` keeps while it runs: the socket, the last version
/// it saw, and how many of its messages the server has answered. The reading
/// thread prints and counts; the main thread sends one message at a time
/// and waits for its answer (bounded by the socket's receive timeout).
final class JoinSession: @unchecked Sendable {
    private let socket: BlockingWebSocket
    private let seat: String?
    private let condition = NSCondition()
    private var sent = 0
    private var answered = 0
    private var version = 0
    private(set) var isOpen = true
    /// A prefix no other run of the client has used: client call ids must be new for each call of a seat.
    private let idPrefix = "j" + String(UInt32.random(in: .min ... .max), radix: 16)
    private var nextID = 0

    init(socket: BlockingWebSocket, seat: String?) {
        self.socket = socket
        self.seat = seat
    }

    /// Prints each message the server sends, until it closes (or is silent past the timeout).
    func readUntilClosed() {
        while let text = socket.receive() {
            // The version is followed before the line is printed: a script that reads the line and
            // answers it (`consent`, a typed call) is sent at the version the line brought.
            condition.withLock { note(text) }
            self.print(text)
            condition.withLock { condition.broadcast() }
        }
        condition.withLock {
            isOpen = false
            condition.broadcast()
        }
    }

    /// Counts the server's answers and follows the version (called under the lock).
    private func note(_ text: String) {
        guard let message = try? JSONValue.parse(text), case .string(let type)? = message["type"] else { return }
        if case .int(let seen)? = message["step"]?["version"] { version = max(version, Int(seen)) }
        switch type {
        case "view":
            // The whole view: the client is at its version (which may be behind what it held, on another server's data).
            if case .int(let reached)? = message["version"] { version = Int(reached) }
        case "synced":
            if case .int(let reached)? = message["version"] { version = max(version, Int(reached)) }
            answered += 1
        case "accepted", "stale", "refused", "error": answered += 1
        case "consent": if message["seat"] == .string(seat ?? "") { answered += 1 }
        default: break
        }
    }

    /// Sends one message, then waits until the server answered every message sent.
    func send(_ text: String) {
        condition.withLock { sent += 1 }
        guard socket.send(text) else { return }
        waitForAnswers()
    }

    func waitForAnswers() {
        condition.withLock {
            while isOpen, answered < sent { condition.wait() }
        }
    }

    /// The protocol message a line of standard input means, or why it means none.
    func message(for line: String) -> Result<String, MatchWire.Malformed> {
        if line.hasPrefix("{") { return .success(line) }
        let (id, version) = condition.withLock { () -> (String, Int) in
            nextID += 1
            return ("\(idPrefix)-\(nextID)", self.version)
        }
        var members: [(String, JSONValue)] = [("id", .string(id)), ("version", .int(Int64(version)))]
        switch line {
        case "takeback": members.insert(("type", .string("takeback")), at: 0)
        case "consent": members = [("type", .string("consent")), ("version", .int(Int64(version)))]
        default:
            do {
                let call = try TypedCall.call(line)
                members.insert(("type", .string("call")), at: 0)
                members.append(("call", .object([("name", .string(call.name)),
                                                 ("params", .object(call.params.sorted { $0.key < $1.key }.map { ($0.key, JSONValue($0.value)) }))])))
            } catch {
                return .failure(MatchWire.Malformed(message: "\(line.prefix(80)): \(error)"))
            }
        }
        return .success(JSONValue.object(members).serialized(pretty: false))
    }

    /// One line on standard output, written at once.
    func print(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
