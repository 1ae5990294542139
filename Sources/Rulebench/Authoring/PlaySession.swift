import Foundation

/// An interactive game of a pack, driven by lines of text: what `rulebench play` runs.
///
/// It shows the board (the pack's `render`) and the legal actions, numbered
/// and grouped by action name, and reads commands:
///
///     3                      perform action 3 of the list
///     step token=p1          perform an action by name (values as on the command line)
///     undo | undo N | undo turn    redo | redo N
///     history | state [PATH] | hash | timeline | board | actions | goal [NAME] | save FILE[.yaml] | help | quit
///
/// Errors (a rejected action, a typo, a rule's script error) are shown and
/// the session goes on. Input and output are plain text, so the session runs
/// the same from a terminal, a pipe, or a test.
///
/// ```swift
/// let session = PlaySession(game: try Game(pack: "template")) { print($0, terminator: "") }
/// session.run { readLine() }
/// ```
public final class PlaySession {
    /// The game being played.
    public let game: Game
    /// Written before each line is read (nil: no prompt, as for piped input).
    public var prompt: String?
    /// Width of `timeline` charts, in columns.
    public var chartWidth = 72
    /// How many commands failed so far.
    public private(set) var errorCount = 0
    /// The seat the session plays as (`play --as SEAT`): its calls are
    /// performed as that seat, `actions` lists the calls it may make,
    /// `state` and `hash` show its view, `undo` is its undo turn, and what
    /// reads the whole state (the text board, timelines, redo, save) is
    /// refused. Nil: the author, who sees everything.
    public var seat: String?

    /// Seats the program plays (`play --bot SEAT=KIND`): after the opening
    /// and after each of the session's moves, each bot whose seat may act
    /// makes its call, until none may (at most `botMovesInARow`).
    public var bots: [String: Bot] = [:]
    /// The bots' seed: a bot's pick is a function of it, its seat and the history's length.
    public var botSeed: UInt64 = 0
    /// The most calls the bots make between two of the session's moves.
    public static let botMovesInARow = 1000

    private let write: (String) -> Void
    /// The calls as last listed: what numbers refer to.
    private var listing: [ActionCall] = []
    /// The animation of the last perform, redo or undo, with a label.
    private var lastAnimation: (label: String, animation: ActionAnimation)?

    /// A session on `game` that sends its text (whole lines, and the prompt) to `output`.
    public init(game: Game, output: @escaping (String) -> Void) {
        self.game = game
        self.write = output
    }

    /// Runs the whole session: the opening screen, then one command per line
    /// until `quit` or the end of input (when `readLine` returns nil).
    public func run(readLine: () -> String?) {
        start()
        while true {
            if let prompt { write(prompt) }
            guard let line = readLine() else { return }
            if !handle(line) { return }
        }
    }

    /// Shows the pack, the board and the legal actions.
    public func start() {
        let pack = game.pack
        say("\(pack.name) \(pack.version), seed \(game.seed)" + (pack.description.map { ": \($0)" } ?? ""))
        say("Type a number or `ACTION key=value ...` to play, `help` for every command.")
        if let opening = game.openingAnimation {
            // The opening deal is the first animation `timeline` shows.
            lastAnimation = ("the opening", opening)
            say("opening: animation \(PlaySession.seconds(opening.duration)) (`timeline` draws it)")
        }
        if seat == nil { showSequences(game.openingSequences()) }
        letBotsPlay()
        showPosition()
    }

