/// How the scenario writers (`play`'s `save`, fuzz reproductions, `solve
/// --scenario`) put text into YAML.
///
/// Invariant: the scenario reader (Yams, libyaml underneath) reads every
/// scalar `quoted` writes back as the very same Unicode scalars, whatever
/// they are, and every line `comment` writes is one comment line it skips.
/// libyaml refuses characters YAML calls non-printable anywhere in a file
/// (C0 and C1 controls but tab and line feed, DEL, U+FFFE, U+FFFF), takes
/// U+0085, U+2028 and U+2029 for line breaks (folded to a space inside a
/// quoted scalar) and U+FEFF for a byte order mark; each of these is
/// written as an escape. Everything else is written as itself, so names in
/// any script stay readable. Escapes are JSON's (`\uXXXX`, `\n`, `\r`, `\t`,
/// `\"`, `\\`: `JSONValue.quote`), which YAML reads too: a flow value stays JSON.
enum YAMLText {
    /// `text` as a double-quoted YAML scalar.
    static func quoted(_ text: String) -> String {
        var out = ""
        JSONValue.quote(text, into: &out) { !isWrittenAsItself($0) }
        return out
    }

    /// `text` as the body of one comment line: line breaks shown as `\n`,
    /// other characters a comment cannot hold as escapes (it is for people
    /// to read; nothing reads it back).
    static func comment(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}": out += "\\n"
            case "\t": out.unicodeScalars.append(scalar)
            case _ where isWrittenAsItself(scalar): out.unicodeScalars.append(scalar)
            default: out += escape(scalar)
            }
        }
        return out
    }

    /// Whether the scalar reads back as itself inside a quoted scalar or a
    /// comment: YAML's printable set without its line breaks and the byte
    /// order mark (no surrogates: a Swift string has none).
    static func isWrittenAsItself(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E: return true
        case 0xA0...0xD7FF: return scalar.value != 0x2028 && scalar.value != 0x2029
        case 0xE000...0xFFFD: return scalar.value != 0xFEFF
        case 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// `\uXXXX` for a scalar of the Basic Multilingual Plane (every one
    /// that is escaped is: the planes above are printable).
    private static func escape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
