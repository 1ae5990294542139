import ArgumentParser
import Foundation
import Rulebench
import RulebenchCommandLine

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

            --divide also prints, as perft tools do, one line per legal first action with the number of \
            sequences of length D that begin with it (`call: count`), then their total, which is the \
            `depth D` count: when a count differs from a published one, the first action whose count \
            differs is where to look. Progress goes to standard error while the walk runs: \
            a line redrawn in place on a terminal, one line every 5 seconds when it is piped. \
            --no-invariants counts without running the pack's invariants or building animation plans, \
            which is most of the time on some packs; every undo is still verified.

            --jobs N walks the subtrees below the first actions N at a time (below the first two actions \
            when there are fewer than 16 first actions per worker: chess has 20), each worker in a game of its own: the \
            counts (and --divide's lines) are those of one job. With --unique, the N workers expand the \
            distinct states of each depth in batches, in games of their own, and the command merges what \
            they reach in the order one job meets it: the same counts per depth as one job. A walk that \
            fails (or reaches --max-states) is walked again by one job, which reports the failure.

            Example:
              rulebench explore template --depth 4 --option players=3
              rulebench explore template --depth 4 --unique
              rulebench explore Benchmarks/packs/chess --depth 4 --divide --no-invariants
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

    @OptionGroup var seedOption: SeedOption<ExploreCommand>

    @Flag(help: "Count the distinct states at each depth too.")
    var unique = false

    @Flag(help: "Print the count of sequences of length D under each first action (perft's divide), then their total.")
    var divide = false

    @Flag(help: "Count without running invariants or building animation plans (every undo is still verified): to check a move generator fast.")
    var noInvariants = false

    @Option(parsing: .unconditional, help: ArgumentHelp("With --unique: the most distinct states kept (each a copy of the state). (default: \(Solver.Options.defaultMaxStates))", valueName: "n"),
            transform: NumberArgument.whole("--max-states"))
    var maxStates = Solver.Options.defaultMaxStates

    @OptionGroup var jobs: JobsOption

    func validate() throws {
        if divide && unique {
            throw ValidationError("--divide counts each first action's subtree on its own, which distinct states (--unique) cannot be summed over: use one or the other")
        }
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
        let makeGame: @Sendable () throws(RulebenchError) -> Game
        do {
            var configuration = Game.Configuration()
            configuration.printHandler = { _ in }
            configuration.animationSources = false
            configuration.checksInvariants = !noInvariants
            if unique { configuration.memoryCap += maxStates * Solver.Options.bytesPerState * 2 }
            let (pack, options, seed) = (packOptions.pack, try packOptions.setupOptionValues(), seedOption.seed)
            makeGame = { [configuration] () throws(RulebenchError) in
                try Game(pack: pack, options: options, seed: seed, configuration: configuration)
            }
            game = try makeGame()
        } catch let error as RulebenchError {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        if !unique { return try runDivided(game, makeGame: makeGame) }
        let start = Date()
        let clock = MonotonicClock.seconds
        let progress = ProgressLine(pacer: ProgressPacer(toTerminal: stderrIsTerminal, start: clock()))
        do {
            let explorer = Explorer(game: game, depth: depth, distinctBound: unique ? maxStates : nil)
            let show = { (counts: Explorer.Counts) in
                progress.show("explore \(packOptions.pack) --unique: depth \(counts.nodes.count) of \(depth) done, "
                              + "\(counts.distinct?.reduce(0, +) ?? 0) distinct states so far", at: clock())
            }
            // One job walks in the command's game; more expand each depth's states in games of their own.
            let counts = jobs.jobs == 1 ? try explorer.run(shouldStop: { wasInterrupted }, progress: show)
                : try explorer.runDistinct(on: jobs.pool, makeGame: makeGame, shouldStop: { wasInterrupted }, progress: show)
            progress.end(nil)
            let seconds = Date().timeIntervalSince(start)
            print("depth 0: 1  (1 distinct)" + Self.ended(counts, 0))
            for (level, nodes) in counts.nodes.enumerated() {
                let distinct = counts.distinct.map { "  (\($0[level]) distinct)" } ?? ""
                print("depth \(level + 1): \(nodes)" + distinct + Self.ended(counts, level + 1))
            }
            // The sequences were counted, not walked: the work is the distinct states.
            let states = counts.distinct?.reduce(0, +) ?? 0
            print("total \(counts.total) sequences, counted by expanding each of the \(states) distinct states of each depth once, "
                  + "in \(String(format: "%.2f", seconds)) s (\(Int(Double(states) / max(seconds, 1e-9))) states/s), every undo verified")
            print(Self.summary(counts, depth: depth))
            if wasInterrupted {
                complain("interrupted: the counts are partial")
                throw interruptExitCode
            }
        } catch let failure as ExplorationFailure {
            throw ended(by: failure)
        }
    }

    /// The exit a failed walk ends with: the stop request's when it ended the
    /// running call (a rule stopped mid-operation), a failure's otherwise.
    private func ended(by failure: ExplorationFailure) -> ExitCode {
        if wasInterrupted {
            complain("interrupted: the walk stopped before its counts were complete")
            return interruptExitCode
        }
        complain("\(failure)")
        return Outcome.failed.exitCode
    }

    /// The walk one first action at a time (`Explorer.runDivided`), with
    /// progress on standard error; with --divide, each first action's count.
    private func runDivided(_ game: Game, makeGame: @escaping @Sendable () throws(RulebenchError) -> Game) throws {
        let clock = MonotonicClock.seconds
        let started = clock()
        let progress = ProgressLine(pacer: ProgressPacer(toTerminal: stderrIsTerminal, start: started))
        let show: @Sendable (Int, Int, Int) -> Void = { done, of, counted in
            progress.show("explore: \(done)/\(of) first actions, \(counted) sequences in \(String(format: "%.0f", clock() - started)) s", at: clock())
        }
        do {
            let explorer = Explorer(game: game, depth: depth)
            // One job walks in the command's game, as before workers; more walk a subtree each in games of their own.
            let divided = jobs.jobs == 1 ? try explorer.runDivided(shouldStop: { wasInterrupted }, progress: show)
                : try explorer.runDivided(on: jobs.pool, makeGame: makeGame, shouldStop: { wasInterrupted }, progress: show)
            progress.end(nil)
            let seconds = clock() - started
            let counts = divided.counts
            print("depth 0: 1" + Self.ended(counts, 0))
            for (level, nodes) in counts.nodes.enumerated() { print("depth \(level + 1): \(nodes)" + Self.ended(counts, level + 1)) }
            if divide {
                for (call, count) in divided.byFirstAction { print("\(call): \(count)") }
                print("total: \(divided.byFirstAction.reduce(0) { $0 + $1.count }) sequences of length \(depth)")
            }
            print(summary(total: counts.total, seconds: seconds))
            print(Self.summary(counts, depth: depth))
            if wasInterrupted {
                complain("interrupted: the counts are partial")
                throw interruptExitCode
            }
        } catch let failure as ExplorationFailure {
            progress.end(nil)
            throw ended(by: failure)
        }
    }

    /// A depth's finished games, after its count: `; 1440 finished (120 distinct)`.
    static func ended(_ counts: Explorer.Counts, _ level: Int) -> String {
        let finished = counts.finished ?? [], endings = counts.endings ?? []
        guard level < finished.count, level < endings.count else { return "" }
        return "; \(finished[level]) finished (\(counts.endingsCapped ? "at least " : "")\(endings[level]) distinct)"
    }

    /// What the walk counted in all: finished games (sequences ending at a
    /// state with no legal call) and the positions they end at, over the
    /// depths expanded whole; with --unique, the distinct positions, summed over depths.
    static func summary(_ counts: Explorer.Counts, depth: Int) -> String {
        let finished = counts.finished ?? [], endings = counts.endings ?? []
        let games = finished.reduce(0) { $0.addingReportingOverflow($1).overflow ? Int.max : $0 + $1 }   // saturating, as the walk counts
        let whole = counts.nodes.last == 0
        let line = "finished games: \(games), ending at \(counts.endingsCapped ? "at least " : "")\(endings.reduce(0, +)) distinct positions "
            + "(depths 0 to \(max(finished.count - 1, 0))"
            + (whole ? ": the whole game" : "; a game finished at depth \(depth) is counted with --depth \(depth + 1)") + ")"
        guard let distinct = counts.distinct else { return line }
        return line + "; distinct positions: \(distinct.reduce(1, +)) (the start and each depth's, summed\(whole ? "" : ", to depth \(depth)"))"
    }

    /// The last line: how many nodes, how fast, and what was checked.
    private func summary(total: Int, seconds: Double) -> String {
        "total \(total) nodes in \(String(format: "%.2f", seconds)) s (\(Int(Double(total) / max(seconds, 1e-9))) nodes/s), every undo verified"
            + (noInvariants ? " (invariants and plans not run)" : "")
    }
}

extension ExploreCommand: SeededCommand {
    static let defaultSeed: Int64 = 1
}
