/// The kernel's seat calls (`Kernel/seats.lua`): the seats of the game,
/// a call performed as a seat, what each seat may do and see, and the
/// no-leak probe of one state.
extension Kernel {
    /// A perform as a seat: the perform's reply, the step's players' undo
    /// barrier, and (when asked for) each seat's view of the step (seat ->
    /// its view hash, redacted plan, changes and barrier).
    struct SeatedPerformReply {
        let perform: PerformReply
        let barrier: String?
        let views: [String: SeatStepView]
    }

    /// The game's seats, in the pack's order (empty when it declares none).
    func seats() throws(RulebenchError) -> [String] {
        try KernelReply(.seats, call(.seats).first ?? []).list().map { item throws(RulebenchError) in try item.string() }
    }

    /// Performs a call as `seat`: refused (a rejection, nothing changed)
    /// when the seat may not make it; with each seat's view of the step
    /// when `views`. One crossing.
    func perform(_ call: ActionCall, as seat: String, views: Bool) throws(RulebenchError) -> SeatedPerformReply {
        let reply = try positioned(.performAs, [Array(call.name.utf8), Wire.encode(call.params), Array(seat.utf8),
                                                Array((views ? "1" : "0").utf8)])
        let strings = reply.strings
        guard strings.count == 5 else { throw Kernel.replyMismatch(.performAs, "", "\(strings.count + 5) results, not 10") }
        let perform = PerformReply(hash: hash(strings), tree: strings[1], plan: strings[2], position: reply.position)
        let barrier = String(decoding: strings[3], as: UTF8.self)
        var seen: [String: SeatStepView] = [:]
        if views {
            // A seat whose view is an earlier seat's (seats.lua's `twinof`) is sent as that seat's name: decoded once.
            var twins: [(seat: String, of: String)] = []
            for (key, value) in try KernelReply(.performAs, strings[4], result: 5).entries() {
                if let twin = try value.optionalString("twin") {
                    twins.append((key.description, twin))
                } else {
                    seen[key.description] = try SeatStepView(value)
                }
            }
            for twin in twins {
                guard let view = seen[twin.of] else {
                    throw Kernel.replyMismatch(.performAs, "", "seat \(twin.seat)'s view is seat \(twin.of)'s, which the reply lacks")
                }
                seen[twin.seat] = view
            }
        }
        return SeatedPerformReply(perform: perform, barrier: barrier.isEmpty ? nil : barrier, views: seen)
    }

    /// The legal calls `seat` may make now.
    func legal(as seat: String) throws(RulebenchError) -> [ActionCall] {
        try Kernel.calls(KernelReply(.legalAs, call(.legalAs, [seat]).first ?? []))
    }

    /// Why `seat` may not make `call` now (nil when it may).
    func refusal(_ call: ActionCall, as seat: String) throws(RulebenchError) -> String? {
        let text = String(decoding: try self.call(.refusal, [Array(call.name.utf8), Wire.encode(call.params), Array(seat.utf8)])
            .first ?? [], as: UTF8.self)
        return text.isEmpty ? nil : text
    }

    /// The legal calls of every seat now (the pack's legal run once).
    func legalBySeat() throws(RulebenchError) -> [String: [ActionCall]] {
        var out: [String: [ActionCall]] = [:]
        for (key, value) in try KernelReply(.legalBySeat, call(.legalBySeat).first ?? []).entries() {
            out[key.description] = try Kernel.calls(value)
        }
        return out
    }

    /// `seat`'s view of the state now ("": the public view).
    func view(of seat: String) throws(RulebenchError) -> SeatView {
        let reply = try KernelReply(.seatView, call(.seatView, [seat]).first ?? [])
        return SeatView(seat: seat, state: try reply.field("state").value, hash: try reply.string("hash"))
    }

    /// The hash of `seat`'s view now ("": the public view's), without the view.
    func viewHash(of seat: String) throws(RulebenchError) -> String {
        String(decoding: try call(.viewHash, [seat]).first ?? [], as: UTF8.self)
    }

    /// `seat`'s scene: the pack's view with what is secret from the seat
    /// redacted; nil when the pack declares no view.
    func scene(as seat: String) throws(RulebenchError) -> Scene? {
        let bytes = try call(.seatScene, [seat]).first ?? []
        if bytes.isEmpty { return nil }
        return try Scene(kernelReply: KernelReply(.seatScene, bytes))
    }

    /// The no-leak probe of the current state for `seat` (nil: nothing leaked).
    func leakProbe(_ seat: String, salt: Int) throws(RulebenchError) -> SeatLeak? {
        try leak(.leakProbe, call(.leakProbe, [seat, String(salt)]).first ?? [])
    }

    /// The no-leak probe of a step from the current state for `seat` (nil: nothing leaked).
    func stepProbe(_ seat: String, _ step: ActionCall, salt: Int) throws(RulebenchError) -> SeatLeak? {
        let arguments = [Array(seat.utf8), Array(step.name.utf8), Wire.encode(step.params), Array(String(salt).utf8)]
        return try leak(.stepProbe, call(.stepProbe, arguments).first ?? [])
    }

    private func leak(_ entry: KernelEntry, _ bytes: [UInt8]) throws(RulebenchError) -> SeatLeak? {
        if bytes.isEmpty { return nil }
        let reply = try KernelReply(entry, bytes)
        return SeatLeak(seat: try reply.string("seat"), shown: try reply.field("what").decode(SeatLeak.Shown.self),
                        slots: try reply.field("slots").list().map { item throws(RulebenchError) in try item.string() },
                        line: try reply.optionalString("line"))
    }
}
