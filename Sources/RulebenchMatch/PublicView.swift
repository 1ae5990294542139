import Rulebench

/// What every seat may see: a spectator's view, which no seat's secret
/// reaches. The engine gives one view per seat (`Game.view(as:)`, each
/// step's `SeatStepView`); the public view is their intersection, derived
/// here from those views alone, never from the state:
///
/// - a slot is shown when every seat's view shows it with the same value,
///   and is `SeatView.hidden` when any seat's view hides it or two seats
///   see it differently (a hand its owner sees and the others do not);
/// - a plan's word is kept when every seat's view of the plan holds it,
///   and replaced (`?1`, `card:?2`: numbered in the order met, the part
///   before a name's last `:` kept when every seat keeps it) when any
///   seat's view of the plan differs there;
/// - the hash is of the public view alone (`hash(of:)`).
///
/// Invariant: every value here is a function of the seats' views, each of
/// which the engine proves holds nothing hidden from its seat; what all of
/// them agree on is what no seat is hidden.
public enum PublicView {
    /// The public view of the state, from every seat's view of it.
    public static func state(_ views: [StateValue]) -> StateValue {
        guard let first = views.first else { return .string(SeatView.hidden) }
        if views.dropFirst().allSatisfy({ $0 == first }) { return first }
        let tables = views.compactMap { view -> [StateKey: StateValue]? in
            if case .table(let table) = view { return table }
            return nil
        }
        guard tables.count == views.count else { return .string(SeatView.hidden) }
        var keys = Set<StateKey>()
        for table in tables { keys.formUnion(table.keys) }
        var out: [StateKey: StateValue] = [:]
        for key in keys {
            let values = tables.compactMap { $0[key] }
            out[key] = values.count == tables.count ? state(values) : .string(SeatView.hidden)
        }
        return .table(out)
    }

    /// The public view of a step's plan, from every seat's view of the plan.
    public static func plan(_ plans: [StateValue]) -> StateValue {
        var names: [[String]: String] = [:]
        return plan(plans, names: &names)
    }

    private static func plan(_ plans: [StateValue], names: inout [[String]: String]) -> StateValue {
        guard let first = plans.first else { return .emptyTable }
        if plans.dropFirst().allSatisfy({ $0 == first }) { return first }
        let tables = plans.compactMap { plan -> [StateKey: StateValue]? in
            if case .table(let table) = plan { return table }
            return nil
        }
        if tables.count == plans.count {
            var out: [StateKey: StateValue] = [:]
            let keys = tables.reduce(into: Set<StateKey>()) { $0.formUnion($1.keys) }
            // Keys in a fixed order, so that the numbering is the same in every process.
            for key in keys.sorted() {
                let values = tables.compactMap { $0[key] }
                out[key] = values.count == tables.count ? plan(values, names: &names) : .string(placeholder(values, &names))
            }
            return .table(out)
        }
        return .string(placeholder(plans, &names))
    }

    /// The word a spectator sees where the seats' plans differ: one number
    /// for each different set of seats' words, the name's prefix kept when
    /// every seat's word has the same one.
    private static func placeholder(_ values: [StateValue], _ names: inout [[String]: String]) -> String {
        let words = values.map { value -> String in
            if case .string(let text) = value { return text }
            return JSONValue(value).serialized(pretty: false)
        }
        if let name = names[words] { return name }
        let prefixes = Set(words.map { word -> String in
            guard let colon = word.lastIndex(of: ":") else { return "" }
            return String(word[...colon])
        })
        let prefix = prefixes.count == 1 ? prefixes.first! : ""
        let name = prefix + "?\(names.count + 1)"
        names[words] = name
        return name
    }

    /// The hash of a public view: 128 bits (two FNV-1a lanes) of its JSON
    /// text, in hex. Derived from the public view alone, so it tells a
    /// spectator nothing the view does not.
    public static func hash(of view: StateValue) -> String {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x6c62_272e_07bb_0142
        for byte in JSONValue(view).serialized(pretty: false).utf8 {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 ^ (b >> 29)
        }
        return hex(a) + hex(b)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
