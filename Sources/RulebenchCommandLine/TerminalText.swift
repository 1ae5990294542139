import Foundation

/// Text bound for a terminal, with control characters made visible.
///
/// Messages carry strings that rule packs wrote (error messages, params,
/// state values). A pack must not be able to drive the reader's terminal
/// with escape sequences (move the cursor, rewrite earlier lines, set the
/// title): every control character except newline and tab is shown as
/// `\u{1B}` and the like. JSON output is unchanged by this, since its
/// strings escape control characters already.
package enum TerminalText {
    /// `text` with every control character but newline and tab escaped.
    package static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// C0 controls other than newline and tab, DEL, and the C1 controls.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        default: return false
        }
    }
}

extension TerminalText {
    /// `Swift.print` of the items with every control character but newline
    /// and tab escaped. Each program shadows the standard library's `print`
    /// with this one (its `TerminalPrint.swift`), so no output path can
    /// forget it.
    package static func print(_ items: [Any], separator: String, terminator: String) {
        let text = items.map { "\($0)" }.joined(separator: separator)
        Swift.print(TerminalText.safe(text), terminator: terminator)
    }
}
