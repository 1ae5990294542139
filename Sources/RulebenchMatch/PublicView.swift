import Rulebench

/// What every seat may see of a step: the spectators' plan and changes,
/// which no seat's secret reaches, derived here from the seats' views of
/// the step (`SeatStepView`) alone, never from the state:
///
/// - a plan's word is kept when every seat's view of the plan holds it,
///   and replaced (`?1`, `card:?2`: numbered in the order met, the part
///   before a name's last `:` kept when every seat keeps it) when any
///   seat's view of the plan differs there;
/// - a change of a step is public when every seat's view of the step lists
///   it alike (a table's hidden slots changed, a visible slot's values).
///
/// The spectators' view of the state and its hash are the engine's public
/// view (`Game.publicView()`: a slot `secrets` marks shows only when every
/// seat may see it, which is what every seat's view shows alike).
///
/// Invariant: every value here is a function of the seats' views, each of
/// which the engine proves holds nothing hidden from its seat; what all of
/// them agree on is what no seat is hidden.
public enum PublicView {
    /// The public changes of a step, from every seat's changes of it: those
    /// every seat's list holds alike, in the first seat's order.
    public static func changes(_ seatChanges: [[SeatChange]]) -> [SeatChange] {
        guard let first = seatChanges.first else { return [] }
        return first.filter { change in seatChanges.dropFirst().allSatisfy { $0.contains(change) } }
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
}
