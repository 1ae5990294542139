// SVG text built element by element. Invariant: every attribute value and
// every text is escaped (`XMLText`), and every number is written by
// `svgNumber` (at most two decimals), so the same chart is the same bytes.

/// A coordinate with at most two decimals, so the output is stable and compact.
func svgNumber(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let hundredths = (value * 100).rounded()
    let whole = Int64(hundredths)
    let sign = whole < 0 ? "-" : ""
    let magnitude = whole.magnitude
    let fraction = magnitude % 100
    if fraction == 0 { return sign + String(magnitude / 100) }
    var digits = fraction < 10 ? "0" + String(fraction) : String(fraction)
    if digits.hasSuffix("0") { digits.removeLast() }
    return sign + String(magnitude / 100) + "." + digits
}

private func n(_ value: Double) -> String { svgNumber(value) }

/// SVG text built element by element, attributes escaped.
struct SVGWriter {
    private var lines: [String] = []

    private static func tag(_ name: String, _ attributes: [(String, String)]) -> String {
        "<" + name + attributes.map { " \($0.0)=\"\(escape($0.1))\"" }.joined()
    }

    /// `<name ...>` (closed later with `close`).
    mutating func open(_ name: String, _ attributes: [(String, String)] = []) { lines.append(Self.tag(name, attributes) + ">") }
    /// `</name>`.
    mutating func close(_ name: String) { lines.append("</\(name)>") }
    /// `<name .../>`.
    mutating func empty(_ name: String, _ attributes: [(String, String)]) { lines.append(Self.tag(name, attributes) + "/>") }
    /// `<name>text</name>`.
    mutating func element(_ name: String, text: String) { lines.append("<\(name)>\(Self.escape(text))</\(name)>") }
    /// A `<text>` at `x`, `y` (its baseline).
    mutating func text(_ text: String, x: Double, y: Double, attributes: [(String, String)] = []) {
        lines.append(Self.tag("text", [("x", n(x)), ("y", n(y))] + attributes) + ">" + Self.escape(text) + "</text>")
    }

    /// The whole document, `width` by `height` px, on white.
    func document(width: Double, height: Double) -> String {
        var out = [##"<?xml version="1.0" encoding="UTF-8"?>"##,
                   ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(n(width))" height="\##(n(height))" viewBox="0 0 \##(n(width)) \##(n(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">"##,
                   ##"<rect x="0" y="0" width="\##(n(width))" height="\##(n(height))" fill="#ffffff"/>"##]
        out += lines
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    /// Text made safe for XML content and attribute values (`XMLText`).
    static func escape(_ text: String) -> String { XMLText.escape(text) }
}
