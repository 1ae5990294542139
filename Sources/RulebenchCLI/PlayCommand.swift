import ArgumentParser
import Foundation
import Rulebench
import RulebenchCommandLine

/// `rulebench play PACK`: an interactive game in the terminal (or from a pipe).
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a pack interactively: the board, numbered legal actions, undo, redo, history.",
        discussion: """
            Shows the pack's render of the board and the legal actions, numbered and grouped by action \
            name, then reads one command per line:

              N                     perform action N of the list
              ACTION key=value ...  perform an action by name (values as in --option)
              undo [N], undo turn   undo the last action(s), or to the last checkpoint
              undo last turn        take back the last turn, back to the checkpoint before the last
                                    action (where every move is a checkpoint: the last move)
              redo [N]              redo what was undone
              history               the actions performed, and those undone
              state [PATH]          a value of the state: state tokens.p1.square
              hash                  the state hash, for a scenario's expect: { hash: ... }
              timeline              the animation of the last action, as a chart
              board, actions        show the board or the legal actions again
              goal [NAME]           whether a goal of the pack holds now (every goal without NAME)
              sequence [NAME]       a story sequence played now, as its transcript (docs/sequences.md);
                                    the sequences a step or the opening starts are printed as they start
              save FILE             save the history (rulebench replay FILE checks it)
              save FILE.yaml        save the session as a scenario (rulebench run FILE.yaml checks it)
              help, quit

            Errors are shown and the session goes on. Input may be piped, which makes \
            a session a script; the end of input ends the session with exit code 0.

            Examples:
              rulebench play template --seed 3 --option players=3
              rulebench play tictactoe --as x --bot o=alphabeta      # x against a bot that never loses
              printf 'step token=p1\\n1\\nundo\\nhistory\\n' | rulebench play template

            Exit codes: 0 the session ended; 2 the pack does not load or setup fails.
            """
    )

    @OptionGroup var packOptions: PackOptions

    @OptionGroup var seedOption: SeedOption<PlayCommand>

    @Option(name: .customLong("as"), help: ArgumentHelp("Play as this seat of a pack with seats: its calls, its view of the state (`state`, `hash`), its undo turn; what reads the whole state is refused.", valueName: "seat"))
    var seat: String?

    @Option(name: .customLong("bot"), help: ArgumentHelp("A seat the program plays, SEAT=KIND (repeatable): KIND random, greedy, alphabeta[:DEPTH[:STATES]] or mcts[:PLAYOUTS[:MOVES]] (docs/bots.md). Bots move at the start and after each of your moves.", valueName: "seat=kind"))
    var botSeats: [String] = []

    /// The `--bot` pairs, read.
    private func bots() throws -> [String: Bot] {
        try splitPairs(botSeats, what: "--bot").mapValues { spec in
            guard let bot = Bot(spec: spec) else { throw ValidationError("--bot: '\(spec)' is not a bot (\(Bot.forms))") }
            return bot
        }
    }

    func validate() throws { _ = try bots() }

    func run() throws {
        let game: Game
        do {
            var configuration = Game.Configuration()
            // What rules print goes with the session's output, in order.
            configuration.printHandler = { text in
                print("print: " + text)
                StandardOutput.flush()
            }
            game = try Game(pack: packOptions.pack, options: try packOptions.setupOptionValues(), seed: seedOption.seed, configuration: configuration)
        } catch let error as RulebenchError {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        let interactive = isatty(0) != 0
        let session = PlaySession(game: game) { text in
            print(text, terminator: "")
            StandardOutput.flush()
        }
        if let seat {
            guard (try? game.seats().contains(seat)) == true else {
                let seats = (try? game.seats()) ?? []
                complain(seats.isEmpty ? "--as \(seat): the pack declares no seats"
                                       : "--as \(seat): unknown seat (seats: \(seats.joined(separator: ", ")))")
                throw Outcome.badInput.exitCode
            }
            session.seat = seat
        }
        let bots = try bots()
        if let unknown = bots.keys.sorted().first(where: { (try? game.seats().contains($0)) != true }) {
            complain("--bot \(unknown): not a seat of the pack (seats: \(((try? game.seats()) ?? []).joined(separator: ", ")))")
            throw Outcome.badInput.exitCode
        }
        session.bots = bots
        session.botSeed = UInt64(bitPattern: seedOption.seed)
        if interactive { session.prompt = "> " }
        session.run { readLine(strippingNewline: true) }
        if interactive { print("") }
    }
}

extension PlayCommand: SeededCommand {
    static let defaultSeed: Int64 = 1
}
