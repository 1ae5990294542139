// The kernel's view calls (Kernel/view.lua), typed. Both run rule code
// read-only under the budget, as `render` does, and leave nothing pending.

extension Kernel {
    /// The scene of the current state; nil when the pack declares no view.
    func scene() throws(RulebenchError) -> Scene? {
        let reply = try user("scene", [])
        guard let bytes = reply.first, !bytes.isEmpty, let value = decode(bytes) else { return nil }
        return Scene(kernelReply: value)
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
        let items = decode(try user("viewplaces", [Wire.encode(list)]).first)?.listItems ?? []
        return requests.indices.map { index in
            index < items.count && items[index].boolValue == nil ? items[index] : nil
        }
    }
}
