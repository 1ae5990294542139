import Rulebench

/// How the studio names a call: as one types it to `play` (`dash token=p1`):
/// the action, then `key=value` in key order, a string written bare when
/// `play` reads the bare text back as that same string, else as `play`
/// prints it (`name="a b"`, `code="007"`). So a label read back the way
/// `play` reads a line is the very call it names.
enum StudioCallLabel {
    static func label(_ call: ActionCall) -> String {
        ([call.name] + call.params.keys.sorted().map { "\($0)=\(text(call.params[$0]!))" }).joined(separator: " ")
    }

    static func text(_ value: StateValue) -> String {
        if case .string(let string) = value, !string.contains(where: \.isWhitespace), StateValue(argument: string) == value {
            return string
        }
        return "\(value)"
    }
}
