import ArgumentParser
import Foundation
import Rulebench

/// `rulebench replay LOG`: rebuilds a saved game, verifying every step's state hash.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Re-run a saved history, verifying the state hash of every step.",
        discussion: """
            Example:
              rulebench replay game.json
            Exits 0 when every hash matches, 2 when the file is unreadable, malformed, \
            from another pack version, or a step's hash differs (the message names the step).
            """
    )

    @Argument(help: "A history file written by `save` (JSON).")
    var log: String

    func run() throws {
        let url = URL(fileURLWithPath: log)
        do {
            let game = try Game.replay(contentsOf: url)
            print("\(log): \(game.history.entries.count) steps replayed, every state hash matches (final \(game.stateHash))")
        } catch {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
    }
}
