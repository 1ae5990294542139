import Foundation

/// The one template form of a sequence's text: `{path}` shows the state's
/// value at that dotted path (`{players.p1.water}`, `{meter.level}`; a
/// list's items by number, `{order.1}`). Any other brace is text as it is.
/// A path the state does not hold is *missing*: the text shows `{path?}`
/// there, and `check`, the fuzzer and scenarios report it.
public struct SequenceText: Hashable, Sendable {
    /// The text filled in.
    public var text: String
    /// The paths it reads that the state does not hold, in text order.
    public var missing: [String]

    /// The dotted paths `template` reads, in order.
    public static func paths(in template: String) -> [String] {
        pieces(of: template).compactMap { $0.path }
    }

    /// `template` filled in from `state`.
    public init(_ template: String, state: StateValue) {
        var text = "", missing: [String] = []
        for piece in SequenceText.pieces(of: template) {
            guard let path = piece.path else {
                text += piece.literal
                continue
            }
            if let value = (try? StatePath(parsing: path)).flatMap({ state.value(at: $0) }) {
                text += SequenceText.shown(value)
            } else {
                missing.append(path)
                text += "{\(path)?}"
            }
        }
        self.text = text
        self.missing = missing
    }

    /// A value as a writer expects to read it: text without quotes.
    static func shown(_ value: StateValue) -> String {
        if case .string(let text) = value { return text }
        return value.description
    }

    private struct Piece {
        var literal: String
        var path: String?
    }

    /// The template cut into literal text and `{path}` holes.
    private static func pieces(of template: String) -> [Piece] {
        var pieces: [Piece] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), !after[..<close].isEmpty,
               after[..<close].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }) {
                pieces.append(Piece(literal: String(rest[..<open])))
                pieces.append(Piece(literal: "", path: String(after[..<close])))
                rest = after[after.index(after: close)...]
            } else {
                pieces.append(Piece(literal: String(rest[...open])))
                rest = after
            }
        }
        pieces.append(Piece(literal: String(rest)))
        return pieces
    }
}
