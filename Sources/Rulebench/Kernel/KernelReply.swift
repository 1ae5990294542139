/// A kernel reply, read field by field by the Lua field names.
///
/// Every read names what it wants; a reply that does not have it (a missing
/// field, another type, a value no protocol enum knows) is an internal
/// error naming the call and the field (`fuzz: finding.property`), never a
/// silent default. Only `Kernel` and its extensions read replies: the rest
/// of the code sees the typed structs they build.
struct KernelReply {
    /// The call that answered.
    let entry: KernelEntry
    /// Where in the reply this value is: its key and its parent's, kept
    /// as they are and joined only for an error (a fuzz run's reply has
    /// tens of thousands of values, and building each one's path showed in
    /// the kernel loop's instruction count).
    private let key: Key, parentKey: Key
    let value: StateValue

    private enum Key {
        case none, field(String), index(Int)

        var text: String? {
            switch self {
            case .none: return nil
            case .field(let name): return name
            case .index(let n): return String(n)
            }
        }
    }

    /// Where in the reply this value is ("" for the whole reply; a value
    /// deeper than a field of a field is named by its last two keys).
    var path: String { [parentKey.text, key.text].compactMap { $0 }.joined(separator: ".") }

    /// Decodes the wire bytes of one result of `entry`.
    init(_ entry: KernelEntry, _ bytes: [UInt8], result: Int = 1) throws(RulebenchError) {
        self.entry = entry
        let own: Key = result == 1 ? .none : .field("result \(result)")
        key = own
        parentKey = .none
        let path = own.text ?? ""
        do {
            guard let value = try Wire.decode(bytes) else {
                throw Kernel.replyMismatch(entry, path, "nothing, where a value was expected")
            }
            self.value = value
        } catch let error as RulebenchError {
            throw error
        } catch {
            throw Kernel.replyMismatch(entry, path, "bytes that do not decode (\(error))")
        }
    }

    /// A value `KernelStream` read whole, at `path` ("" for the whole reply).
    init(_ entry: KernelEntry, _ value: StateValue, path: String) {
        self.entry = entry
        parentKey = .none
        key = path.isEmpty ? .none : .field(path)
        self.value = value
    }

    private init(entry: KernelEntry, parentKey: Key, key: Key, value: StateValue) {
        self.entry = entry
        self.parentKey = parentKey
        self.key = key
        self.value = value
    }

