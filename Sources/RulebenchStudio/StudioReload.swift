import Foundation
import Rulebench

/// Live edit: when a file of the pack changes on disk, the pack is loaded
/// again and the history replayed with the new rules, step by step, so the
/// page can say which step now differs (another state hash) or fails.
///
/// The invariant: a pack that no longer loads, or sets up differently, never
/// replaces the game the pages show; the outcome says why instead. No step
/// is lost: the steps an edit makes fail are kept (pending) and replayed by
/// the next reload, so fixing the file brings the whole history back.
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

    /// A step of the history before an edit that no longer replays (it fails, or a step before it
    /// does): kept with the hash it gave, so that when the file is fixed it is replayed again.
    struct PendingStep {
        var call: ActionCall
        var hash: StateHash
        /// Why it is not in the history now, in the page's words.
        var problem: String
    }

    /// What a replay gives: the new game (nil when the pack does not load), what it found, and the
    /// steps that did not replay, in order.
    struct Replay {
        var game: Game?
        var summary: Outcome
        var pending: [PendingStep] = []
    }

    /// Loads the pack of `old` again and replays its history (the applied steps, the redo tail, and
    /// the steps an earlier reload could not replay, `pending`) up to the first step that fails; the
    /// steps from there on are kept as pending, so a later fix brings them back. The new game is at
    /// `cursor` (the position the page was at before any step went pending), or as far as the steps replayed.
    static func replay(_ old: Game, pending: [PendingStep], cursor: Int, configuration: Game.Configuration, count: Int) -> Replay {
        let game: Game
        do {
            game = try Game(pack: old.packFolder.path, options: old.options, seed: old.seed, configuration: configuration)
            for override in old.overrides { try game.setState(override.value, at: override.path) }
        } catch {
            return Replay(game: nil, summary: Outcome(count: count, error: "the pack does not load any more: \(error)"), pending: pending)
        }
        var difference: (step: Int, message: String)?
        if game.history.initialHash != old.history.initialHash {
            difference = (0, "the state after setup now has hash \(game.history.initialHash), before \(old.history.initialHash)")
        }
        let steps = old.history.entries.map { (call: $0.call, hash: $0.hash) } + pending.map { (call: $0.call, hash: $0.hash) }
        var left: [PendingStep] = []
        for (index, step) in steps.enumerated() {
            if let failed = left.first {
                left.append(PendingStep(call: step.call, hash: step.hash, problem: "not replayed: step \(index + 1 - left.count) (\(TypedCall.typed(failed.call))) fails before it"))
                continue
            }
            do {
                let redone = try game.perform(step.call)
                if difference == nil, redone.hash != step.hash {
                    difference = (index + 1, "step \(index + 1) (\(TypedCall.typed(step.call))) now gives state hash \(redone.hash), before \(step.hash)")
                }
            } catch {
                let message = "step \(index + 1) (\(TypedCall.typed(step.call))) now fails: \(error)"
                difference = difference ?? (index + 1, message)
                left.append(PendingStep(call: step.call, hash: step.hash, problem: "now fails: \(error)"))
            }
        }
        _ = try? game.seek(to: min(cursor, game.history.count))
        return Replay(game: game, summary: Outcome(count: count, firstDifference: difference), pending: left)
    }
}
