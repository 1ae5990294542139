/// The string format values cross the bridge in (see wire.c, rb_decode,
/// and the kernel's core.encode):
///
///     n  t  f            nil, true, false
///     i<digits>;         integer
///     d<16 hex digits>   float, by its IEEE-754 bits (exact)
///     s<length>:<bytes>  string (length in bytes)
///     { key value ... }  table
///     a<n>; value ...    list of n values (keys 1..n), made at its size
///     h<n>; key value .. table of n pairs, made at its size
///
/// The kernel's encoder writes tables in the `{` form only, keys in one
/// canonical order (equal values give equal bytes); the counted forms are
/// for what Swift writes with a `Writer` (a fuzz run's request: no value
/// tree, no key sorting, and Lua makes each table at its size).
///
/// One string per crossing keeps Swift from pushing values onto the Lua
/// stack, which could raise; decoding happens in protected C code.
enum Wire {
    /// Encodes a value (nil for absent).
    static func encode(_ value: StateValue?) -> [UInt8] {
        var out = Writer()
        out.value(value)
        return out.bytes
    }

    /// Encodes a table from string keys.
    static func encode(_ table: [String: StateValue]) -> [UInt8] {
        var out = Writer()
        out.value(table)
        return out.bytes
    }

    /// Encodes a path as a list of keys.
    static func encode(_ path: StatePath) -> [UInt8] {
        encode(.list(path.keys.map { key -> StateValue in
            switch key {
            case .int(let i): return .int(i)
            case .string(let s): return .string(s)
            }
        }))
    }

    /// Writes values straight to bytes, with no `StateValue` tree between:
    /// tables in the counted forms, their pairs in the order written (Lua
    /// reads them by key), and `value` in the canonical form.
    struct Writer {
        private(set) var bytes: [UInt8] = []

        init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

