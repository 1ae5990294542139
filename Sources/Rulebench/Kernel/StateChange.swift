/// One slot of the state that differs between two moments: a step's diff in
/// a report, or a slot an undo did not restore.
public struct StateChange: Hashable, Sendable, CustomStringConvertible {
    /// The slot's dotted path, e.g. `players.p1.tile`.
    public var path: String
    /// The value before, rendered.
    public var before: String
    /// The value after, rendered.
    public var after: String
    /// An explanation when the values look alike (a copy instead of the original table).
    public var note: String?

    /// How an absent value reads (the kernel shows it as Lua's `nil`).
    public static let absent = "absent"

    /// A change from its parts.
    public init(path: String, before: String, after: String, note: String? = nil) {
        self.path = path
        self.before = before
        self.after = after
        self.note = note
    }

    /// `path: before -> after`, and the note.
    public var description: String { "\(path): \(before) -> \(after)" + (note.map { " (\($0))" } ?? "") }
}

/// The name undo's differences had before every state diff was a `StateChange`.
@available(*, deprecated, renamed: "StateChange")
public typealias StateDifference = StateChange
