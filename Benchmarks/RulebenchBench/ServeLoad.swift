import Foundation
import Rulebench

/// The clients of row (13) (`ServeLoadBench` says what is measured): a
/// slot per concurrent match, two sockets in each, polled by one thread.
/// A slot whose game ended is handed to a second thread that creates,
/// joins and connects a new match in its place.
struct ServeLoad {
    struct Result {
        var latencies: [Double] = []
        var elapsed = 0.0
        /// Calls answered `refused`, `stale` or `error`, or whose socket closed before both steps came.
        var failures = 0
        /// Calls sent and not yet answered to both clients when the time was up.
        var inFlight = 0
        var replaced = 0
    }

    /// One match being played and its two clients.
    private final class Slot {
        let match: Int64
        let sockets: [LoadSocket]
        static let seats = ["p1", "p2"]
        var legal: [[JSONValue]] = [[], []]
        var synced = [false, false]
        /// Whether the refill thread is making the match that takes this slot's place.
        var replacing = false
        var version = 0
        /// The call in flight: the version it makes, when it was sent, which clients hold its step.
        var pending: (version: Int, sent: UInt64, held: [Bool])?
        var due: UInt64 = 0
        var random: UInt64

        init(match: Int64, sockets: [LoadSocket]) {
            self.match = match
            self.sockets = sockets
            random = UInt64(match) &* 0x9E37_79B9_7F4A_7C15 | 1
        }

        /// The next number of the slot's fixed-seed generator (xorshift).
        func next() -> Int {
            random ^= random << 13
            random ^= random >> 7
            random ^= random << 17
            return Int(random >> 1)
        }
    }

    let server: ServeProcess
    let matches: Int
    let interval: UInt64
    private var slots: [Slot] = []
    private var created = 0
    private let refills = RefillQueue()

    init(server: ServeProcess, matches: Int, offered: Double) {
        self.server = server
        self.matches = matches
        interval = UInt64(Double(matches) / offered * 1e9)
    }

    /// Creates, joins and connects every match, and waits until each client is synced.
    mutating func fill() throws {
        for _ in 0..<matches { slots.append(try Self.newSlot(server, seed: created)); created += 1 }
        let deadline = DispatchTime.now().uptimeNanoseconds + 60_000_000_000
        var result = Result()
        while slots.contains(where: { $0.synced.contains(false) }), DispatchTime.now().uptimeNanoseconds < deadline {
            pollOnce(until: DispatchTime.now().uptimeNanoseconds + 10_000_000, &result)
        }
        guard !slots.contains(where: { $0.synced.contains(false) }) else { throw LoadSocket.Failure(description: "clients not synced in 60 s") }
    }

    /// Plays for `seconds`: each slot calls at its pace; the calls' times, the failures, the games replaced.
    mutating func run(seconds: Double) throws -> Result {
        var result = Result()
        let start = DispatchTime.now().uptimeNanoseconds
        let end = start + UInt64(seconds * 1e9)
        for (index, slot) in slots.enumerated() { slot.due = start + interval * UInt64(index) / UInt64(slots.count) }
        var now = start
        while now < end {
            for (index, slot) in slots.enumerated() where slot.pending == nil && slot.due <= now && !slot.synced.contains(false) {
                if !call(slot, now: now) { replace(index, &result) }
            }
            for (index, slot) in refills.take() { slots[index] = slot }
            let wake = slots.filter { $0.pending == nil && !$0.synced.contains(false) }.map(\.due).min() ?? (now + 5_000_000)
            pollOnce(until: min(max(wake, now + 200_000), now + 5_000_000, end), &result)
            now = DispatchTime.now().uptimeNanoseconds
        }
        result.elapsed = Double(now - start) / 1e9
        result.inFlight = slots.filter { $0.pending != nil }.count
        refills.stop()
        return result
    }

    /// Sends a legal call of one of the slot's seats; false when neither has one (the game is over).
    private func call(_ slot: Slot, now: UInt64) -> Bool {
        let seats = (0..<2).filter { !slot.legal[$0].isEmpty }
        guard !seats.isEmpty else { return false }
        let seat = seats[slot.next() % seats.count]
        let call = slot.legal[seat][slot.next() % slot.legal[seat].count]
        let message = JSONValue.object([("type", .string("call")), ("id", .string("b\(slot.version + 1)")),
                                        ("version", .int(Int64(slot.version))), ("call", call)])
        slot.pending = (slot.version + 1, now, [false, false])
        slot.due = now + interval
        return slot.sockets[seat].send(message.serialized(pretty: false))
    }