        /// A table in the `{` form, for one whose count is not known up
        /// front: pairs follow, then `close`.
        mutating func open() { bytes.append(UInt8(ascii: "{")) }
        mutating func close() { bytes.append(UInt8(ascii: "}")) }
        /// A list of `count` values: the values follow.
        mutating func list(count: Int) { counted(UInt8(ascii: "a"), count) }
        /// A table of `count` pairs: each key (`key`) and its value follow.
        mutating func table(count: Int) { counted(UInt8(ascii: "h"), count) }
        mutating func key(_ name: String) { string(name) }
        mutating func string(_ text: String) {
            var text = text   // withUTF8: the bytes where they lie (a native string is never copied)
            text.withUTF8 { utf8 in
                bytes.append(UInt8(ascii: "s")); decimal(Int64(utf8.count)); bytes.append(UInt8(ascii: ":"))
                bytes.append(contentsOf: utf8)
            }
        }
        mutating func int(_ n: Int64) { bytes.append(UInt8(ascii: "i")); decimal(n); bytes.append(UInt8(ascii: ";")) }
        mutating func bool(_ b: Bool) { bytes.append(UInt8(ascii: b ? "t" : "f")) }
        /// Any value, in the canonical form: tables in the `{` form, keys
        /// sorted (`Wire.encode`; equal values give equal bytes).
        mutating func value(_ value: StateValue?) {
            guard let value else { bytes.append(UInt8(ascii: "n")); return }
            switch value {
            case .bool(let b): bool(b)
            case .int(let i): int(i)
            case .double(let d):
                bytes.append(UInt8(ascii: "d"))
                let hex = String(d.bitPattern, radix: 16)
                bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: 16 - hex.utf8.count))
                bytes.append(contentsOf: hex.utf8)
            case .string(let s): string(s)
            case .table(let table):
                open()
                for (key, item) in table.sorted(by: { $0.key < $1.key }) {
                    switch key {
                    case .int(let i): int(i)
                    case .string(let s): string(s)
                    }
                    self.value(item)
                }
                close()
            }
        }
        /// A table of string keys in the canonical form: the bytes of
        /// `value(.table(...))`, without making that table.
        mutating func value(_ table: [String: StateValue]) {
            open()
            if table.count == 1, let (key, item) = table.first {   // one param: nothing to sort
                string(key)
                value(item)
            } else {
                for key in table.keys.sorted(by: { StateKey.string($0) < StateKey.string($1) }) {
                    string(key)
                    value(table[key])
                }
            }
            close()
        }
        /// Bytes already in the wire format (one value).
        mutating func encoded(_ value: [UInt8]) { bytes.append(contentsOf: value) }

        private mutating func counted(_ tag: UInt8, _ count: Int) {
            bytes.append(tag); decimal(Int64(count)); bytes.append(UInt8(ascii: ";"))
        }

        /// `String(n)`'s digits, written in place (no string made).
        private mutating func decimal(_ n: Int64) {
            if n >= 0 && n < 10 { bytes.append(UInt8(ascii: "0") + UInt8(n)); return }
            if n < 0 { bytes.append(UInt8(ascii: "-")) }
            var magnitude = n.magnitude
            let start = bytes.count
            repeat {
                bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
                magnitude /= 10
            } while magnitude > 0
            bytes[start...].reverse()
        }
    }

    /// A malformed wire string (a bug in the kernel, never user input).
    struct DecodeError: Error, CustomStringConvertible {
        let description: String
    }

    /// Decodes one value; nil means Lua's nil.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws -> StateValue? {
        var reader = Reader(bytes: bytes)
        let value = try reader.value()
        guard reader.position == bytes.count else { throw DecodeError(description: "trailing bytes in kernel reply") }
        return value
    }

    /// Decodes one value from an array.
    static func decode(_ bytes: [UInt8]) throws -> StateValue? {
        try bytes.withUnsafeBufferPointer { try decode($0) }
    }

    /// Reads values one at a time: whole (`value`), or a table's pairs in
    /// the order written (`KernelStream`, a fuzz run's reply).
    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        mutating func next() throws -> UInt8 {
            guard position < bytes.count else { throw DecodeError(description: "truncated kernel reply") }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func decimal(until terminator: UInt8) throws -> Int64 {
            var negative = false
            var value: Int64 = 0
            var digits = 0
            var byte = try next()
            if byte == UInt8(ascii: "-") { negative = true; byte = try next() }
            while byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                value = value &* 10 &+ Int64(byte - UInt8(ascii: "0"))
                digits += 1
                byte = try next()
            }
            guard digits > 0, byte == terminator else { throw DecodeError(description: "malformed number in kernel reply") }
            return negative ? 0 &- value : value
        }

        mutating func value() throws -> StateValue? {
            switch try next() {
            case UInt8(ascii: "n"): return nil
            case UInt8(ascii: "t"): return .bool(true)
            case UInt8(ascii: "f"): return .bool(false)
            case UInt8(ascii: "i"): return .int(try decimal(until: UInt8(ascii: ";")))
            case UInt8(ascii: "d"):
                guard position + 16 <= bytes.count,
                      let bits = UInt64(String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<position + 16]), as: UTF8.self), radix: 16)
                else { throw DecodeError(description: "malformed float in kernel reply") }
                position += 16
                return .double(Double(bitPattern: bits))
            case UInt8(ascii: "s"):
                let length = Int(try decimal(until: UInt8(ascii: ":")))
                guard length >= 0, position + length <= bytes.count else { throw DecodeError(description: "malformed string in kernel reply") }
                defer { position += length }
                return .string(String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<position + length]), as: UTF8.self))
            case UInt8(ascii: "{"):
                var table: [StateKey: StateValue] = [:]
                while position < bytes.count && bytes[position] != UInt8(ascii: "}") {
                    table[try key()] = try value()
                }
                _ = try next()
                return .table(table)
            case UInt8(ascii: "a"):
                let n = try count(perItem: 1)
                var table: [StateKey: StateValue] = Dictionary(minimumCapacity: n)
                for i in 0..<n { table[.int(Int64(i + 1))] = try value() }
                return .table(table)
            case UInt8(ascii: "h"):
                let n = try count(perItem: 2)
                var table: [StateKey: StateValue] = Dictionary(minimumCapacity: n)
                for _ in 0..<n { table[try key()] = try value() }
                return .table(table)
            default:
                throw DecodeError(description: "unknown tag in kernel reply")
            }
        }

        /// A table's key.
        mutating func key() throws -> StateKey {
            switch try value() {
            case .int(let i)?: return .int(i)
            case .string(let s)?: return .string(s)
            case .bool(let b)?: return .string(b ? "true" : "false")
            case .double(let d)?: return .string(StateValue.render(d))
            default: throw DecodeError(description: "unsupported table key in kernel reply")
            }
        }

        /// A counted form's count, checked against the bytes left (each
        /// item takes `perItem` bytes at least) before anything is made at that size.
        mutating func count(perItem: Int) throws -> Int {
            let n = try decimal(until: UInt8(ascii: ";"))
            guard n >= 0, n <= (bytes.count - position) / perItem else { throw DecodeError(description: "malformed count in kernel reply") }
            return Int(n)
        }

        /// The next byte, without reading it (nil at the end).
        func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }
    }
}
