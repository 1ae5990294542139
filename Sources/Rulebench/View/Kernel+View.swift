// The kernel's view calls (Kernel/view.lua), typed. Both run rule code
// read-only under the budget, as `render` does, and leave nothing pending.

extension Kernel {
    /// The scene of the current state; nil when the pack declares no view.
    func scene() throws(RulebenchError) -> Scene? {
        let bytes = try call(.scene).first ?? []
        if bytes.isEmpty { return nil }   // the pack declares no view
        return try Scene(kernelReply: KernelReply(.scene, bytes))
    }

    /// The places `view.places` gives for tween values on the current state,
    /// one per request (nil where the view maps no such property).
    func places(_ requests: [PlaceRequest]) throws(RulebenchError) -> [StateValue?] {
        guard !requests.isEmpty else { return [] }
        let list = StateValue.list(requests.map { request in
            var fields: [StateKey: StateValue] = [.string("target"): .string(request.target),
                                                   .string("property"): .string(request.property)]
            if let value = request.value { fields[.string("value")] = value }
            return .table(fields)
        })
        let items = try KernelReply(.viewPlaces, try call(.viewPlaces, [Wire.encode(list)]).first ?? []).list()
        guard items.count == requests.count else {
            throw KernelReply.mismatch(.viewPlaces, "", "\(items.count) places for \(requests.count) requests")
        }
        // `false` stands for "no place" in the kernel's list (a Lua list cannot hold nil).
        return items.map { $0.value.boolValue == nil ? $0.value : nil }
    }
}