    /// Handles one command line; returns false when the session should end (`quit`).
    @discardableResult
    public func handle(_ line: String) -> Bool {
        let words: [String]
        do {
            words = try TypedCall.words(line)
        } catch {
            fail("\(error)")
            return true
        }
        guard let first = words.first else { return true }
        let rest = Array(words.dropFirst())
        if let seat, ["redo", "timeline", "save", "board", "render"].contains(first.lowercased()) {
            fail("`\(first)` reads the whole state, which seat \(seat) may not see: play without --as for it")
            return true
        }
        switch first.lowercased() {
        case "quit", "exit", "q":
            return false
        case "help", "?":
            say(PlaySession.help)
        case "undo" where seat != nil:
            undoAsSeat()
        case "undo":
            undo(rest)
        case "redo":
            redo(rest)
        case "history":
            showHistory()
        case "state":
            showState(rest)
        case "hash":
            showHash()
        case "timeline":
            showTimeline()
        case "save":
            save(rest)
        case "board", "render":
            showBoard()
        case "actions", "legal", "list":
            showActions()
        case "goal", "goals":
            showGoals(rest)
        case "sequence", "sequences":
            if let seat {
                fail("`sequence` fills texts from the whole state, which seat \(seat) may not see: play without --as for it")
            } else if let name = rest.first {
                showSequences([name], unknownFails: true)
            } else {
                say("sequences: " + game.sequenceBook().names.joined(separator: ", "))
            }
        case "do":
            if let name = rest.first {
                perform(name: name, rest.dropFirst())
            } else {
                fail("`do` needs an action name: do ACTION key=value ...")
            }
        default:
            if let number = Int(first) {
                perform(number: number)
            } else if game.pack.actions[first] != nil {
                perform(name: first, rest[...])
            } else {
                let names = game.pack.actionNames.filter { game.pack.actions[$0]?.isInternal != true }.joined(separator: ", ")
                fail("unknown command or action '\(first)': type `help` for the commands (actions: \(names))")
            }
        }
        return true
    }

    // MARK: Commands

    private func perform(number: Int) {
        guard !listing.isEmpty else { return fail("there are no legal actions to choose from: undo, or perform one by name") }
        guard (1...listing.count).contains(number) else {
            return fail("no action \(number): choose 1 to \(listing.count) (type `actions` to see them)")
        }
        perform(listing[number - 1])
    }

    private func perform(name: String, _ pairs: ArraySlice<String>) {
        do {
            perform(ActionCall(name, try TypedCall.params(pairs)))
        } catch {
            fail("\(error) (e.g. \(example(of: name)))")
        }
    }

    private func perform(_ call: ActionCall) {
        do {
            let entry: HistoryEntry
            let goals = seat == nil ? game.triggeringGoalsHeld() : []
            if let seat { entry = try game.perform(call, as: seat).entry } else { entry = try game.perform(call) }
            let animation = entry.animation
            lastAnimation = ("\(call)", animation)
            say("did \(call)" + PlaySession.summary(entry.subactions.subactionNames, animation))
            if seat == nil { showSequences(game.sequences(startedBy: animation, goalsHeldBefore: goals)) }
            letBotsPlay()
            showPosition()
        } catch {
            fail(PlaySession.explain(error))
        }
    }

    /// `undo` as a seat: the player's undo turn, which stops after the
    /// last step of the turn that revealed a secret or drew from the generator.
    private func undoAsSeat() {
        do {
            let outcomes = try game.undoTurn(as: seat ?? "")
            say(outcomes.isEmpty ? "nothing to undo: the turn's last step revealed a secret, drew from the random generator, or ended the turn"
                                 : "undid \(outcomes.count) action\(outcomes.count == 1 ? "" : "s") of \(seat ?? "")'s turn")
        } catch {
            report(error)
        }
        showPosition()
    }

