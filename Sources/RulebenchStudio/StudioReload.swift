import Foundation
import Rulebench

/// Live edit: when a file of the pack changes on disk, the pack is loaded
/// again and the history replayed with the new rules, step by step, so the
/// page can say which step now differs (another state hash) or fails.
///
/// The invariant: a pack that no longer loads, or sets up differently, never
/// replaces the game the pages show; the outcome says why instead.
enum StudioReload {
    /// The modification times of the files of the pack and of every base pack it
    /// extends (`Game.packFileTimes`), when last looked at: editing a base reloads too.
    struct Watch {
        private let times: [String: Date]

        init(game: Game) { times = game.packFileTimes() }

        /// True when a file was added, removed or written since.
        func changed(game: Game) -> Bool { game.packFileTimes() != times }
    }

    /// What a reload found, as the page shows it.
    struct Outcome {
        /// How many reloads there were (the page tells one from the next).
        var count: Int
        /// The first step that now gives another hash, or fails, and what happened.
        var firstDifference: (step: Int, message: String)?
        /// Why the pack could not be reloaded (the old rules stay).
        var error: String?

        var json: JSONValue {
            .object([
                ("count", .int(Int64(count))),
                ("step", firstDifference.map { .int(Int64($0.step)) } ?? .null),
                ("message", .string(firstDifference?.message ?? error ?? "every step replays as before")),
                ("error", error.map(JSONValue.string) ?? .null),
            ])
        }
    }

    /// Loads the pack of `old` again and replays its history (the applied
    /// steps and the redo tail) up to the first step that fails; the new
    /// game is at the old position, or as far as the steps replayed.
    static func replay(_ old: Game, configuration: Game.Configuration, count: Int) -> (game: Game?, summary: Outcome) {
        let game: Game
        do {
            game = try Game(pack: old.packFolder.path, options: old.options, seed: old.seed, configuration: configuration)
            for override in old.overrides { try game.setState(override.value, at: override.path) }
        } catch {
            return (nil, Outcome(count: count, error: "the pack does not load any more: \(error)"))
        }
        var difference: (step: Int, message: String)?
        if game.history.initialHash != old.history.initialHash {
            difference = (0, "the state after setup now has hash \(game.history.initialHash), before \(old.history.initialHash)")
        }
        for (index, entry) in old.history.entries.enumerated() {
            do {
                let redone = try game.perform(entry.call)
                if difference == nil, redone.hash != entry.hash {
                    difference = (index + 1, "step \(index + 1) (\(TypedCall.typed(entry.call))) now gives state hash \(redone.hash), before \(entry.hash)")
                }
            } catch {
                difference = difference ?? (index + 1, "step \(index + 1) (\(TypedCall.typed(entry.call))) now fails: \(error)")
                break
            }
        }
        _ = try? game.seek(to: min(old.history.cursor, game.history.entries.count))
        return (game, Outcome(count: count, firstDifference: difference))
    }
}
