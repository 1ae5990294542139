import Rulebench

/// A step as the WebSocket protocol writes it (docs/multiplayer.md, "The
/// WebSocket protocol"): `{"version", "seat", "id", "call" | "takeback"}`
/// and, with the audience's view, `"viewHash", "plan", "changes",
/// "barrier"`. `json` builds it as a JSON value (a step sent alone: a
/// resent call, a sync); a value of this type writes one step's text for
/// every audience of a broadcast, each part once: the record's members
/// once, and a plan or a changes list once for every audience whose view
/// holds it alike (the seats' views of a step that touched no secret). The
/// text is `json`'s, byte for byte.
///
/// Invariant: an audience's text is a function of the record and its own
/// view alone; a part is shared only between views holding equal values.
public struct StepWire {
    /// The record's members, written: `{"version":..,"seat":..,"id":..,"call":..`.
    private let head: String
    /// The plans and changes lists written so far, with their text.
    private var plans: [(value: StateValue, text: String)] = []
    private var changeLists: [(value: [SeatChange], text: String)] = []

    public init(_ record: MatchRecord) {
        var head = "{\"version\":" + String(record.version) + ",\"seat\":"
        JSONValue.compact(string: record.seat, into: &head)
        head += ",\"id\":"
        JSONValue.compact(string: record.clientCallID.text, into: &head)
        switch record.step {
        case .call(let call):
            head += ",\"call\":"
            Self.write(call, into: &head)
        case .takeback(let version):
            head += ",\"takeback\":" + String(version)
        }
        self.head = head
    }

    /// The step's text as an audience with `view` sees it (`json(record, view)` serialized).
    public mutating func text(_ view: StepView?) -> String {
        guard let view else { return head + "}" }
        var out = head + ",\"viewHash\":"
        JSONValue.compact(string: view.viewHash, into: &out)
        if let plan = view.plan {
            out += ",\"plan\":"
            if let known = plans.first(where: { $0.value == plan }) {
                out += known.text
            } else {
                var text = ""
                JSONValue.compact(plan, into: &text)
                plans.append((plan, text))
                out += text
            }
        }
        if let changes = view.changes {
            out += ",\"changes\":"
            if let known = changeLists.first(where: { $0.value == changes }) {
                out += known.text
            } else {
                var text = "["
                for (index, change) in changes.enumerated() {
                    if index > 0 { text += "," }
                    text += "{\"path\":"
                    JSONValue.compact(string: change.path, into: &text)
                    if let before = change.before {
                        text += ",\"before\":"
                        JSONValue.compact(before, into: &text)
                    }
                    if let after = change.after {
                        text += ",\"after\":"
                        JSONValue.compact(after, into: &text)
                    }
                    text += "}"
                }
                text += "]"
                changeLists.append((changes, text))
                out += text
            }
        }
        out += view.barrier ? ",\"barrier\":true}" : ",\"barrier\":false}"
        return out
    }

    /// A list of calls as the protocol writes them (`legal`), the text of `.array(calls.map(json))`.
    public static func text(_ calls: [ActionCall]) -> String {
        var out = "["
        for (index, call) in calls.enumerated() {
            if index > 0 { out += "," }
            write(call, into: &out)
        }
        return out + "]"
    }

    /// `{"name":..,"params":{..}}`, the params in key order.
    private static func write(_ call: ActionCall, into out: inout String) {
        out += "{\"name\":"
        JSONValue.compact(string: call.name, into: &out)
        out += ",\"params\":{"
        for (index, param) in call.params.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { out += "," }
            JSONValue.compact(string: param.key, into: &out)
            out += ":"
            JSONValue.compact(param.value, into: &out)
        }
        out += "}}"
    }

    // MARK: As JSON values

    /// A step as one connection sees it: version, seat, client call id, the
    /// call or the takeback, and (`view`) the connection's view hash after
    /// it, its view of the plan and of the changes, and whether it is an undo barrier. Without
    /// `view` (a request answered again from the log), the step alone.
    public static func json(_ record: MatchRecord, _ view: StepView?) -> JSONValue {
        var members: [(String, JSONValue)] = [("version", .int(Int64(record.version))), ("seat", .string(record.seat)),
                                              ("id", .string(record.clientCallID.text))]
        switch record.step {
        case .call(let call): members.append(("call", json(call)))
        case .takeback(let version): members.append(("takeback", .int(Int64(version))))
        }
        if let view {
            members.append(("viewHash", .string(view.viewHash)))
            if let plan = view.plan { members.append(("plan", JSONValue(plan))) }
            if let changes = view.changes { members.append(("changes", .array(changes.map(json)))) }
            members.append(("barrier", .bool(view.barrier)))
        }
        return .object(members)
    }

    /// A change as an audience sees it: `{"path", "before", "after"}`, a side absent when the slot was (or is) absent.
    public static func json(_ change: SeatChange) -> JSONValue {
        var members: [(String, JSONValue)] = [("path", .string(change.path))]
        if let before = change.before { members.append(("before", JSONValue(before))) }
        if let after = change.after { members.append(("after", JSONValue(after))) }
        return .object(members)
    }

    /// A call: `{"name", "params"}`, the params in key order.
    public static func json(_ call: ActionCall) -> JSONValue {
        .object([("name", .string(call.name)),
                 ("params", .object(call.params.sorted { $0.key < $1.key }.map { ($0.key, JSONValue($0.value)) }))])
    }
}
