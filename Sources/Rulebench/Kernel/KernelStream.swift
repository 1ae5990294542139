/// A kernel reply read in the order its bytes come, field by field, with
/// no value tree built for what is read this way: a fuzz run's reply, whose
/// outcomes, trace and plans (several values a step) decoded into a
/// `StateValue` tree and then mapped were a tenth of a checked step.
///
/// The same rules as `KernelReply`: every read names what it wants, and a
/// reply that does not have it (another type, a malformed or truncated
/// byte string) is the internal error naming the call and the field,
/// never a crash and never a default. A part read rarely (a finding, the
/// history's position) is taken whole as a `KernelReply` (`reply`). Only
/// `Kernel` and its extensions read replies.
struct KernelStream {
    /// The call that answered.
    let entry: KernelEntry
    private var reader: Wire.Reader
    /// The tables open around the cursor, innermost last.
    private var frames: [Frame] = []

    private struct Frame {
        /// `{`: until `}`; `a`: `left` values; `h`: `left` pairs.
        let tag: UInt8
        var left: Int
        /// The index the next item of a list must have.
        var next: Int64 = 1
    }

    /// A key of the table being read: an integer, or a string's bytes
    /// (compared where they lie: no `String` is made for a key).
    enum Key {
        case index(Int64)
        case name(start: Int, count: Int)
    }

    private init(entry: KernelEntry, reader: Wire.Reader) {
        self.entry = entry
        self.reader = reader
    }

    /// Reads `bytes`, one result of `entry`, with `body`, which must read
    /// one whole value (anything after it is an error).
    static func read<T>(_ entry: KernelEntry, _ bytes: [UInt8],
                        _ body: (inout KernelStream) throws(RulebenchError) -> T) throws(RulebenchError) -> T {
        var outcome: Result<T, RulebenchError>?
        bytes.withUnsafeBufferPointer { buffer in
            var stream = KernelStream(entry: entry, reader: Wire.Reader(bytes: buffer))
            do throws(RulebenchError) {
                let value = try body(&stream)
                outcome = stream.reader.position == buffer.count
                    ? .success(value) : .failure(Kernel.replyMismatch(entry, "", "bytes after its value"))
            } catch {
                outcome = .failure(error)
            }
        }
        guard let outcome else { preconditionFailure("withUnsafeBufferPointer did not call its body") }
        return try outcome.get()
    }

    private func mismatch(_ path: String, _ what: String) -> RulebenchError { Kernel.replyMismatch(entry, path, what) }

    private func broken(_ path: String, _ error: Error) -> RulebenchError {
        mismatch(path, "bytes that do not decode (\(error))")
    }

    // MARK: Tables

    /// Opens the table at the cursor (a list or a record).
    mutating func enter(_ path: @autoclosure () -> String) throws(RulebenchError) {
        guard let tag = reader.peek() else { throw mismatch(path(), "nothing, where a table was expected (truncated)") }
        do {
            switch tag {
            case UInt8(ascii: "{"): _ = try reader.next(); frames.append(Frame(tag: tag, left: -1))
            case UInt8(ascii: "a"): _ = try reader.next(); frames.append(Frame(tag: tag, left: try reader.count(perItem: 1)))
            case UInt8(ascii: "h"): _ = try reader.next(); frames.append(Frame(tag: tag, left: try reader.count(perItem: 2)))
            default: throw mismatch(path(), "\(try valueText()), not a table")
            }
        } catch let error as RulebenchError {
            throw error
        } catch {
            throw broken(path(), error)
        }
    }

    /// The next key of the innermost open table, its value at the cursor;
    /// nil at the table's end (which closes it).
    mutating func nextKey(_ path: @autoclosure () -> String) throws(RulebenchError) -> Key? {
        guard var frame = frames.last else { throw mismatch(path(), "a key read outside a table") }
        do {
            switch frame.tag {
            case UInt8(ascii: "{"):
                guard let byte = reader.peek() else { throw mismatch(path(), "a table cut short (truncated)") }
                if byte == UInt8(ascii: "}") {
                    _ = try reader.next()
                    frames.removeLast()
                    return nil
                }
                return try key(path())
            case UInt8(ascii: "a"):
                if frame.left == 0 { frames.removeLast(); return nil }
                frame.left -= 1
                frame.next += 1
                frames[frames.count - 1] = frame
                return .index(frame.next - 1)
            default:
                if frame.left == 0 { frames.removeLast(); return nil }
                frames[frames.count - 1].left -= 1
                return try key(path())
            }
        } catch let error as RulebenchError {
            throw error
        } catch {
            throw broken(path(), error)
        }
    }

