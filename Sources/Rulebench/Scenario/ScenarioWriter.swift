import Foundation

/// Writes a game as a scenario file: what `play`'s `save FILE.yaml` writes.
///
/// The scenario sets the game up as it was (seed, options, state overrides),
/// performs the actions that are applied now, in order (what was undone and
/// not redone is left out: undo is exact, so the state is the same), and
/// expects the final state's hash on its last step, so `rulebench run`
/// passes on it until the rules change what those actions do.
public enum ScenarioWriter {
    /// The scenario text.
    ///
    /// - Parameters:
    ///   - game: the session to write: its setup and the actions applied now.
    ///   - title: the scenario's title.
    ///   - packReference: how the file names its pack (a name under
    ///     rules/, or a path relative to the scenario file).
    public static func scenario(of game: Game, title: String, packReference: String) throws(RulebenchError) -> String {
        var file = ScenarioYAML()
        file.comment("Written by rulebench play (\(game.pack.name), seed \(game.seed)); check it with `rulebench run`.")
        file.begin(title: title, packReference: packReference, seed: game.seed, options: game.options, state: game.overrides)
        for entry in game.history.entries.prefix(game.history.cursor) { file.perform(entry.call) }
        let hash = try game.liveStateHash().hex
        file.append("  - expect: { hash: \"\(hash)\", invariants: hold }")
        return file.text
    }

    /// A path from `folder` to `target`, with `..` where needed ("../../rules/desert"):
    /// how a scenario file names its pack.
    public static func relativePath(from folder: URL, to target: URL) -> String {
        let from = folder.standardizedFileURL.pathComponents
        let to = target.standardizedFileURL.pathComponents
        var common = 0
        while common < from.count && common < to.count && from[common] == to[common] { common += 1 }
        let parts = Array(repeating: "..", count: from.count - common) + to[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
