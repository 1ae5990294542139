/// A call typed by hand: `ACTION key=value ...`, as `rulebench play` reads a
/// line and the studio's Call field reads its text. This is the one grammar
/// for typed calls; both read through it, so a call typed into either means
/// the same thing.
///
/// Words are separated by blanks; a single or double quote keeps blanks
/// inside a word until the same quote closes it, and stays in the word, so
/// `to="a b"` is the word `to="a b"` and its value, read by
/// `StateValue(argument:)`, the string `a b` (the quotes also force a
/// string: `code="007"`); `[1,[2,3]]` is a list holding a list. A quote
/// left open is an error naming its column; a param given twice is an
/// error naming the param.
public enum TypedCall {
    /// A line that is not a call, said so that the user can fix it.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// A quote opened at `column` (1-based, in characters) and never closed.
        case unclosedQuote(column: Int, line: String)
        /// A word after the action's name that is not `key=value`.
        case notAPair(String)
        /// Nothing but blanks.
        case empty
        /// The param `name` given twice (`token=p1 token=p2`): neither is taken.
        case duplicateParam(String)
        /// The value of param `name` nests lists deeper than `StateValue.maximumArgumentDepth`.
        case tooDeep(String)

        public var description: String {
            switch self {
            case .unclosedQuote(let column, let line):
                return "the quote at column \(column) is not closed in: \(line) (close it with the same quote)"
            case .notAPair(let word):
                return "expected key=value after the action name, got '\(word)'"
            case .empty:
                return "no call: type ACTION key=value ..."
            case .duplicateParam(let name):
                return "the param '\(name)' is given twice (give each param once)"
            case .tooDeep(let name):
                return "the value of '\(name)' nests lists more than \(StateValue.maximumArgumentDepth) deep (nest them less)"
            }
        }
    }

    /// The line's words (blanks separate them; quotes keep blanks inside a word and stay in it).
    public static func words(_ line: String) throws(Problem) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: (mark: Character, column: Int)?
        var inWord = false
        for (offset, char) in line.enumerated() {
            if let open = quote {
                current.append(char)
                if char == open.mark { quote = nil }
            } else if char == "\"" || char == "'" {
                quote = (char, offset + 1)
                current.append(char)
                inWord = true
            } else if char == " " || char == "\t" || char == "\r" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(char)
                inWord = true
            }
        }
        if let open = quote { throw .unclosedQuote(column: open.column, line: line) }
        if inWord { words.append(current) }
        return words
    }

    /// The params of `key=value` words, each value read as `StateValue(argument:)` reads it.
    public static func params(_ pairs: some Sequence<String>) throws(Problem) -> [String: StateValue] {
        var params: [String: StateValue] = [:]
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else { throw .notAPair(pair) }
            let name = String(pair[..<equals]), text = String(pair[pair.index(after: equals)...])
            guard params[name] == nil else { throw .duplicateParam(name) }
            guard StateValue.argumentDepth(text) <= StateValue.maximumArgumentDepth else { throw .tooDeep(name) }
            params[name] = StateValue(argument: text)
        }
        return params
    }

    /// The call a whole line types: the action's name, then its `key=value` words.
    public static func call(_ line: String) throws(Problem) -> ActionCall {
        let words = try words(line)
        guard let name = words.first else { throw .empty }
        return ActionCall(name, try params(words.dropFirst()))
    }

    /// How to type `call`: its name, then `key=value` in key order, each
    /// value as `typed(_:)` writes it, so `call(_:)` reads the line back as
    /// this very call whenever its values can be typed at all.
    public static func typed(_ call: ActionCall) -> String {
        ([call.name] + call.params.keys.sorted().map { "\($0)=\(typed(call.params[$0]!))" }).joined(separator: " ")
    }

    /// How to type `value`: the first of its spellings that reads back as
    /// `value` in one word (a string bare, else quoted, with a mark it does
    /// not hold first: the grammar has no escapes; a list as `[a,b]`). A
    /// value no typed word gives (`a" 'b`, a table with keys) is written as
    /// `play` prints it.
    public static func typed(_ value: StateValue) -> String {
        spellings(of: value).first { readsBack($0, as: value) } ?? value.description
    }

    private static func spellings(of value: StateValue) -> [String] {
        if case .string(let string) = value {
            let double = "\"" + string + "\"", single = "'" + string + "'"
            return [string] + (string.contains("\"") ? [single, double] : [double, single])   // a mark it does not hold reads best
        }
        if let items = value.listItems { return ["[" + items.map(typed).joined(separator: ",") + "]"] }
        return [value.description]
    }

    /// Whether `text`, typed as a param's value, is one word that reads as `value`.
    private static func readsBack(_ text: String, as value: StateValue) -> Bool {
        !text.isEmpty && (try? words("k=" + text)) == ["k=" + text] && StateValue(argument: text) == value
    }
}