    /// A result that is a bare word of a protocol enum (a status).
    static func word<T: RawRepresentable>(_ entry: KernelEntry, _ bytes: [UInt8], as type: T.Type) throws(RulebenchError) -> T
        where T.RawValue == String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let known = T(rawValue: text) else { throw Kernel.replyMismatch(entry, "", "the word '\(text)', which this side does not know") }
        return known
    }

    /// A count, index or position the kernel sends as a result of its own,
    /// as decimal text; `result` (from 1) names it in the error.
    static func integer(_ entry: KernelEntry, _ bytes: [UInt8], result: Int) throws(RulebenchError) -> Int {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let n = Int(text) else { throw Kernel.replyMismatch(entry, "result \(result)", "'\(text)', not an integer") }
        return n
    }

    private func mismatch(_ what: String) -> RulebenchError { Kernel.replyMismatch(entry, path, what) }

    private func child(_ key: Key, _ value: StateValue) -> KernelReply {
        KernelReply(entry: entry, parentKey: self.key, key: key, value: value)
    }

    /// Field `key`, which must be present.
    func field(_ key: String) throws(RulebenchError) -> KernelReply {
        guard let value = optional(key) else { throw Kernel.replyMismatch(entry, child(.field(key), .bool(false)).path, "nothing") }
        return value
    }

    /// Field `key`, nil when absent (Lua's nil).
    func optional(_ key: String) -> KernelReply? {
        value[key].map { child(.field(key), $0) }
    }

    func string() throws(RulebenchError) -> String {
        guard case .string(let text) = value else { throw mismatch("\(value), not a string") }
        return text
    }

    func int() throws(RulebenchError) -> Int {
        guard case .int(let n) = value else { throw mismatch("\(value), not an integer") }
        return Int(n)
    }

    /// A number, integer or not, as a Double.
    func number() throws(RulebenchError) -> Double {
        switch value {
        case .int(let n): return Double(n)
        case .double(let d): return d
        default: throw mismatch("\(value), not a number")
        }
    }

    func bool() throws(RulebenchError) -> Bool {
        guard case .bool(let b) = value else { throw mismatch("\(value), not a boolean") }
        return b
    }

    /// A value of a protocol enum: one the kernel and Swift both name by its raw value.
    func decode<T: RawRepresentable>(_ type: T.Type) throws(RulebenchError) -> T where T.RawValue == String {
        let text = try string()
        guard let known = T(rawValue: text) else { throw mismatch("'\(text)', which this side does not know") }
        return known
    }

    /// A list (an empty table is an empty list).
    func list() throws(RulebenchError) -> [KernelReply] {
        guard let items = value.listItems else { throw mismatch("\(value), not a list") }
        return items.enumerated().map { child(.index($0.offset + 1), $0.element) }
    }

    /// The entries of a table, in key order.
    func entries() throws(RulebenchError) -> [(key: StateKey, value: KernelReply)] {
        guard case .table = value else { throw mismatch("\(value), not a table") }
        return value.sortedEntries.map { ($0.key, child(.field($0.key.description), $0.value)) }
    }

    /// A result kept encoded until it is read (a perform's tree and plan, an
    /// undo's plan: decoding them with every reply was 16% of a checked
    /// step); nil for no bytes. The bytes are the kernel's own encoding of a
    /// reply `entry` gave: bytes that do not decode mean a broken kernel, and
    /// stop the process with the reason rather than show a wrong tree or plan.
    static func kept(_ bytes: [UInt8], from entry: KernelEntry) -> KernelReply? {
        if bytes.isEmpty { return nil }
        do { return try KernelReply(entry, bytes) } catch { preconditionFailure("\(error)") }
    }

    // The shapes the kernel's replies share.

    func string(_ key: String) throws(RulebenchError) -> String { try field(key).string() }
    func int(_ key: String) throws(RulebenchError) -> Int { try field(key).int() }
    func bool(_ key: String) throws(RulebenchError) -> Bool { try field(key).bool() }
    /// An optional string field: absent is nil, another type is an error.
    func optionalString(_ key: String) throws(RulebenchError) -> String? { try optional(key)?.string() }
    /// An optional integer field: absent is nil, another type is an error.
    func optionalInt(_ key: String) throws(RulebenchError) -> Int? { try optional(key)?.int() }
    /// An optional number field (integer or not): absent is nil, another type is an error.
    func optionalNumber(_ key: String) throws(RulebenchError) -> Double? { try optional(key)?.number() }
    /// An optional list of strings: absent is empty, an item of another type is an error.
    func optionalStrings(_ key: String) throws(RulebenchError) -> [String] {
        try optional(key)?.list().map { item throws(RulebenchError) in try item.string() } ?? []
    }

    /// A call `{ name, params }`.
    func call() throws(RulebenchError) -> ActionCall {
        ActionCall(try string("name"), ActionCall.params(from: optional("params")?.value))
    }

    /// A state hash (hex text).
    func hash() throws(RulebenchError) -> StateHash { StateHash(hex: try string()) }
}

extension Kernel {
    /// The internal error of a reply that is not what the protocol says
    /// (`entry`'s reply, at `path`: "" for the whole reply).
    static func replyMismatch(_ entry: KernelEntry, _ path: String, _ what: String) -> RulebenchError {
        let field = path.isEmpty ? "" : " field '\(path)'"
        return .script(ScriptFailure(message: "internal error in the engine: the reply of '\(entry.rawValue)' has\(field) \(what)",
                                     location: nil, traceback: ""))
    }
}