    /// Whether a list has another item (at the cursor); false at its end.
    /// The items' keys must be 1, 2, ... in order, as the kernel writes a list.
    mutating func nextItem(_ path: @autoclosure () -> String) throws(RulebenchError) -> Bool {
        guard let key = try nextKey(path()) else { return false }
        let expected = frames[frames.count - 1].next
        guard case .index(let n) = key, frames[frames.count - 1].tag == UInt8(ascii: "a") || n == expected else {
            throw mismatch(path(), "a key \(text(key)) where item \(expected) of a list was expected")
        }
        if frames[frames.count - 1].tag == UInt8(ascii: "{") { frames[frames.count - 1].next += 1 }
        return true
    }

    private mutating func key(_ path: @autoclosure () -> String) throws -> Key {
        guard let tag = reader.peek() else { throw mismatch(path(), "a table cut short (truncated)") }
        switch tag {
        case UInt8(ascii: "i"):
            _ = try reader.next()
            return .index(try reader.decimal(until: UInt8(ascii: ";")))
        case UInt8(ascii: "s"):
            _ = try reader.next()
            let length = Int(try reader.decimal(until: UInt8(ascii: ":")))
            guard length >= 0, reader.position + length <= reader.bytes.count else {
                throw mismatch(path(), "a key cut short (truncated)")
            }
            defer { reader.position += length }
            return .name(start: reader.position, count: length)
        default:
            throw mismatch(path(), "a key that is neither an integer nor a string")
        }
    }

    /// Whether `key` is the string `name`.
    func `is`(_ key: Key, _ name: StaticString) -> Bool {
        guard case .name(let start, let count) = key, count == name.utf8CodeUnitCount else { return false }
        let bytes = reader.bytes
        return name.withUTF8Buffer { wanted in
            for i in 0..<count where bytes[start + i] != wanted[i] { return false }
            return true
        }
    }

    /// A key as an error shows it: a name quoted.
    func text(_ key: Key) -> String {
        if case .index = key { return name(key) }
        return "'" + name(key) + "'"
    }

    // MARK: Values

    /// The value at the cursor, whole, as a `KernelReply` named `path`.
    mutating func reply(_ path: @autoclosure () -> String) throws(RulebenchError) -> KernelReply {
        KernelReply(entry, try value(path()), path: path())
    }

    /// The value at the cursor, whole (`path` names it in an error only).
    mutating func value(_ path: @autoclosure () -> String) throws(RulebenchError) -> StateValue {
        let value: StateValue?
        do { value = try reader.value() } catch { throw broken(path(), error) }
        guard let value else { throw mismatch(path(), "nothing") }
        return value
    }

    /// The table at the cursor as a call's params, each key as its text:
    /// what `ActionCall.params(from:)` makes of `value`, without the
    /// value's own table made first (an offered list holds a call for each
    /// legal move); anything but a table, no params.
    mutating func params(_ path: @autoclosure () -> String) throws(RulebenchError) -> [String: StateValue] {
        guard let tag = reader.peek(), tag == UInt8(ascii: "{") || tag == UInt8(ascii: "a") || tag == UInt8(ascii: "h") else {
            try skip(path())
            return [:]
        }
        try enter(path())
        // Made at its size (a list's or a hash's count; a record's unknown): not grown twice.
        let count = frames[frames.count - 1].left
        var params: [String: StateValue] = Dictionary(minimumCapacity: count >= 0 ? count : 4)
        while let key = try nextKey(path()) {
            let item: StateValue?
            do { item = try reader.value() } catch { throw broken(path(), error) }
            params[name(key)] = item
        }
        return params
    }

