import ArgumentParser
import Foundation
import Rulebench
import RulebenchCommandLine

/// `rulebench generate PACK --count N --goal G --out levels.yaml`: levels
/// from the pack's `generate(rng, params)`, each proven solvable, graded and
/// stored with its solution.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Make levels with the pack's generate(rng, params), each solved, graded and stored with its solution.",
        discussion: """
            Each candidate's options come from the pack's generate(rng, params), given a generator seeded for \
            that candidate alone (the candidates' seeds follow from --seed) and the --param values. The \
            candidate is set up (every level with game seed 0), dropped when its setup state's hash was seen \
            before, and solved as `rulebench solve` solves: kept only when the goal is reachable, with a \
            shortest line (or, with --any, the first line a depth-first search finds, stored as `found: any`), \
            and a grade: the line's moves, the states searched and the moves per state. --unique counts the \
            lines of that length (the same moves in another order are another line) and keeps only levels \
            with exactly one. --min-grade and --max-grade keep levels whose solution has that many moves.

            Each candidate is bounded by --max-depth and --max-states (and the count of --unique by \
            --max-count-moves): one that runs out is reported on standard error and skipped, never kept \
            unproven. The run is bounded by --time: at the limit, or on Ctrl-C, the levels finished so far are \
            written. Progress goes to standard error. The same command writes the same file, whatever --jobs: \
            the workers try candidates ahead, each in a game of its own, and the candidates are decided in the \
            order of their seeds, as one worker decides them.

            The file (docs/levels.md, scenarios/levels.schema.json) holds each level's seed, options, grade \
            and solution; `rulebench run FILE` replays every solution, and `rulebench solve --levels FILE \
            --write-solutions` stores new ones after the rules change.

            Exit codes: 0 --count levels made; 1 fewer (the time limit; the summary says why each candidate \
            was skipped), or a rule failed; 2 bad input (unknown pack or goal, a pack without generate, bad \
            arguments, an --out that cannot be written); 130 / 143 stopped by SIGINT / SIGTERM (what was \
            finished is written).

            Examples:
              rulebench generate Benchmarks/packs/pipes --count 100 --seed 1 --param rows=5 --param columns=5 \\
                --goal connected --out pipes-5x5.yaml
              rulebench generate Benchmarks/packs/eight --count 20 --param moves=12 --goal solved --unique --out eight.yaml
            """
    )

    @Argument(help: "The pack: a name under rules/ or a path to a pack folder.")
    var pack: String

    @Option(help: "The goal every level's solution reaches (a name in the pack's goals).")
    var goal: String

    @Option(parsing: .unconditional, help: "How many levels to make.", transform: NumberArgument.whole("--count"))
    var count: Int

    @OptionGroup var seedOption: SeedOption<GenerateCommand>

    @Option(name: .customLong("param"), help: ArgumentHelp("A param of generate, key=value (repeatable).", valueName: "key=value"))
    var params: [String] = []

    @OptionGroup var outOption: OutOption<GenerateCommand>

    @Flag(help: "Store the first line a depth-first search finds (labelled `found: any`), not a shortest one.")
    var any = false

    @Flag(help: "Keep only levels whose shortest solution is the only line of its length (counted, proven).")
    var unique = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Keep levels whose solution has at least this many moves.", valueName: "moves"),
            transform: NumberArgument.whole("--min-grade"))
    var minGrade = 1

    @Option(parsing: .unconditional, help: ArgumentHelp("Keep levels whose solution has at most this many moves.", valueName: "moves"),
            transform: NumberArgument.whole("--max-grade"))
    var maxGrade: Int?

    @OptionGroup var timeOption: TimeOption<GenerateCommand>

    @OptionGroup var jobsOption: JobsOption

    @Option(parsing: .unconditional, help: "Each candidate's longest line searched. (default: 40)", transform: NumberArgument.whole("--max-depth"))
    var maxDepth = 40

    @Option(parsing: .unconditional, help: "Each candidate's most distinct states kept. (default: 100000)",
            transform: NumberArgument.whole("--max-states"))
    var maxStates = 100_000

    @Option(parsing: .unconditional, help: "Moves the --unique count of each candidate may perform. (default: 200000)",
            transform: NumberArgument.whole("--max-count-moves"))
    var maxCountMoves = 200_000

    /// Seconds between progress lines (tests set 0).
    @Option(help: .hidden)
    var progressInterval: Double?

    func validate() throws {
        guard (1...1_000_000).contains(count) else { throw ValidationError("--count must be from 1 to 1000000, got \(count)") }
        guard (1...SolveCommand.maximumDepth).contains(maxDepth) else {
            throw ValidationError("--max-depth must be from 1 to \(SolveCommand.maximumDepth), got \(maxDepth)")
        }
        guard (1...Solver.Options.largestMaxStates).contains(maxStates) else {
            throw ValidationError("--max-states must be from 1 to \(Solver.Options.largestMaxStates), got \(maxStates)")
        }
        guard minGrade >= 0, maxGrade.map({ $0 >= minGrade }) ?? true else {
            throw ValidationError("--min-grade and --max-grade must be 0 or more, the least first")
        }
        guard outOption.out != nil else { throw ValidationError("Missing expected argument '--out <file>': the file the levels are written to") }
        try timeOption.check()
        if any && unique { throw ValidationError("--unique counts lines of the shortest length: it cannot take --any's line") }
        _ = try splitPairs(params, what: "--param")
    }

    /// The run's seed, its level file and its time limit, from the shared options.
    private var seed: Int64 { seedOption.seed }
    private var out: String { outOption.out ?? "" }
    private var time: Double { timeOption.seconds ?? Self.defaultTime ?? 600 }

    func run() throws {
        catchInterrupts()
        let configuration = gameConfiguration
        let game: Game
        do {
            game = try Game(pack: pack, configuration: configuration)
            guard game.pack.goals.contains(goal) else {
                complain("unknown goal '\(goal)' in pack '\(game.pack.name)'"
                         + (game.pack.goals.isEmpty ? ": the pack declares no goals" : " (goals: \(game.pack.goals.joined(separator: ", ")))"))
                throw Outcome.badInput.exitCode
            }
            try OutputFile(path: out, purpose: "the levels (--out)").checkWritable()
        } catch let error as RulebenchError {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        var options = LevelGenerator.Options(goal: goal, count: count)
        options.seed = seed
        options.params = try splitPairs(params, what: "--param").mapValues { StateValue(argument: $0) }
        options.any = any
        options.uniqueLimit = unique ? 2 : nil
        options.moves = minGrade...(maxGrade ?? Int.max)
        options.maxDepth = maxDepth
        options.maxStates = maxStates
        options.maxCountMoves = maxCountMoves
        options.seconds = time
        let result = try generate(options)
        if !result.file.levels.isEmpty { try write(result.file, game: game) }
        print(summary(result))
        if result.stop == .interrupted { throw interruptExitCode }
        if result.file.levels.count < count { throw Outcome.failed.exitCode }
    }

    /// Each worker's game: quiet, and with room for the search's states.
    private var gameConfiguration: Game.Configuration {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        configuration.animationSources = false
        configuration.memoryCap += maxStates * Solver.Options.bytesPerState * 2
        return configuration
    }

    /// Runs the generator on --jobs workers (each loads the pack once) with its progress on standard error.
    private func generate(_ options: LevelGenerator.Options) throws -> LevelGenerator.Result {
        let clock = MonotonicClock.seconds
        let progress = ProgressLine(pacer: progressInterval.map { ProgressPacer(interval: $0, start: clock()) }
                                        ?? ProgressPacer(toTerminal: stderrIsTerminal, start: clock()))
        let (pack, count, configuration) = (pack, count, gameConfiguration)
        do {
            let result = try LevelGenerator.run(options: options, workers: jobsOption.jobs, packReference: pack,
                                                makeGame: { try Game(pack: pack, configuration: configuration) },
                                                shouldStop: { wasInterrupted }) { event, tally in
                switch event {
                case .kept: break
                case .skipped(let seed, let why):
                    // A candidate that ran out of budget is reported: it may have been a level.
                    switch why {
                    case .outOfBudget, .uniquenessUnproven:
                        FileHandle.standardError.write(Data("skipped candidate seed \(seed): \(why.text)\n".utf8))
                    default: break
                    }
                }
                progress.show("generate \(pack): \(tally.kept)/\(count) levels, \(tally.candidates) candidates", at: clock())
            }
            progress.end(nil)
            return result
        } catch RulebenchError.badInput(let problem) {   // a pack without generate
            progress.end(nil)
            complain("\(RulebenchError.badInput(problem))")
            throw Outcome.badInput.exitCode
        } catch {
            progress.end(nil)
            complain("\(error)")
            throw Outcome.failed.exitCode
        }
    }

    private func write(_ file: LevelFile, game: Game) throws {
        var file = file
        file.packReference = SolutionScenario.packReference(pack, of: game, forFileAt: out)
        let header = ["Levels of \(game.pack.name), made by `rulebench generate` with --seed \(seed) "
                      + "(each level's seed and the params give its options again).",
                      "`rulebench run` on this file replays every solution; `rulebench solve --levels` on it stores new ones."]
        do {
            try OutputFile(path: out, purpose: "the levels (--out)").write(file.text(header: header))
        } catch {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
    }

    private func summary(_ result: LevelGenerator.Result) -> String {
        let levels = result.file.levels
        let why = result.skipped.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
            .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        var text = "\(levels.count) level\(levels.count == 1 ? "" : "s")" + (levels.isEmpty ? "" : " written to \(out)")
            + ": \(result.candidates) candidate\(result.candidates == 1 ? "" : "s") tried"
            + (why.isEmpty ? "" : " (skipped: \(why))") + " in \(String(format: "%.1f", result.seconds)) s"
        if let fewest = levels.compactMap(\.grade?.moves).min(), let most = levels.compactMap(\.grade?.moves).max() {
            text += "; solutions of \(fewest)-\(most) moves"
        }
        switch result.stop {
        case .done: break
        case .time: text += "\nstopped at the time limit (--time \(time)) with \(levels.count) of \(count) levels"
            + (levels.isEmpty && result.candidates > 0 ? ": no candidate could be kept, \(why.isEmpty ? "none finished" : why)" : "")
        case .interrupted: text += "\ninterrupted: the \(levels.count) levels finished are kept"
        }
        return text
    }
}

extension GenerateCommand: SeededCommand, OutputCommand, TimedCommand {
    typealias Seed = Int64
    static let defaultSeed: Int64 = 1
    static var seedHelp: ArgumentHelp { "The run's seed: the candidates' seeds follow from it. (default: 1)" }
    static var outHelp: ArgumentHelp { ArgumentHelp("Write the levels to this file (YAML). Required.", valueName: "file") }
    static var timeHelp: ArgumentHelp { ArgumentHelp("Seconds the whole run may take. (default: 600)", valueName: "seconds") }
    static var defaultTime: Double? { 600 }
}
