import ArgumentParser
import Foundation
import Rulebench
import RulebenchCommandLine

/// `rulebench replay LOG`: rebuilds a saved game, verifying every step's state hash.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Re-run a saved history, verifying the state hash of every step.",
        discussion: """
            Example:
              rulebench replay game.json
            The pack is looked for relative to the history file's folder first (where `save` \
            writes it), then as a pack name under rules/, then relative to the current folder.
            Exits 0 when every hash matches; 1 when a step is rejected or fails, or its state hash \
            differs, or the state after setup does (the message names the step); 2 when the file \
            is unreadable or malformed, its pack is missing or of another name or version, or a \
            step names an action or params the pack does not have.
            """
    )

    @Argument(help: "A history file written by `save` (JSON).")
    var log: String

    func run() throws {
        let url = URL(fileURLWithPath: log)
        let verdict: ReplayVerdict
        do {
            let saved = try SavedHistory(contentsOf: url)
            verdict = try saved.verify(relativeTo: url.deletingLastPathComponent(), source: log)
        } catch {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        if let mismatch = verdict.mismatch {
            complain("\(mismatch)")
            throw Outcome.failed.exitCode
        }
        let game = verdict.game
        print("\(log): \(game.history.count) steps replayed, every state hash matches (final \(game.stateHash))")
    }
}