    /// A key as its text: a name's own, an index's digits (`StateKey.description`).
    private func name(_ key: Key) -> String {
        switch key {
        case .index(let n): return String(n)
        case .name(let start, let count): return String(decoding: UnsafeBufferPointer(rebasing: reader.bytes[start..<start + count]), as: UTF8.self)
        }
    }

    /// Skips the value at the cursor (a field this side does not read).
    mutating func skip(_ path: @autoclosure () -> String) throws(RulebenchError) {
        do { _ = try reader.value() } catch { throw broken(path(), error) }
    }

    mutating func string(_ path: @autoclosure () -> String) throws(RulebenchError) -> String {
        do {
            guard reader.peek() == UInt8(ascii: "s") else { throw mismatch(path(), "\(try valueText()), not a string") }
            _ = try reader.next()
            let length = Int(try reader.decimal(until: UInt8(ascii: ":")))
            guard length >= 0, reader.position + length <= reader.bytes.count else {
                throw mismatch(path(), "a string cut short (truncated)")
            }
            defer { reader.position += length }
            return String(decoding: UnsafeBufferPointer(rebasing: reader.bytes[reader.position..<reader.position + length]), as: UTF8.self)
        } catch let error as RulebenchError {
            throw error
        } catch {
            throw broken(path(), error)
        }
    }

    mutating func int(_ path: @autoclosure () -> String) throws(RulebenchError) -> Int {
        do {
            guard reader.peek() == UInt8(ascii: "i") else { throw mismatch(path(), "\(try valueText()), not an integer") }
            _ = try reader.next()
            return Int(try reader.decimal(until: UInt8(ascii: ";")))
        } catch let error as RulebenchError {
            throw error
        } catch {
            throw broken(path(), error)
        }
    }

    mutating func bool(_ path: @autoclosure () -> String) throws(RulebenchError) -> Bool {
        switch reader.peek() {
        case UInt8(ascii: "t")?: reader.position += 1; return true
        case UInt8(ascii: "f")?: reader.position += 1; return false
        default:
            let text: String
            do { text = try valueText() } catch { throw broken(path(), error) }
            throw mismatch(path(), "\(text), not a boolean")
        }
    }

    /// A state hash (hex text).
    mutating func hash(_ path: @autoclosure () -> String) throws(RulebenchError) -> StateHash {
        StateHash(hex: try string(path()))
    }

    /// A value of a protocol enum, by its raw value: matched against each
    /// case where the bytes lie (no `String` made: a fuzz reply has one a
    /// step); anything else is read as a string to word the error.
    mutating func word<T: RawRepresentable & CaseIterable>(_ type: T.Type, _ path: @autoclosure () -> String) throws(RulebenchError) -> T
        where T.RawValue == String {
        if let known: T = knownWord() { return known }
        let text = try string(path())
        guard let known = T(rawValue: text) else { throw mismatch(path(), "'\(text)', which this side does not know") }
        return known
    }

    /// The case of `T` whose raw value is the string at the cursor, read
    /// past; nil (the cursor where it was) for anything else.
    private mutating func knownWord<T: RawRepresentable & CaseIterable>() -> T? where T.RawValue == String {
        let start = reader.position
        guard reader.peek() == UInt8(ascii: "s") else { return nil }
        reader.position += 1
        guard let length = try? Int(reader.decimal(until: UInt8(ascii: ":"))), length >= 0,
              reader.position + length <= reader.bytes.count else {
            reader.position = start
            return nil
        }
        let bytes = UnsafeBufferPointer(rebasing: reader.bytes[reader.position..<reader.position + length])
        for candidate in T.allCases {
            var raw = candidate.rawValue
            if raw.withUTF8({ $0.elementsEqual(bytes) }) {
                reader.position += length
                return candidate
            }
        }
        reader.position = start
        return nil
    }

    /// The value at the cursor as an error shows it (read to show it).
    private mutating func valueText() throws -> String {
        guard reader.peek() != nil else { return "nothing (truncated)" }
        return try reader.value().map { "\($0)" } ?? "nil"
    }
}
