import Foundation
import Yams

/// Puts back the U+FEFF that Yams drops from the start of a quoted scalar.
///
/// Yams turns each scalar's bytes into a `String` with Foundation, which
/// takes a leading EF BB BF for a byte order mark and drops it: the scalar
/// `"\uFEFFx"` reads as `x`, so a param or name that starts with U+FEFF
/// would change between `play`'s `save` (or a fuzz reproduction) and `run`.
/// This type finds, in the text, every quoted scalar that starts with one
/// (written `\uFEFF`, `\UFEFF`, `\U0000FEFF` or raw), by the line and
/// column where its quote opens, which Yams reports as the node's mark
/// (columns count Unicode scalars, as libyaml's do). Foundation drops
/// exactly one (`\uFEFF\uFEFFx` reads as `\uFEFFx`). Invariant: a scalar
/// gets one U+FEFF back exactly when it is quoted and starts at such a place.
struct LeadingByteOrderMarks {
    private struct Place: Hashable {
        let line: Int
        let column: Int
    }

    private let places: Set<Place>

    /// The places in `text`. A text without "FEFF" or U+FEFF (nearly every
    /// one) is not scanned.
    init(in text: String) {
        places = LeadingByteOrderMarks.mayHold(text) ? LeadingByteOrderMarks.scan(text) : []
    }

    /// The scalar's text, with a dropped leading U+FEFF put back.
    func text(of scalar: Node.Scalar, at mark: Mark?) -> String {
        guard !places.isEmpty, let mark, scalar.style == .doubleQuoted || scalar.style == .singleQuoted,
              places.contains(Place(line: mark.line, column: mark.column)) else { return scalar.string }
        return "\u{FEFF}" + scalar.string
    }

    /// Every place where a quote is followed by U+FEFF or an escape of it.
    private static func scan(_ text: String) -> Set<Place> {
        let scalars = Array(text.unicodeScalars)
        var found: Set<Place> = []
        var line = 1, column = 1
        for (index, scalar) in scalars.enumerated() {
            if scalar == "\"" || scalar == "'", index + 1 < scalars.count {
                let next = scalars[index + 1]
                let escaped = scalar == "\"" && next == "\\" && startsEscape(scalars[(index + 1)...])
                if next == "\u{FEFF}" || escaped { found.insert(Place(line: line, column: column)) }
            }
            if scalar == "\n" || (scalar == "\r" && (index + 1 == scalars.count || scalars[index + 1] != "\n")) {
                line += 1
                column = 1
            } else if scalar != "\r" {
                column += 1
            }
        }
        return found
    }

    /// Whether `\uFEFF`, `\UFEFF` or `\U0000FEFF` (any case of the hex digits) starts here.
    private static func startsEscape(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        let text = String(String.UnicodeScalarView(scalars.prefix(10))).lowercased()
        return text.hasPrefix("\\ufeff") || text.hasPrefix("\\u0000feff")
    }

    /// Whether the text holds U+FEFF or "FEFF" in any case (its escapes).
    private static func mayHold(_ text: String) -> Bool {
        text.unicodeScalars.contains("\u{FEFF}") || text.range(of: "feff", options: .caseInsensitive) != nil
    }
}
