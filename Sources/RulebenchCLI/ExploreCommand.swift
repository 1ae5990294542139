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
            verified strictly, so a pack that explores cleanly undoes exactly along every path. The counts \
            end early, at a depth of 0, when no action sequence is that long. The number of sequences grows \
            exponentially with the depth, so --depth is at most \(ExploreCommand.maximumDepth). Ctrl-C or \
            SIGTERM stops the walk and prints the partial counts (exit 130 or 143). --unique also counts the \
            distinct states at each depth (sequences that reach the same state hash are one state): it walks \
            a depth at a time, each distinct state of a depth expanded once and the sequences that reach it \
            carried as a count, so it costs the distinct states, not the sequences, and prints the same \
            sequence counts. It keeps a copy of each distinct state of the depth it expands and the next, \
            at most --max-states in all.

            Example:
              rulebench explore template --depth 4 --option players=3
              rulebench explore template --depth 4 --unique
            """
    )

    /// The deepest walk allowed: the tree grows exponentially, so even 20
    /// levels of a pack with a handful of legal actions never finish; a
    /// larger number can only be a typo (and `Int.max` once crashed).
    static let maximumDepth = 64

    @OptionGroup var packOptions: PackOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("The depth to explore to (1 to \(ExploreCommand.maximumDepth)).", valueName: "n"),
            transform: NumberArgument.whole("--depth"))
    var depth: Int

    @Option(parsing: .unconditional, help: "Seed of the game's random generator.",
            transform: NumberArgument.whole("--seed"))
    var seed: Int64 = 1

    @Flag(help: "Count the distinct states at each depth too.")
    var unique = false

    @Option(parsing: .unconditional, help: ArgumentHelp("With --unique: the most distinct states kept (each a copy of the state).", valueName: "n"),
            transform: NumberArgument.whole("--max-states"))
    var maxStates = Solver.Options.defaultMaxStates

    func validate() throws {
        guard (1...Solver.Options.largestMaxStates).contains(maxStates) else {
            throw ValidationError("--max-states must be from 1 to \(Solver.Options.largestMaxStates), got \(maxStates)")
        }
        guard (1...Self.maximumDepth).contains(depth) else {
            throw ValidationError("--depth must be from 1 to \(Self.maximumDepth), got \(depth): the number of sequences grows exponentially with the depth, so start small (4 to 8) and go up")
        }
    }

    func run() throws {
        catchInterrupts()
        let game: Game
        do {
            var configuration = Game.Configuration()
            configuration.printHandler = { _ in }
            configuration.animationSources = false
            if unique { configuration.memoryCap += maxStates * Solver.Options.bytesPerState * 2 }
            game = try Game(pack: packOptions.pack, options: try packOptions.setupOptionValues(), seed: seed, configuration: configuration)
        } catch let error as RulebenchError {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        let start = Date()
        let clock = Fuzzer.monotonicClock
        let progress = ProgressLine(pacer: ProgressPacer(toTerminal: stderrIsTerminal, start: clock()))
        do {
            let explorer = Explorer(game: game, depth: depth, distinctBound: unique ? maxStates : nil)
            let counts = try explorer.run(shouldStop: { wasInterrupted }) { counts in
                progress.show("explore \(packOptions.pack) --unique: depth \(counts.nodes.count) of \(depth) done, "
                              + "\(counts.distinct?.reduce(0, +) ?? 0) distinct states so far", at: clock())
            }
            progress.end(nil)
            let seconds = Date().timeIntervalSince(start)
            for (level, nodes) in counts.nodes.enumerated() {
                let distinct = counts.distinct.map { "  (\($0[level]) distinct)" } ?? ""
                print("depth \(level + 1): \(nodes)" + distinct)
            }
            if let distinct = counts.distinct {
                // The sequences were counted, not walked: the work is the distinct states.
                let states = distinct.reduce(0, +)
                print("total \(counts.total) sequences, counted by expanding each of the \(states) distinct states of each depth once, "
                      + "in \(String(format: "%.2f", seconds)) s (\(Int(Double(states) / max(seconds, 1e-9))) states/s), every undo verified")
            } else {
                print("total \(counts.total) nodes in \(String(format: "%.2f", seconds)) s (\(Int(Double(counts.total) / max(seconds, 1e-9))) nodes/s), every undo verified")
            }
            if wasInterrupted {
                complain("interrupted: the counts are partial")
                throw interruptExitCode
            }
        } catch let failure as ExplorationFailure {
            if wasInterrupted {   // the stop request ended the running call
                complain("interrupted: the walk stopped before its counts were complete")
                throw interruptExitCode
            }
            complain("\(failure)")
            throw Outcome.failed.exitCode
        }
    }
}
