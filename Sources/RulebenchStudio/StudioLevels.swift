import Foundation
import Rulebench

/// A level file opened in the studio (`rulebench studio levels.yaml`,
/// docs/levels.md): its levels, the one set up now, and where the history
/// stands on that level's stored solution.
///
/// The invariant: a level is set up only by the engine, as `rulebench run`
/// sets it up (`Game.restart` with the file's game seed and the level's
/// options), and a solution step is the stored call performed by the engine
/// like any other call, so the history, its verified undo and redo, and the
/// slider treat it as any step. The page sends only a level's number, which
/// is checked against the list before it is used.
struct StudioLevels {
    /// The file as read, and how the page and messages name it.
    let file: LevelFile
    let display: String
    /// The level set up now (an index into `file.levels`).
    private(set) var current = 0

    /// Reads the level file at `url` (bounded, as every input file is) and
    /// loads its pack; the game is set up with the first level.
    static func open(_ url: URL, configuration: Game.Configuration) throws(RulebenchError) -> (levels: StudioLevels, game: Game) {
        let display = StudioSource.display(url)
        let file = try LevelFile.parse(contentsOf: url, displayPath: display)
        guard !file.levels.isEmpty else {
            throw .badInput(InputProblem("the level file has no levels (make some with `rulebench generate`)", file: display))
        }
        let game = try LevelReplay(file: file, display: display, folder: url.deletingLastPathComponent()).makeGame(configuration: configuration)
        var levels = StudioLevels(file: file, display: display)
        try levels.setUp(number: 1, in: game)
        return (levels, game)
    }

    /// Sets up level `number` (1-based, as the page lists them) in `game`: a
    /// new game of the same pack, its history empty.
    mutating func setUp(number: Int, in game: Game) throws(RulebenchError) {
        guard (1...file.levels.count).contains(number) else {
            throw .badInput(InputProblem("no level \(number): \(display) has levels 1 to \(file.levels.count)"))
        }
        let level = file.levels[number - 1]
        do {
            try game.restart(seed: file.gameSeed, options: level.options)
        } catch {
            throw .badInput(InputProblem("level \(level.name) does not set up: \(error)", file: display, line: level.line ?? 1))
        }
        current = number - 1
    }

    /// The stored call that comes next from the game's history position,
    /// when the steps applied so far are the solution's first calls.
    ///
    /// - Throws: `.badInput` saying why there is none: no stored solution,
    ///   a history that left it (and the step to undo back to), or its end.
    func nextCall(in game: Game) throws(RulebenchError) -> ActionCall {
        let level = file.levels[current]
        guard let calls = level.solution?.calls else {
            throw .badInput(InputProblem("level \(level.name) has no stored solution "
                                         + "(rulebench solve --levels \(display) --write-solutions adds one)"))
        }
        if let left = left(calls, game) {
            throw .badInput(InputProblem("step \(left + 1) (\(StudioPosition.label(game.history.entry(at: left).call))) is not the stored "
                                         + "solution's (\(StudioPosition.label(calls[left]))): undo back to step \(left) to follow it"))
        }
        guard game.history.cursor < calls.count else {
            throw .badInput(InputProblem("the stored solution's \(calls.count) calls are played (undo to play them again)"))
        }
        return calls[game.history.cursor]
    }

    /// The first applied step (0-based) that differs from the stored
    /// solution's call there, or that goes past its end; nil when none does.
    private func left(_ calls: [ActionCall], _ game: Game) -> Int? {
        (0..<game.history.cursor).first { $0 >= calls.count || game.history.entry(at: $0).call != calls[$0] }
    }

    /// What every position carries (small: the list itself is `listText`):
    /// the file, its goal, the level set up, its solution's length, how many
    /// of its calls the history has played (null once it left them) and,
    /// for the author's view only, whether the goal holds.
    func json(_ game: Game, seated: Bool) -> JSONValue {
        let level = file.levels[current]
        let calls = level.solution?.calls
        let played: JSONValue = calls.map { left($0, game) == nil ? .int(Int64(game.history.cursor)) : .null } ?? .null
        let holds: JSONValue = seated ? .null : ((try? game.goalHolds(file.goal)).map(JSONValue.bool) ?? .null)
        return .object([
            ("file", .string(display)), ("goal", .string(file.goal)), ("count", .int(Int64(file.levels.count))),
            ("level", .int(Int64(current + 1))), ("name", .string(StudioPosition.shown(level.name))),
            ("moves", calls.map { .int(Int64($0.count)) } ?? .null), ("played", played), ("goalHolds", holds),
        ])
    }

    /// The list the page picks from, sent to the page that asks for it
    /// (`{"type": "levels", "levels": [{"name", "moves", "found"}], "id"}`):
    /// once, not in every position. Its size follows the file's, which is bounded.
    func listText(id: Int64?) -> String {
        let levels = file.levels.map { level -> JSONValue in
            .object([("name", .string(StudioPosition.shown(level.name))),
                     ("moves", level.solution.map { .int(Int64($0.calls.count)) } ?? .null),
                     ("found", level.solution.map { .string($0.found.rawValue) } ?? .null)])
        }
        let members: [(String, JSONValue)] = [("type", .string("levels")), ("file", .string(display)), ("levels", .array(levels))]
        return JSONValue.object(members + (id.map { [("id", JSONValue.int($0))] } ?? [])).serialized(pretty: false)
    }
}
