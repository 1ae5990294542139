import Rulebench

/// The story sequences the last step performed (or the opening, or
/// `--sequence NAME`) started, resolved in the state right after it, as the
/// page's overlay plays them (Page/sequence.js). `serial` counts the times
/// any started: the page opens the overlay once per serial, not again on
/// every position sent.
struct StudioStory {
    let serial: Int
    let json: JSONValue

    /// The sequences `names` of `game`, resolved now; nil when there are none
    /// (a name with no file is left out: `check` reports the trigger).
    init?(names: [String], game: Game, serial: Int) {
        let book = game.sequenceBook()
        let played = names.compactMap { try? game.sequence($0, in: book) }
        guard !played.isEmpty else { return nil }
        self.serial = serial
        json = .object([("serial", .int(Int64(serial))), ("sequences", .array(played.map { $0.json(typed: TypedCall.typed) }))])
    }
}
