/// The string format values cross the bridge in (see wire.c, rb_decode,
/// and the kernel's core.encode):
///
///     n  t  f            nil, true, false
///     i<digits>;         integer
///     d<16 hex digits>   float, by its IEEE-754 bits (exact)
///     s<length>:<bytes>  string (length in bytes)
///     { key value ... }  table
///
/// One string per crossing keeps Swift from pushing values onto the Lua
/// stack, which could raise; decoding happens in protected C code.
enum Wire {
    /// Encodes a value (nil for absent).
    static func encode(_ value: StateValue?) -> [UInt8] {
        var out: [UInt8] = []
        append(value, to: &out)
        return out
    }

    /// Encodes a table from string keys.
    static func encode(_ table: [String: StateValue]) -> [UInt8] {
        encode(.table(Dictionary(uniqueKeysWithValues: table.map { (StateKey.string($0.key), $0.value) })))
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

    private static func append(_ value: StateValue?, to out: inout [UInt8]) {
        guard let value else { out.append(UInt8(ascii: "n")); return }
        switch value {
        case .bool(let b): out.append(UInt8(ascii: b ? "t" : "f"))
        case .int(let i):
            out.append(UInt8(ascii: "i")); out.append(contentsOf: String(i).utf8); out.append(UInt8(ascii: ";"))
        case .double(let d):
            out.append(UInt8(ascii: "d"))
            let hex = String(d.bitPattern, radix: 16)
            out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: 16 - hex.utf8.count))
            out.append(contentsOf: hex.utf8)
        case .string(let s):
            out.append(UInt8(ascii: "s")); out.append(contentsOf: String(s.utf8.count).utf8)
            out.append(UInt8(ascii: ":")); out.append(contentsOf: s.utf8)
        case .table(let table):
            out.append(UInt8(ascii: "{"))
            for (key, item) in table.sorted(by: { $0.key < $1.key }) {
                switch key {
                case .int(let i): append(.int(i), to: &out)
                case .string(let s): append(.string(s), to: &out)
                }
                append(item, to: &out)
            }
            out.append(UInt8(ascii: "}"))
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

    private struct Reader {
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
                    let key: StateKey
                    switch try value() {
                    case .int(let i)?: key = .int(i)
                    case .string(let s)?: key = .string(s)
                    case .bool(let b)?: key = .string(b ? "true" : "false")
                    case .double(let d)?: key = .string(StateValue.render(d))
                    default: throw DecodeError(description: "unsupported table key in kernel reply")
                    }
                    table[key] = try value()
                }
                _ = try next()
                return .table(table)
            default:
                throw DecodeError(description: "unknown tag in kernel reply")
            }
        }
    }
}
