import Foundation
import Rulebench

/// A game opened from a `StudioSource`, with what the source says about its
/// steps: the failures of a scenario at the positions they happened, a
/// finding's header, a level file's levels, and the position to show first.
struct StudioOpening {
    /// The game, its history as the source left it.
    var game: Game
    /// Failure messages by history position (a scenario's failing steps, a history's first mismatch).
    var marks: [Int: [String]] = [:]
    /// The history position after each scenario step (scenarios and findings only).
    var scenarioSteps: [Int] = []
    /// The finding the file's header describes (findings only).
    var finding: StudioFinding?
    /// The level file's levels, the first set up (level files only).
    var levels: StudioLevels?
    /// The position the page opens at: a finding's failing step, else where the source left the cursor.
    var position: Int

    /// Opens `source` with a game of `configuration`; `seed` and `options` apply to a pack only.
    static func open(_ source: StudioSource, seed: Int64, options: [String: StateValue],
                     configuration: Game.Configuration) throws(RulebenchError) -> StudioOpening {
        switch source {
        case .pack(let reference):
            let game = try Game(pack: reference, options: options, seed: seed, configuration: configuration)
            return StudioOpening(game: game, position: 0)
        case .history(let url):
            let saved = try SavedHistory(contentsOf: url)
            let verdict = try saved.verify(configuration: configuration, relativeTo: url.deletingLastPathComponent(),
                                           source: StudioSource.display(url))
            var opening = StudioOpening(game: verdict.game, position: verdict.game.history.cursor)
            if let mismatch = verdict.mismatch { opening.marks[verdict.game.history.cursor, default: []].append("\(mismatch)") }
            return opening
        case .levels(let url):
            let opened = try StudioLevels.open(url, configuration: configuration)
            return StudioOpening(game: opened.game, levels: opened.levels, position: 0)
        case .scenario(let url), .finding(let url):
            return try scenario(url, isFinding: source.kind == "finding", configuration: configuration)
        }
    }

    private static func scenario(_ url: URL, isFinding: Bool, configuration: Game.Configuration) throws(RulebenchError) -> StudioOpening {
        let scenario = try ScenarioParser.parse(contentsOf: url, displayPath: StudioSource.display(url))
        let playback = try ScenarioPlayback.play(scenario, directory: url.deletingLastPathComponent(), configuration: configuration)
        var opening = StudioOpening(game: playback.game, position: playback.game.history.cursor)
        opening.scenarioSteps = playback.positions
        for marked in playback.failures {
            let failure = marked.failure
            let text = "step \(failure.step) (\(failure.summary)) at line \(failure.location.line): "
                + failure.mismatches.map(\.description).joined(separator: "; ")
            opening.marks[marked.position, default: []].append(text)
        }
        if isFinding {
            let header = try InputFile.text(url, display: StudioSource.display(url))
            opening.finding = StudioFinding(header: header, file: url, packFolders: playback.game.packFolders)
            // The failing step is the scenario's last failure (a reproduction fails at its end).
            if let last = playback.failures.last { opening.position = last.position }
        }
        return opening
    }
}