    /// Waits for any socket until `until` (nanoseconds, uptime) and reads every message that came.
    private mutating func pollOnce(until: UInt64, _ result: inout Result) {
        let polled = slots.indices.filter { !slots[$0].replacing }
        var descriptors = polled.flatMap { slots[$0].sockets.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) } }
        let now = DispatchTime.now().uptimeNanoseconds
        let timeout = until > now ? Int32((until - now + 999_999) / 1_000_000) : 0
        guard poll(&descriptors, nfds_t(descriptors.count), timeout) > 0 else { return }
        for (position, ready) in descriptors.enumerated() where ready.revents != 0 {
            let index = polled[position / 2], seat = position % 2, slot = slots[index]
            guard !slot.replacing else { continue }
            let open = slot.sockets[seat].readAvailable()
            while let text = slot.sockets[seat].nextMessage() { receive(text, slot: slot, seat: seat, &result) }
            if !open {
                if slot.pending != nil { result.failures += 1 }
                slot.pending = nil
                replace(index, &result)
            }
        }
    }

    private func receive(_ text: String, slot: Slot, seat: Int, _ result: inout Result) {
        guard let message = try? JSONValue.parse(text), case .string(let type)? = message["type"] else { return }
        if case .array(let calls)? = message["legal"] { slot.legal[seat] = calls }
        switch type {
        case "synced":
            if case .int(let version)? = message["version"] { slot.version = Int(version) }
            slot.synced[seat] = true
        case "accepted", "step":
            guard case .int(let version)? = message["step"]?["version"], var pending = slot.pending, Int(version) == pending.version else { return }
            pending.held[seat] = true
            slot.pending = pending
            guard !pending.held.contains(false) else { return }
            result.latencies.append(Double(DispatchTime.now().uptimeNanoseconds - pending.sent) / 1e9)
            slot.version = pending.version
            slot.pending = nil
        case "refused", "stale", "error":
            if slot.pending != nil { result.failures += 1 }
            slot.pending = nil
            slot.legal = [[], []]
        default:
            break
        }
    }

    /// Hands slot `index` to the refill thread: a new match is made in its place.
    private mutating func replace(_ index: Int, _ result: inout Result) {
        let seed = created
        created += 1
        result.replaced += 1
        slots[index].replacing = true
        slots[index].synced = [false, false]
        let server = self.server
        refills.add(index) { try Self.newSlot(server, seed: seed) }
    }

    /// A new desert match of two seats, both joined and connected, each client asking for a sync.
    private static func newSlot(_ server: ServeProcess, seed: Int) throws -> Slot {
        let listing = try server.post("/api/matches", .object([("pack", .string("desert")), ("options", .object([("players", .int(2))])),
                                                              ("seed", .int(Int64(seed))), ("seats", .array(Slot.seats.map { .string($0) }))]))
        guard case .int(let match)? = listing["id"] else { throw LoadSocket.Failure(description: "no match id in \(listing)") }
        var sockets: [LoadSocket] = []
        for seat in Slot.seats {
            let joined = try server.post("/api/matches/\(match)/join", .object([("seat", .string(seat))]))
            guard case .string(let credential)? = joined["credential"] else { throw LoadSocket.Failure(description: "no credential in \(joined)") }
            let socket = try LoadSocket(port: server.port,
                                        target: "/api/matches/\(match)/socket?token=\(server.token)&seat=\(seat)&credential=\(credential)")
            socket.send(#"{"type": "sync", "since": 0}"#)
            sockets.append(socket)
        }
        return Slot(match: match, sockets: sockets)
    }

    /// The refill thread's work: new slots made one at a time, handed back to the polling thread.
    private final class RefillQueue: @unchecked Sendable {
        private let lock = NSLock()
        private var ready: [(Int, Slot)] = []
        private let queue = DispatchQueue(label: "rulebench-bench refill")
        private var stopped = false

        func add(_ index: Int, _ make: @escaping @Sendable () throws -> Slot) {
            queue.async { [self] in
                guard !lock.withLock({ stopped }), let slot = try? make() else { return }
                lock.withLock { ready.append((index, slot)) }
            }
        }

        func take() -> [(Int, Slot)] {
            lock.withLock {
                defer { ready = [] }
                return ready
            }
        }

        func stop() { lock.withLock { stopped = true } }
    }
}
