/// The kernel's seat calls (`Kernel/seats.lua`): the seats of the game,
/// a call performed as a seat, what each seat may do and see, and the
/// no-leak probe of one state.
extension Kernel {
    /// A perform as a seat: the perform's reply, and each seat's view of
    /// the step (seat -> its view hash, redacted plan, changes and barrier).
    struct SeatedPerformReply {
        let perform: PerformReply
        let views: [String: SeatStepView]
    }

    /// The game's seats, in the pack's order (empty when it declares none).
    func seats() throws(RulebenchError) -> [String] {
        try KernelReply(.seats, call(.seats).first ?? []).list().map { item throws(RulebenchError) in try item.string() }
    }

    /// Performs a call as `seat`: refused (a rejection, nothing changed)
    /// when the seat may not make it. One crossing.
    func perform(_ call: ActionCall, as seat: String) throws(RulebenchError) -> SeatedPerformReply {
        let reply = try positioned(.performAs, [Array(call.name.utf8), Wire.encode(call.params), Array(seat.utf8)])
        let strings = reply.strings
        guard strings.count == 4 else { throw KernelReply.mismatch(.performAs, "", "\(strings.count + 4) results, not 8") }
        let perform = PerformReply(hash: hash(strings), tree: strings[1], plan: strings[2], position: reply.position)
        var views: [String: SeatStepView] = [:]
        for (key, value) in try KernelReply(.performAs, strings[3], result: 4).entries() {
            views[key.description] = try SeatStepView(value)
        }
        return SeatedPerformReply(perform: perform, views: views)
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

    /// `seat`'s view of the state now.
    func view(of seat: String) throws(RulebenchError) -> SeatView {
        let reply = try KernelReply(.seatView, call(.seatView, [seat]).first ?? [])
        return SeatView(seat: seat, state: try reply.field("state").value, hash: try reply.string("hash"))
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
