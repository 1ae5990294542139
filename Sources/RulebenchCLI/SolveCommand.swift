import ArgumentParser
import Foundation
import Rulebench
import RulebenchCommandLine

/// `rulebench solve PACK --goal NAME`: the shortest line of play that reaches a goal.
struct SolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "solve",
        abstract: "Find a shortest line of play from the setup to a state where a goal of the pack holds.",
        discussion: """
            Goals are declared in pack.lua: goals = { name = function(game) return true or false end }, or \
            goals = { name = { holds = ..., estimate = ..., dead_end = ... } } to guide the search. Each distinct \
            state (by state hash) is expanded once; every action is performed and undone through the checked \
            engine: check, invariants, and strict undo verification, as in explore.

            The search: breadth-first by default, so the line found is a shortest one, and when every reachable \
            state has been searched without meeting the goal, that is a proof that it never can be ("unreachable"). \
            When the goal declares estimate(game), the moves still needed, the search is best-first (A*): the \
            line is still a shortest one as long as the estimate never exceeds the true number (`rulebench check` \
            warns when it finds one that does); --no-estimate searches breadth-first all the same. --any takes \
            the first line found, depth-first with the estimate ordering the moves: fast, not shortest. A goal's \
            dead_end(game) prunes the states it is true of (they are never expanded). --state writes values \
            over the state after setup (as a scenario's setup.state), to start from a prepared position.

            The line is printed, and with --out written as a scenario whose last step expects the goal \
            (expect: { goal: NAME }), which `rulebench run` passes. Progress goes to standard error in every \
            mode (redrawn in place on a terminal, a line every 5 seconds in a log), so --json output stays clean. Ctrl-C (SIGINT) \
            or SIGTERM stops the search and prints the deepest depth searched completely.

            --jobs N spreads a breadth-first search over N workers, each expanding batches of states in a game \
            of its own, the next depth's batches while this depth's children are still merged; the children are \
            merged in the order one worker reaches them, so the outcome, the counts and the line are those of \
            --jobs 1 (of the shortest lines, the first in the order of the states of a depth, then of legal \
            moves). A* (a goal's estimate) and --any run on one worker whatever --jobs says.

            --value (instead of --goal) answers what a game of two seats taking turns (or one seat) is worth to the \
            seat to move when each plays its best: win, loss or draw (or a score) from the pack's result(game), \
            with the moves to it, every root move's value and the principal line; negamax with alpha-beta, a \
            transposition table and iterative deepening to --max-depth, every move performed and undone \
            (verified). --out writes the principal line as a scenario, --refutations DIR each worse root move's \
            line; --sweep name=first..last (repeatable) prints a table of values over an option's range. A move \
            of chance (the random generator) is refused (docs/cli.md, "Game values").

            Memory: the search keeps every distinct state it reaches, at most --max-states (about \
            \(Solver.Options.bytesPerState) bytes each), and a copy of each state waiting to be expanded.

            Exit codes: 0 a line was found; 1 none within --max-depth, or none at all ("unreachable: all N \
            reachable states searched"), or the search reached --max-states, or a step failed (an undo that does \
            not restore the state, a legal action that fails); 2 bad input (unknown pack or goal, bad arguments, \
            an --out that cannot be written); 130 / 143 stopped by SIGINT / SIGTERM.

            Examples:
              rulebench solve desert --goal won --option shuffle=false --state players.p1.cell=e1 \\
                --state players.p2.cell=d1 --state parts.propeller.holder=p1 --state parts.engine.holder=p1 \\
                --state parts.crystal.holder=p2 --state parts.compass.cell=e1 --out near-win.yaml
              rulebench solve desert --goal won --max-depth 3 --json
              rulebench solve Benchmarks/packs/eight --goal solved --max-depth 40      # A* on the Manhattan distance
              rulebench solve Benchmarks/packs/eight --goal solved --max-depth 40 --option tiles=213/456/78_   # unreachable
              rulebench solve Benchmarks/packs/eight --goal solved --max-depth 40 --no-estimate --jobs 2   # breadth-first, 2 workers
              rulebench solve tictactoe --value                                   # a draw, proven
              rulebench solve tictactoe --value --sweep rows=1..3 --sweep k=2..3   # a table of values
            """
    )

    /// The deepest search allowed: the walk recurses once per move.
    static let maximumDepth = 200

    @OptionGroup var packOptions: PackOptions
    @OptionGroup var jobs: JobsOption

    @Option(name: .customLong("goal"), help: "The goal to reach: a name in the pack's `goals` (not with --value).")
    var goalName: String?
    /// The goal searched for (every mode but --value has one: `validate`).
    var goal: String { goalName ?? "" }

    @Flag(help: "The game's value for the seat to move, each seat playing its best: win, loss or draw (or a score), from the pack's result(game) (alpha-beta; see docs/cli.md).")
    var value = false

    @Option(help: ArgumentHelp("With --value: write each root move's line that is worse than the best (its refutation) as a scenario in this folder.",
                               valueName: "folder"))
    var refutations: String?

    @Option(help: ArgumentHelp("With --value: a table of values over a whole-number option's range, name=first..last (repeatable: every combination).",
                               valueName: "name=first..last"))
    var sweep: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp("The longest line searched, in moves (0 to \(SolveCommand.maximumDepth)). (default: \(SolveCommand.defaultMaxDepth))", valueName: "n"),
            transform: NumberArgument.whole("--max-depth"))
    var maxDepth = SolveCommand.defaultMaxDepth
    static let defaultMaxDepth = 20

    @Option(parsing: .unconditional,
            help: ArgumentHelp("The most distinct states the search keeps (about \(Solver.Options.bytesPerState) bytes each; the game's memory cap grows with it). (default: \(Solver.Options.defaultMaxStates))",
                               valueName: "n"),
            transform: NumberArgument.whole("--max-states"))
    var maxStates = Solver.Options.defaultMaxStates

    @Flag(help: "Any line will do: depth-first, the goal's estimate ordering the moves (fast; not a shortest line).")
    var any = false

    @Flag(help: "Search breadth-first even when the goal declares an estimate.")
    var noEstimate = false

    @OptionGroup var seedOption: SeedOption<SolveCommand>

    @Option(name: .customLong("state"), help: ArgumentHelp("A value written over the state after setup, path=value (repeatable; null removes it).",
                                                           valueName: "path=value"))
    var stateOverrides: [String] = []

    @OptionGroup var outOption: OutOption<SolveCommand>

    @OptionGroup var jsonOption: JSONOption<SolveCommand>

    /// Seconds between progress lines (tests set 0: a line after every call into the kernel).
    @Option(help: .hidden)
    var progressInterval: Double?

    func validate() throws {
        if value {
            guard goalName == nil else { throw ValidationError("--value searches for the game's value, not a goal: leave out --goal") }
            guard !any, !noEstimate else { throw ValidationError("--any and --no-estimate are for --goal; --value searches alpha-beta") }
            guard maxDepth >= 1 else { throw ValidationError("--max-depth must be from 1 to \(Self.maximumDepth) with --value") }
            guard stateOverrides.isEmpty else { throw ValidationError("--state is for --goal; --value searches from the setup") }
        } else {
            guard goalName != nil else { throw ValidationError("give --goal NAME (a goal to reach) or --value (the game's value)") }
            guard refutations == nil, sweep.isEmpty else { throw ValidationError("--refutations and --sweep are for --value") }
        }
        if !sweep.isEmpty {
            _ = try sweepRanges()
            guard outOption.out == nil, refutations == nil else { throw ValidationError("--sweep writes a table: leave out --out and --refutations") }
        }
        guard (0...Self.maximumDepth).contains(maxDepth) else {
            throw ValidationError("--max-depth must be from 0 to \(Self.maximumDepth), got \(maxDepth)")
        }
        guard (1...Solver.Options.largestMaxStates).contains(maxStates) else {
            throw ValidationError("--max-states must be from 1 to \(Solver.Options.largestMaxStates), got \(maxStates)")
        }
        _ = try overrides()
    }

    /// The `--state` overrides, in order.
    private func overrides() throws -> [(path: StatePath, value: StateValue?)] {
        try stateOverrides.map { pair in
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw ValidationError("--state expects path=value, got '\(pair)'")
            }
            let path: StatePath
            do { path = try StatePath(parsing: String(pair[..<equals])) } catch {
                throw ValidationError("--state \(pair): \(error)")
            }
            let text = String(pair[pair.index(after: equals)...])
            return (path, text == "null" ? nil : StateValue(argument: text))
        }
    }

    func run() throws {
        catchInterrupts()
        if value { return try runValue() }
        let options = try packOptions.setupOptionValues()
        let state = try overrides()
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        configuration.animationSources = false
        let build = { @Sendable [pack = packOptions.pack, seed = seedOption.seed] (configuration: Game.Configuration) throws(RulebenchError) -> Game in
            let game = try Game(pack: pack, options: options, seed: seed, configuration: configuration)
            // Tables missing on a path are created, as play's `save FILE.yaml`
            // records them: the scenario written says `create: true`.
            for (path, value) in state { try game.setState(value, at: path) }
            return game
        }
        // A helper's game (--jobs) holds one state at a time: the rules' cap.
        let makeGame = { @Sendable [configuration] () throws(RulebenchError) -> Game in try build(configuration) }
        // The search lives in the game's Lua state: its memory is on top of the rules' cap.
        configuration.memoryCap += maxStates * Solver.Options.bytesPerState * 2
        let game = try searchedGame(try build(configuration))
        let result = try search(game, makeGame: makeGame)

        var written: String?
        if case .solved(let line) = result.outcome, let out = outOption.out {
            written = try write(line, to: out, game: game, state: state, statistics: result.statistics)
        }
        if jsonOption.json {
            print(jsonReport(result, scenario: written))
        } else {
            report(result, scenario: written)
        }
        switch result.outcome {
        case .solved: return
        case .interrupted: throw interruptExitCode
        default: throw Outcome.failed.exitCode
        }
    }

    /// The game the search runs in, once its goal and `--out` are known to
    /// be usable; bad input exits 2 with one line saying what is wrong.
    private func searchedGame(_ making: @autoclosure () throws -> Game) throws -> Game {
        let game: Game
        do {
            game = try making()
            guard game.pack.goals.contains(goal) else {
                let goals = game.pack.goals
                complain("unknown goal '\(goal)' in pack '\(game.pack.name)'" + (goals.isEmpty
                    ? ": the pack declares no goals; add goals = { name = function(game) return ... end } to its pack.lua"
                    : " (goals: \(goals.joined(separator: ", ")))"))
                throw Outcome.badInput.exitCode
            }
        } catch let error as RulebenchError {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        if let out = outOption.out {
            do { try OutputFile(path: out, purpose: "the solution (--out)").checkWritable() } catch {
                complain("\(error)")
                throw Outcome.badInput.exitCode
            }
        }
        return game
    }

    /// Runs the search with the progress line; a failure or a stop request
    /// exits with its code after saying so.
    private func search(_ game: Game, makeGame: @escaping @Sendable () throws(RulebenchError) -> Game) throws -> Solver.Result {
        var solverOptions = Solver.Options(goal: goal)
        solverOptions.maxDepth = maxDepth
        solverOptions.maxStates = maxStates
        solverOptions.any = any
        solverOptions.usesEstimate = !noEstimate
        let clock = MonotonicClock.seconds
        let progress = ProgressLine(pacer: progressInterval.map { ProgressPacer(interval: $0, start: clock()) }
                                        ?? ProgressPacer(toTerminal: stderrIsTerminal, start: clock()))
        let solver = ParallelSolver(solver: Solver(game: game, options: solverOptions), pool: jobs.pool, makeGame: makeGame)
        let outcome = Swift.Result { () throws(ExplorationFailure) -> Solver.Result in
            try solver.run(clock: clock, shouldStop: { wasInterrupted }) { statistics in
                progress.show(status(statistics), at: clock())
            }
        }
        switch outcome {
        case .success(let result):
            progress.end(status(result.statistics))
            return result
        case .failure(let failure):
            progress.end(nil)
            if wasInterrupted {   // the stop request ended the running call
                complain("interrupted: the search stopped")
                throw interruptExitCode
            }
            complain("\(failure)")
            throw Outcome.failed.exitCode
        }
    }

    /// Writes the scenario; returns its path.
    private func write(_ line: [ActionCall], to path: String, game: Game, state: [(path: StatePath, value: StateValue?)],
                       statistics: Solver.Statistics) throws -> String {
        let reference = SolutionScenario.packReference(packOptions.pack, of: game, forFileAt: path)
        let scenario = SolutionScenario(packReference: reference, goal: goal, seed: seedOption.seed, options: game.options, state: state,
                                        line: line, command: (["rulebench"] + CommandLine.arguments.dropFirst()).joined(separator: " "),
                                        statistics: statistics)
        do {
            try OutputFile(path: path, purpose: "the solution (--out)").write(scenario.text)
        } catch {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        return path
    }

    /// The progress line.
    private func status(_ s: Solver.Statistics) -> String {
        "solve \(packOptions.pack) (\(s.search.rawValue)): depth \(s.depth)/\(maxDepth)  \(s.distinctStates) states reached  "
            + "\(s.nodes) expanded  \(s.open) waiting  \(s.transpositions) transpositions" + (s.pruned > 0 ? "  \(s.pruned) dead ends" : "")
            + "  \(Int(s.statesPerSecond)) states/s"
    }

    private func report(_ result: Solver.Result, scenario: String?) {
        let s = result.statistics
        let pruned = s.pruned > 0 ? " (\(s.pruned) pruned as dead ends)" : ""
        switch result.outcome {
        case .solved(let line):
            print("solved: goal \(goal) is reached in \(line.count) move\(line.count == 1 ? "" : "s")"
                  + (line.isEmpty ? " (it holds at the start)" : ""))
            for (index, call) in line.enumerated() { print("  \(index + 1). \(call)") }
        case .unreachable:
            print("unreachable: all \(s.distinctStates) reachable states searched\(pruned); goal \(goal) holds in none of them")
        case .notWithin(let depth) where s.search == .bestFirst:
            // A* cut every line whose moves + estimate pass the limit: a proof only if the estimate never overestimates.
            print("no solution found within \(depth) moves: A* found no line of up to \(depth) moves to goal \(goal), which proves "
                  + "there is none only if the goal's estimate never overestimates (`rulebench check` looks for a state where it does; "
                  + "--no-estimate searches breadth-first) (\(s.distinctStates) distinct states seen\(pruned)); --max-depth searches deeper")
        case .notWithin(let depth):
            print("no solution within \(depth) moves: goal \(goal) is not reached by any line of up to \(depth) moves "
                  + "(\(s.distinctStates) distinct states seen\(pruned)); --max-depth searches deeper")
        case .boundReached(let depth):
            print("stopped: the search reached its bound of \(maxStates) states (--max-states) while searching depth \(depth); "
                  + (s.finishedDepth >= 0 && s.search != .depthFirst
                     ? "no line of up to \(s.finishedDepth) moves reaches goal \(goal)\(Self.ifAdmissible(s)). " : "")
                  + "Raise the bound, e.g. --max-states \(maxStates * 4) (about \(Solver.Options.bytesPerState) bytes each)")
        case .interrupted:
            print("interrupted while searching depth \(s.depth): "
                  + (s.finishedDepth >= 0 && s.search != .depthFirst
                     ? "every line of up to \(s.finishedDepth) moves was searched, none reaches goal \(goal)\(Self.ifAdmissible(s))"
                     : "no depth was searched completely"))
        }
        print("\(s.search.rawValue) (\(Self.guarantee(s.search))): \(s.distinctStates) distinct states reached, \(s.nodes) expanded, \(s.transpositions) transpositions "
              + "not searched again, \(s.performs) actions performed and undone (verified) in \(String(format: "%.2f", s.seconds)) s "
              + "(\(Int(s.statesPerSecond)) states/s)")
        if let scenario { print("wrote \(scenario) (rulebench run \(scenario) replays it)") }
    }

    /// What the line found is, by the search that found it.
    static func guarantee(_ search: Solver.Search) -> String {
        switch search {
        case .depthFirst: return "a line, not necessarily a shortest one"
        case .bestFirst: return "a shortest line if the estimate never overestimates"
        case .breadthFirst: return "a shortest line"
        }
    }

    /// What a depth finished by A* proves hangs on its estimate.
    private static func ifAdmissible(_ s: Solver.Statistics) -> String {
        s.search == .bestFirst ? " (if the estimate never overestimates)" : ""
    }

    /// Whether the line found is proven a shortest one: only breadth-first proves it
    /// (A* does if its estimate never overestimates, which the search cannot know).
    static func provenShortest(_ search: Solver.Search) -> Bool { search == .breadthFirst }

    private func jsonReport(_ result: Solver.Result, scenario: String?) -> String {
        let s = result.statistics
        let status: String
        var line: [ActionCall]?
        switch result.outcome {
        case .solved(let moves): status = "solved"; line = moves
        case .unreachable: status = "unreachable"
        case .notWithin: status = "not-within"
        case .boundReached: status = "bound-reached"
        case .interrupted: status = "interrupted"
        }
        var members: [(String, JSONValue)] = [
            ("pack", .string(packOptions.pack)), ("goal", .string(goal)), ("status", .string(status)),
            ("maxDepth", .int(Int64(maxDepth))), ("maxStates", .int(Int64(maxStates))),
            ("finishedDepth", .int(Int64(s.finishedDepth))), ("statesSearched", .int(Int64(s.nodes))),
            ("search", .string(s.search.rawValue)), ("distinctStates", .int(Int64(s.distinctStates))),
            ("transpositions", .int(Int64(s.transpositions))), ("pruned", .int(Int64(s.pruned))),
            ("actionsPerformed", .int(Int64(s.performs))), ("seconds", .double(s.seconds)),
            ("statesPerSecond", .double(s.statesPerSecond)),
        ]
        if case .unreachable = result.outcome {
            members.append(("message", .string("unreachable: all \(s.distinctStates) reachable states searched")))
        }
        if let line {
            members.append(("moves", .int(Int64(line.count))))
            members.append(("shortest", .bool(Self.provenShortest(s.search))))
            members.append(("guarantee", .string(Self.guarantee(s.search))))
            members.append(("line", .array(line.map { call in
                .object([("do", .string(call.name)),
                         ("with", JSONValue(.table(Dictionary(uniqueKeysWithValues: call.params.map { (StateKey.string($0.key), $0.value) }))))])
            })))
        }
        if let scenario { members.append(("scenario", .string(scenario))) }
        return JSONValue.object(members).serialized()
    }
}

/// A progress line on standard error: redrawn in place on a terminal, one
/// line per interval when piped. Standard error only, so a JSON report on
/// standard output stays clean. Workers of a parallel command may show it
/// from their threads: the lock keeps one line at a time.
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private var pacer: ProgressPacer
    private var shown = false

    init(pacer: ProgressPacer) {
        self.pacer = pacer
    }

    /// Shows `text` when a line is due.
    func show(_ text: @autoclosure () -> String, at now: Double) {
        lock.withLock {
            guard pacer.isDue(at: now) else { return }
            shown = true
            FileHandle.standardError.write(Data((stderrIsTerminal ? "\r\(text())   " : text() + "\n").utf8))
        }
    }

    /// Ends a line redrawn in place: with `text` as its last state, or as it is.
    func end(_ text: String?) {
        lock.withLock {
            guard shown, stderrIsTerminal else { return }
            FileHandle.standardError.write(Data(((text.map { "\r\($0)   " } ?? "") + "\n").utf8))
        }
    }
}

extension SolveCommand: SeededCommand, JSONReportingCommand, OutputCommand {
    static let defaultSeed: Int64 = 0
    static let outHelp = ArgumentHelp("Write the line as a scenario file that `rulebench run` passes.", valueName: "file")
}