    private func undo(_ arguments: [String]) {
        let words = arguments.map { $0.lowercased() }
        if words == ["turn"] || words == ["last", "turn"] {
            do {
                let outcomes = try words == ["turn"] ? game.undoTurn() : game.undoLastTurn()
                if let last = outcomes.last { lastAnimation = ("undo of \(last.entry.call)", last.animation) }
                let checkpoint = game.history.cursor > 0 ? "the last checkpoint" : "the start"
                say(outcomes.isEmpty ? "nothing to undo in this turn (the last action is a checkpoint): undo last turn takes that turn back"
                                     : "undid \(outcomes.count) action\(outcomes.count == 1 ? "" : "s"), back to \(checkpoint)")
            } catch {
                report(error)
            }
            showPosition()
            return
        }
        guard let count = PlaySession.count(arguments, command: "undo", onError: fail) else { return }
        let available = game.history.cursor
        guard count <= available else {
            // Refused whole: undoing what there is and then failing would leave the user unsure where the game is.
            return fail(available == 0 ? "nothing to undo" : "only \(available) action\(available == 1 ? "" : "s") can be undone: undo \(available)")
        }
        for _ in 0..<count {
            do {
                let outcome = try game.undo()
                lastAnimation = ("undo of \(outcome.entry.call)", outcome.animation)
                say("undid \(outcome.entry.call)")
            } catch {
                report(error)
                if case .undoMismatch = error { continue }
                break
            }
        }
        showPosition()
    }

    private func redo(_ arguments: [String]) {
        guard let count = PlaySession.count(arguments, command: "redo", onError: fail) else { return }
        let available = game.history.count - game.history.cursor
        guard count <= available else {
            return fail(available == 0 ? "nothing to redo" : "only \(available) action\(available == 1 ? "" : "s") can be redone: redo \(available)")
        }
        for _ in 0..<count {
            do {
                let entry = try game.redo()
                lastAnimation = ("\(entry.call)", entry.animation)
                say("redid \(entry.call)")
            } catch {
                fail(PlaySession.explain(error))
                break
            }
        }
        showPosition()
    }

    /// An undo error: a mismatch took effect (the engine repaired the state), anything else did not.
    private func report(_ error: RulebenchError) {
        if case .undoMismatch = error {
            errorCount += 1
            say("warning: the undo took effect (the engine restored the state from its journal), but the rule's undo is wrong:\n\(error)")
        } else {
            fail(PlaySession.explain(error))
        }
    }

    private func showHistory() {
        let history = game.history
        guard history.count > 0 else { return say("history: empty (perform an action by number or name)") }
        let undone = history.count - history.cursor
        var lines = ["history: \(history.cursor) applied" + (undone > 0 ? ", \(undone) undone (redo brings them back)" : "")]
        for (index, entry) in history.entries.enumerated() {
            var line = "  \(index + 1). \(entry.call)"
            if entry.isCheckpoint { line += "  [checkpoint]" }
            if index == history.cursor - 1 { line += "  <- now" }
            if index >= history.cursor { line += "  (undone)" }
            lines.append(line)
        }
        say(lines.joined(separator: "\n"))
    }

    private func showState(_ arguments: [String]) {
        guard arguments.count <= 1 else { return fail("`state` takes one path, like state tokens.p1.square") }
        do {
            let path = try StatePath(parsing: arguments.first ?? "")
            let value: StateValue?
            if let seat {
                value = path.keys.reduce(Optional(try game.view(as: seat).state)) { value, key in value?[key] }
            } else {
                value = try game.state(at: path)
            }
            let name = arguments.first ?? "(the whole state)"
            say("\(name) = " + (value.map(\.description) ?? "nil (absent)"))
        } catch let error as StatePath.ParseError {
            fail(error.description)
        } catch {
            fail("\(error)")
        }
    }

    /// `goal NAME`: whether that goal of the pack holds now; `goal`: every goal.
    private func showGoals(_ arguments: [String]) {
        let goals = game.pack.goals
        guard arguments.count <= 1 else { return fail("`goal` takes one goal name, like goal won") }
        guard !goals.isEmpty else {
            return fail("the pack declares no goals (pack.lua: goals = { name = function(game) return ... end })")
        }
        do {
            if let name = arguments.first {
                guard goals.contains(name) else {
                    return fail("unknown goal '\(name)'" + Suggestion.hint(for: name, in: goals) + " (goals: \(goals.joined(separator: ", ")))")
                }
                say("goal \(name): " + (try game.goalHolds(name) ? "holds" : "does not hold"))
            } else {
                for goal in goals {
                    do {
                        say("goal \(goal): " + (try game.goalHolds(goal) ? "holds" : "does not hold"))
                    } catch {
                        fail("goal \(goal): " + PlaySession.explain(error))
                    }
                }
            }
        } catch {
            fail(PlaySession.explain(error))
        }
    }

