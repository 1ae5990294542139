import ArgumentParser
import Foundation
import Rulebench

/// `rulebench explore PACK --depth D`: perft for rules.
struct ExploreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Count every legal action sequence up to a depth, performing and undoing each (verified).",
        discussion: """
            Like perft in chess engines: prints the number of action sequences of each length. Every undo is \
            verified strictly, so a pack that explores cleanly undoes exactly along every path.

            Example:
              rulebench explore template --depth 4 --option players=3
            """
    )

    @Argument(help: "The pack: a name under rules/ or a path to a pack folder.")
    var pack: String

    @Option(help: "The depth to explore to.")
    var depth: Int

    @Option(help: "Seed of the game's random generator.")
    var seed: Int64 = 1

    @Option(name: .customLong("option"), help: "A setup option, key=value (repeatable).")
    var setupOptions: [String] = []

    func validate() throws {
        guard depth >= 1 else { throw ValidationError("--depth must be at least 1") }
    }

    func run() throws {
        catchInterrupts()
        let game: Game
        do {
            var configuration = Game.Configuration()
            configuration.printHandler = { _ in }
            configuration.animationSources = false
            game = try Game(pack: pack, options: try parsePairs(setupOptions, what: "--option"), seed: seed, configuration: configuration)
        } catch let error as RulebenchError {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        let start = Date()
        do {
            let counts = try Explorer(game: game, depth: depth).run(shouldStop: { wasInterrupted })
            let seconds = Date().timeIntervalSince(start)
            for (level, nodes) in counts.nodes.enumerated() { print("depth \(level + 1): \(nodes)") }
            print("total \(counts.total) nodes in \(String(format: "%.2f", seconds)) s (\(Int(Double(counts.total) / max(seconds, 1e-9))) nodes/s), every undo verified")
            if wasInterrupted {
                complain("interrupted: the counts are partial")
                throw Outcome.interrupted.exitCode
            }
        } catch let failure as ExplorationFailure {
            complain("\(failure)")
            throw Outcome.failed.exitCode
        }
    }
}
