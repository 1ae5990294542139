/// A line `solve --value` found (the principal line, or a root move's line:
/// its refutation), written as a scenario file: the same setup, each move a
/// `do` step, and, when the line ends a finished game, a last step that
/// expects no legal call (`expect: { legal: none }`); `rulebench run`
/// replays it and checks every step as any scenario's.
public struct ValueScenario: Sendable {
    /// How the scenario names its pack (see `SolutionScenario.packName`).
    public var packReference: String
    /// The seed of the game's random generator.
    public var seed: Int64
    /// The setup options given.
    public var options: [String: StateValue]
    /// What the line is: "the principal line", "the line of place cell=2".
    public var what: String
    /// The seat to move at the start, and what the line is worth to it.
    public var seat: String
    public var verdict: GameValue.Verdict
    /// The moves, from the setup.
    public var line: [ActionCall]
    /// Whether the game is over at the line's end (no legal call).
    public var endsTheGame: Bool
    /// The command that found it, for the header.
    public var command: String

    public init(packReference: String, seed: Int64, options: [String: StateValue], what: String, seat: String,
                verdict: GameValue.Verdict, line: [ActionCall], endsTheGame: Bool, command: String) {
        self.packReference = packReference
        self.seed = seed
        self.options = options
        self.what = what
        self.seat = seat
        self.verdict = verdict
        self.line = line
        self.endsTheGame = endsTheGame
        self.command = command
    }

    /// Whether `line` played from `game`'s current state ends where no call
    /// is legal; the game is back where it was after.
    public static func endsTheGame(_ line: [ActionCall], in game: Game) throws(RulebenchError) -> Bool {
        let start = game.history.cursor
        defer { game.unwind(to: start) }
        for call in line { try game.perform(call) }
        return try game.legalActions().isEmpty
    }

    /// The scenario's YAML text.
    public var text: String {
        var file = ScenarioYAML()
        file.comment("Found by: \(command)")
        file.comment("\(what): \(line.count) move\(line.count == 1 ? "" : "s"), each seat playing its best after the first; "
                     + "for \(seat), the seat to move at the start: \(verdict)"
                     + (verdict.word == "estimate" ? "" : " (proven: searched to the end of every game that matters, every undo verified)") + ".")
        file.begin(title: "\(what) of \(packReference): \(verdict) for \(seat)", packReference: packReference, seed: seed,
                   options: options)
        for call in line { file.perform(call) }
        if endsTheGame { file.append("  - expect: { legal: none }") }
        return file.text
    }
}
