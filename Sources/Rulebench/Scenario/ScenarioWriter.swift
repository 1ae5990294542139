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
        var lines = ["# Written by rulebench play (\(YAMLText.comment(game.pack.name)), seed \(game.seed)); check it with `rulebench run`."]
        lines.append("scenario: \(Reproduction.yaml(.string(title)))")
        lines.append("rules: \(Reproduction.yaml(.string(packReference)))")
        lines.append("setup:")
        lines.append("  seed: \(game.seed)")
        if !game.options.isEmpty { lines.append("  options: \(Reproduction.yaml(Reproduction.table(game.options)))") }
        if !game.overrides.isEmpty {
            lines.append("  create: true")
            lines.append("  state:")
            for override in game.overrides {
                let value = override.value.map(Reproduction.yaml) ?? "null"
                lines.append("    \(Reproduction.yaml(.string(override.path.description))): \(value)")
            }
        }
        lines.append("steps:")
        for entry in game.history.entries.prefix(game.history.cursor) {
            lines.append("  - do: \(Reproduction.yaml(.string(entry.call.name)))")
            if !entry.call.params.isEmpty { lines.append("    with: \(Reproduction.yaml(Reproduction.table(entry.call.params)))") }
        }
        let hash = try game.liveStateHash().hex
        lines.append("  - expect: { hash: \"\(hash)\", invariants: hold }")
        return lines.joined(separator: "\n") + "\n"
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
