import ArgumentParser
import Foundation
import Rulebench
import RulebenchCommandLine

/// `rulebench solve --levels FILE [--write-solutions]`: solutions for the
/// levels of a level file, added where none is stored and refreshed where
/// the stored one no longer reaches the goal. Parsed on its own (the pack
/// comes from the file), when `solve` is given `--levels`.
struct SolveLevelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "solve",
        abstract: "Add or refresh the stored solutions of a level file (rulebench solve --levels FILE --write-solutions).",
        discussion: """
            Each level is set up from its options and its stored solution replayed (every undo verified). A \
            level whose solution still reaches the file's goal keeps it; a level without one, or whose \
            solution no longer reaches the goal (after a change of the rules), is solved again, as `rulebench \
            solve` solves, and gets the new line and grade. The levels themselves (names, seeds, options) never \
            change. Without --write-solutions nothing is written: the command says what it would store.

            Each level's search is bounded by --max-depth, --max-states and --level-time; a level whose search \
            runs out of one of them, or out of the game's memory, is named with the budget it ran out of and left \
            as it was, and the next level is solved.

            Exit codes: 0 every level has a solution that reaches the goal; 1 a level could not be solved \
            (unsolvable, or out of --max-depth / --max-states / --level-time: named, left as it was); 2 bad input; 130 / 143 \
            stopped (nothing written).

            Examples:
              rulebench solve --levels levels.yaml --write-solutions
              rulebench solve --levels levels.yaml --write-solutions --out repaired.yaml
            """
    )

    /// Whether `arguments` (after the program's name) ask for this command.
    static func isAsked(_ arguments: [String]) -> Bool {
        arguments.first == "solve" && arguments.dropFirst().contains { $0 == "--levels" || $0.hasPrefix("--levels=") }
    }

    @Option(help: ArgumentHelp("The level file whose solutions to add or refresh.", valueName: "file"))
    var levels: String

    @Flag(help: "Write the solutions into the file (or --out).")
    var writeSolutions = false

    @OptionGroup var outOption: OutOption<SolveLevelsCommand>

    @Flag(help: "Any line will do: depth-first, stored as `found: any`.")
    var any = false

    @Option(parsing: .unconditional, help: "The longest line searched. (default: 40)", transform: NumberArgument.whole("--max-depth"))
    var maxDepth = 40

    @Option(parsing: .unconditional, help: "The most distinct states each level's search keeps. (default: 100000)",
            transform: NumberArgument.whole("--max-states"))
    var maxStates = 100_000

    @Option(name: .customLong("level-time"), parsing: .unconditional,
            help: ArgumentHelp("Seconds each level's search may take: a level that runs out is named, left as it was, and the next is solved. (default: 120)",
                               valueName: "seconds"),
            transform: NumberArgument.seconds("--level-time"))
    var levelTime = 120.0

    /// Where the solutions go instead of over --levels (the shared `--out`).
    private var out: String? { outOption.out }

    func validate() throws {
        guard (1...SolveCommand.maximumDepth).contains(maxDepth) else {
            throw ValidationError("--max-depth must be from 1 to \(SolveCommand.maximumDepth), got \(maxDepth)")
        }
        guard (1...Solver.Options.largestMaxStates).contains(maxStates) else {
            throw ValidationError("--max-states must be from 1 to \(Solver.Options.largestMaxStates), got \(maxStates)")
        }
        if out != nil && !writeSolutions { throw ValidationError("--out writes the solutions: give --write-solutions with it") }
    }

    func run() throws {
        catchInterrupts()
        let url = URL(fileURLWithPath: levels)
        let replay: LevelReplay
        let game: Game
        var configuration = Game.Configuration()
        configuration.animationSources = false
        configuration.memoryCap += maxStates * Solver.Options.bytesPerState * 2
        let target = OutputFile(path: out ?? levels, purpose: out == nil ? "the level file (--levels)" : "the level file (--out)")
        do {
            let file = try LevelFile.parse(contentsOf: url, displayPath: levels)
            replay = LevelReplay(file: file, display: levels, folder: url.deletingLastPathComponent())
            game = try replay.makeGame(configuration: configuration)
            if writeSolutions { try target.checkWritable() }
        } catch {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        var options = Solver.Options(goal: replay.file.goal)
        options.maxDepth = maxDepth
        options.maxStates = maxStates
        options.any = any
        var changed = 0, unsolved = 0
        let repaired: LevelFile
        do {
            repaired = try LevelRepair(replay: replay, solverOptions: options, levelSeconds: levelTime).run(in: game, shouldStop: { wasInterrupted }) { level, change in
                switch change {
                case .kept: break
                case .solved(let was, let moves):
                    changed += 1
                    print("level \(level.name): " + (was.map { "its solution no longer reaches the goal (\($0)); " } ?? "no solution stored; ")
                          + "\(writeSolutions ? "stored" : "found") a new one of \(moves) move\(moves == 1 ? "" : "s")")
                case .unsolved(let why):
                    unsolved += 1
                    print("level \(level.name): no solution stored: \(why)")
                }
            }
        } catch {
            complain("\(error)")
            throw Outcome.failed.exitCode
        }
        if wasInterrupted {
            complain("interrupted: nothing written")
            throw interruptExitCode
        }
        let count = replay.file.levels.count
        print("\(count) level\(count == 1 ? "" : "s"): \(count - changed - unsolved) kept their solution, \(changed) "
              + (writeSolutions ? "given a new one" : "would get a new one (--write-solutions stores them)")
              + (unsolved > 0 ? ", \(unsolved) could not be solved" : ""))
        if writeSolutions && (changed > 0 || out != nil) {
            do {
                try target.write(repaired.text(header: Self.header(of: url)))
            } catch {
                complain("\(error)")
                throw Outcome.badInput.exitCode
            }
            print("wrote \(out ?? levels)")
        }
        if unsolved > 0 { throw Outcome.failed.exitCode }
    }

    /// The comment lines at the top of the file, kept as they were.
    private static func header(of url: URL) -> [String] {
        guard let text = try? InputFile.text(url, display: url.path) else { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: false).prefix { $0.hasPrefix("#") }
            .map { String($0.dropFirst($0.hasPrefix("# ") ? 2 : 1)) }
    }
}

extension SolveLevelsCommand: OutputCommand {
    static var outHelp: ArgumentHelp { ArgumentHelp("Write the file here instead of over --levels.", valueName: "file") }
}