    /// Each sequence's transcript, played in the state now (a sequence a
    /// trigger names but the pack lacks is left out: `check` reports it).
    private func showSequences(_ names: [String], unknownFails: Bool = false) {
        guard !names.isEmpty else { return }
        let book = game.sequenceBook()
        for name in names {
            do {
                let played = try game.sequence(name, in: book)
                write(played.transcript)
                for slot in played.missing { say("  (\(slot))") }
            } catch {
                if unknownFails { fail("\(error)") }
            }
        }
    }

    private func showTimeline() {
        guard let (label, animation) = lastAnimation else {
            return fail("no animation yet: perform, undo or redo an action first")
        }
        let timeline = animation.timeline()
        say("timeline of \(label) (\(PlaySession.seconds(timeline.duration))):\n" + timeline.textChart(width: chartWidth))
    }

    private func showHash() {
        do {
            if let seat { return say("view hash of \(seat): \(try game.view(as: seat).hash)") }
            say("hash: \"\(try game.liveStateHash().hex)\"  (for a scenario's expect: { hash: ... })")
        } catch {
            fail("\(error)")
        }
    }

    /// A call of `name` as the user could type it: one the list offers, else its declared params.
    private func example(of name: String) -> String {
        if let call = listing.first(where: { $0.name == name }) {
            return ([name] + call.params.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
        }
        let params = game.pack.actions[name]?.params.keys.sorted() ?? []
        return ([name] + params.map { "\($0)=VALUE" }).joined(separator: " ")
    }

    private func save(_ arguments: [String]) {
        guard arguments.count == 1, let path = arguments.first else { return fail("`save` needs one file name: save game.json, or save game.yaml for a scenario") }
        if path.hasSuffix(".yaml") || path.hasSuffix(".yml") { return saveScenario(path) }
        do {
            try game.save(to: URL(fileURLWithPath: path))
            let count = game.history.count
            say("saved \(count) action\(count == 1 ? "" : "s") to \(path) (check it with `rulebench replay \(path)`)")
        } catch {
            fail("\(error)")
        }
    }

    /// Writes the session as a scenario: the applied actions, and the final hash expected.
    private func saveScenario(_ path: String) {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let reference = ScenarioWriter.relativePath(from: url.deletingLastPathComponent(), to: game.packURL)
        do {
            let text = try ScenarioWriter.scenario(of: game, title: "played with rulebench play", packReference: reference)
            try OutputFile(url, purpose: "the scenario").write(text)
            let count = game.history.cursor
            say("saved \(count) action\(count == 1 ? "" : "s") as a scenario to \(path) (check it with `rulebench run \(path)`)")
        } catch {
            fail("\(error)")
        }
    }

    /// Each bot whose seat may act makes its call (as its seat), seats in order, until none may.
    private func letBotsPlay() {
        guard !bots.isEmpty else { return }
        do {
            try BotSeats(bots, seed: botSeed).play(in: game, most: Self.botMovesInARow) { seat, bot, call, step in
                self.lastAnimation = ("\(call)", step.entry.animation)
                self.say("bot \(seat) (\(bot)) did \(call)")
            }
        } catch {
            fail("bot \(error.seat) (\(error.bot)): \(PlaySession.explain(error.error))")
        }
    }

    // MARK: Showing the game

    private func showPosition() {
        if seat == nil { showBoard() }
        showActions()
    }

    private func showBoard() {
        do {
            let board = try game.render()
            if !board.isEmpty { say(board) }
        } catch {
            fail("render fails: \(error)")
        }
    }

    private func showActions() {
        do {
            if let seat { listing = try game.legalActions(as: seat) } else { listing = try game.legalActions() }
        } catch {
            listing = []
            return fail("legal fails: \(error)")
        }
        guard !listing.isEmpty else {
            return say("no legal actions: undo, perform one by name, or quit")
        }
        var groups: [(name: String, items: [String])] = []
        for (index, call) in listing.enumerated() {
            let params = call.params.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            let item = "[\(index + 1)]" + (params.isEmpty ? "" : " " + params)
            if groups.last?.name == call.name { groups[groups.count - 1].items.append(item) } else { groups.append((call.name, [item])) }
        }
        let nameWidth = groups.map(\.name.count).max() ?? 0
        var lines = ["legal actions:"]
        for group in groups {
            let head = "  " + group.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  "
            var line = head
            for item in group.items {
                if line.count > head.count && line.count + item.count + 3 > 100 {
                    lines.append(line)
                    line = String(repeating: " ", count: head.count)
                }
                line += (line.count > head.count ? "   " : "") + item
            }
            lines.append(line)
        }
        say(lines.joined(separator: "\n"))
    }

    // MARK: Helpers

    private func say(_ text: String) { write(text + "\n") }

    private func fail(_ message: String) {
        errorCount += 1
        say("error: " + message)
    }

    private static func explain(_ error: RulebenchError) -> String {
        switch error {
        case .rejected(let reason, let action): return "rejected by \(action): \(reason)"
        default: return error.description
        }
    }

    private static func summary(_ subactions: [String], _ animation: ActionAnimation) -> String {
        let timeline = animation.timeline()
        var parts: [String] = []
        if !subactions.isEmpty { parts.append("subactions " + subactions.joined(separator: ", ")) }
        if !timeline.soundNames.isEmpty { parts.append("sounds " + timeline.soundNames.joined(separator: ", ")) }
        if timeline.duration > 0 { parts.append("animation " + seconds(timeline.duration)) }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: "; ") + ")"
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.2f s", value) }

    private static func count(_ arguments: [String], command: String, onError: (String) -> Void) -> Int? {
        guard let text = arguments.first else { return 1 }
        guard arguments.count == 1, let count = Int(text), count >= 1 else {
            onError("`\(command)` takes a count (\(command) 2)" + (command == "undo" ? " or `turn`" : "") + ", not '\(arguments.joined(separator: " "))'")
            return nil
        }
        return count
    }

    static let help = """
        commands:
          N                      perform action N of the list
          ACTION key=value ...   perform an action by name (also: do ACTION key=value ...);
                                 3 is an integer, 2.5 a float, true/false booleans, [a,b] a list,
                                 anything else a string ("quotes" force a string and keep
                                 blanks: name="a b")
          undo [N]               undo the last action (or N actions)
          undo turn              undo back to the last checkpoint action
          undo last turn         take back the last turn: the last action and those before it back
                                 to the checkpoint before it (where every move is a checkpoint: one move)
          redo [N]               redo what was undone
          history                the actions performed, and those undone
          state [PATH]           a value of the state, e.g. state tokens.p1.square (no path: all of it)
          hash                   the state hash, as a scenario's expect: { hash: ... } takes it
          timeline               the animation of the last action (or undo) as a chart
          board | actions        show the board, or the legal actions, again
          goal [NAME]            whether a goal of the pack holds now (every goal without NAME)
          sequence [NAME]        a story sequence played now (its transcript); the names without NAME
          save FILE              save the history as JSON (rulebench replay FILE checks it)
          save FILE.yaml         save the session as a scenario expecting the final state's hash
                                 (rulebench run FILE.yaml checks it)
          help                   this list
          quit                   end the session (so does the end of input)
        """
}
