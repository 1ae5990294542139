import Foundation
import Rulebench

/// The one game every studio page shows, and the only way pages change it.
///
/// Requests run one at a time (an actor), so several tabs see one history.
/// The invariant: every position the pages see was reached by the engine's
/// own perform, undo and redo (seeking is `Game.seek`, never a replay), and
/// the checks each undo and redo proved are kept per step until the step
/// is replaced (a perform after undos) or the pack is reloaded.
actor StudioSession {
    /// Where a request's answers go.
    enum Outgoing: Equatable {
        /// To the page that sent the request.
        case sender(String)
        /// To every open page (the position changed).
        case everyone(String)
    }

    let source: StudioSource
    private(set) var game: Game
    private let configuration: Game.Configuration
    var marks: [Int: [String]]
    let finding: StudioFinding?
    /// The history position after each step of an opened scenario (empty otherwise).
    let scenarioSteps: [Int]
    /// The opened level file and the level set up (nil unless a level file was opened).
    private(set) var levels: StudioLevels?
    /// Checks, states and scenes learnt at each step and position.
    var memory = PositionMemory()
    /// The animation of the last single step crossed (or the opening).
    var animation: StudioAnimation?
    /// The story sequences the last step performed started (or the opening, or the preview).
    var story: StudioStory?
    /// Numbers each story as it starts (the page plays each number once).
    private var storyCount = 1
    /// Each history entry's call as the page shows it (`StudioPosition.label`),
    /// by step, typed once (not again on every broadcast).
    private var labels: [Int: String] = [:]
    /// What the last reload of the pack found (nil before any).
    var reload: StudioReload.Outcome?
    /// The steps a reload could not replay (the first fails with the edited rules), kept for the next
    /// reload; a call performed drops them, as it drops the redo tail.
    var pending: [StudioReload.PendingStep] = []
    /// The position the page was at when steps went pending: where a reload that replays them returns to.
    private var pendingCursor: Int?
    /// The seat every page shows the game as (nil: the author's view, all of it).
    private(set) var seat: String?
    /// The changes of the last step performed as `seat`, as it may see them, and
    /// the position after that step: the page shows them there only.
    private(set) var seatChanges: (position: Int, changes: [SeatChange])?
    /// The seats a bot plays (docs/bots.md): after each call the page makes, and when a
    /// bot is given a seat, each bot whose seat may act makes its call.
    private(set) var botSeats = BotSeats()
    /// The most calls the bots make after one of the page's.
    static let botMovesInARow = 200
    private var watch: StudioReload.Watch
    /// The folder saves stay inside: the working folder when the studio started.
    let folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)

    /// - Parameter preview: a sequence to play when the page opens (`--sequence NAME`), instead of the opening's.
    init(source: StudioSource, seed: Int64, options: [String: StateValue], configuration: Game.Configuration,
         preview: String? = nil) throws(RulebenchError) {
        let opening = try StudioOpening.open(source, seed: seed, options: options, configuration: configuration)
        self.source = source
        self.configuration = configuration
        game = opening.game
        marks = opening.marks
        finding = opening.finding
        scenarioSteps = opening.scenarioSteps
        levels = opening.levels
        watch = StudioReload.Watch(game: opening.game)
        if opening.game.history.cursor != opening.position { try opening.game.seek(to: opening.position) }
        animation = StudioSession.opening(of: game)
        if case .pack = source, game.history.cursor == 0 {
            story = StudioStory(names: game.openingSequences(), game: game, serial: 1)
        }
        if let preview {
            _ = try game.sequence(preview)   // an unknown name or unreadable file stops the studio with its place
            story = StudioStory(names: [preview], game: game, serial: 1)
        }
        try memory.observe(game)
    }

    /// The setup's animation, when `game` is at its setup and has one.
    private static func opening(of game: Game) -> StudioAnimation? {
        guard let opening = game.openingAnimation, game.history.cursor == 0 else { return nil }
        return StudioAnimation(label: "the opening", direction: "do", animation: opening,
                               keyframes: try? game.keyframes(of: opening, from: nil))
    }

    /// Forgets what was learnt of the positions of a history that is gone
    /// (a level set up, a pack reloaded).
    private func forgetPositions() {
        memory = PositionMemory()
        marks = [:]
        labels = [:]
        animation = nil
        story = nil
        seatChanges = nil
        pending = []
        pendingCursor = nil
    }

    /// Handles one message's text; a malformed one gets an error reply and changes nothing.
    func handle(_ text: String) -> [Outgoing] {
        let request: StudioRequest
        do {
            request = try StudioRequest(text: text)
        } catch {
            return [.sender(StudioReply(error).text)]
        }
        do {
            return try run(request)
        } catch {
            if case .rejected(let reason, let action) = error {
                return [.sender(StudioReply.error(.rejected, message: "rejected by \(action): \(reason)", id: request.id).text)]
            }
            // A failed undo, redo or seek may still have moved the cursor: every page hears where it is.
            return [.sender(StudioReply.error(.failed, message: "\(error)", id: request.id).text), .everyone(position())]
        }
    }

    private func run(_ request: StudioRequest) throws(RulebenchError) -> [Outgoing] {
        switch request.command {
        case .sync: return [.sender(position())]
        case .perform(let text): try perform(StudioSession.call(typed: text, legal: (try? game.legalActions()) ?? []))
        case .undo:
            guard game.history.cursor > 0 else { throw .badInput(InputProblem("nothing to undo")) }
            try seek(to: game.history.cursor - 1, animated: true)
        case .redo:
            guard game.history.cursor < game.history.count else { throw .badInput(InputProblem("nothing to redo")) }
            try seek(to: game.history.cursor + 1, animated: true)
        case .undoTurn: try seek(to: game.history.cursor - game.history.undosToLastTurn, animated: false)
        case .seek(let step):
            // The step is any integer the message held: checked for range before any arithmetic on it.
            let target = try game.history.position(step)
            try seek(to: target, animated: abs(target - game.history.cursor) == 1)
        case .save(let path, let overwrite): return [.sender(try save(path, overwrite: overwrite, id: request.id))]
        case .seat(let chosen): try choose(chosen)
        case .level(let number): try setUpLevel(number)
        case .solutionStep: try perform(try openedLevels().nextCall(in: game))
        case .levelList: return [.sender(try openedLevels().listText(id: request.id))]
        case .bot(let botSeat, let bot, let seed): try seatBot(botSeat, bot, seed: seed)
        }
        return [.everyone(position())]
    }

    /// Step `step`'s call as the page shows it (1-based).
    func label(of step: Int) -> String {
        if let known = labels[step] { return known }
        let typed = StudioPosition.label(game.history.entry(at: step - 1).call)
        labels[step] = typed
        return typed
    }

    /// The position as every page reads it.
    func position() -> String {
        StudioPosition(session: self).json.serialized(pretty: false)
    }

    // MARK: Playing

    private func perform(_ call: ActionCall) throws(RulebenchError) {
        let before = game.history.cursor
        let goals = game.triggeringGoalsHeld()
        if let seat {
            // Refused with the pack's reason (turn, or whose call it is) when the seat may not make it.
            let step = try game.perform(call, as: seat)
            try performed(step.entry, views: step.views, after: before, goalsHeldBefore: goals)
        } else {
            try performed(try game.perform(call), views: [:], after: before, goalsHeldBefore: goals)
        }
        try letBotsPlay()
    }

    /// A bot plays `botSeat` from now on (nil: the page does); the bots whose seats may act then play.
    private func seatBot(_ botSeat: String, _ bot: Bot?, seed: UInt64) throws(RulebenchError) {
        let seats = try game.seats()
        guard seats.contains(botSeat) else {
            throw .badInput(InputProblem(seats.isEmpty ? "the pack declares no seats: a bot plays a seat"
                                         : "unknown seat '\(botSeat)' (seats: \(seats.joined(separator: ", ")))"))
        }
        botSeats.bots[botSeat] = bot
        botSeats.seed = seed
        try letBotsPlay()
    }

    /// Each bot whose seat may act makes its call, until none may: each a step as the page's are.
    private func letBotsPlay() throws(RulebenchError) {
        var goals = game.triggeringGoalsHeld()
        do {
            try botSeats.play(in: game, most: Self.botMovesInARow) { _, _, _, step in
                try? performed(step.entry, views: step.views, after: game.history.cursor - 1, goalsHeldBefore: goals)
                goals = game.triggeringGoalsHeld()
            }
        } catch {
            throw .badInput(InputProblem("bot \(error.seat) (\(error.bot)): \(error.error)"))
        }
    }

    /// What a step just performed changes of the session: the memory and marks after it are
    /// forgotten, its animation shown, the sequences it started (by its plan, or a goal
    /// `goalsHeldBefore` did not hold) played, and the seat shown sees its changes as it may.
    private func performed(_ entry: HistoryEntry, views: [String: SeatStepView], after before: Int,
                           goalsHeldBefore goals: Set<String>) throws(RulebenchError) {
        if let seat { seatChanges = (before + 1, views[seat]?.changes ?? []) }
        memory.forget(after: before)
        pending = []
        pendingCursor = nil
        marks = marks.filter { $0.key <= before }
        labels = labels.filter { $0.key <= before }
        animation = StudioAnimation(label: label(of: before + 1), direction: "do", animation: entry.animation,
                                    keyframes: try? game.keyframes(of: entry.animation, from: memory.scenes[before] ?? nil))
        storyCount += 1
        story = StudioStory(names: game.sequences(startedBy: entry.animation, goalsHeldBefore: goals), game: game, serial: storyCount)
        try memory.observe(game)
    }

    /// The legal call whose label is `text`, else the call it types, read as
    /// `play` reads one (the library's `TypedCall`: one grammar for both).
    static func call(typed text: String, legal: [ActionCall]) throws(RulebenchError) -> ActionCall {
        if let listed = legal.first(where: { TypedCall.typed($0) == text }) { return listed }
        do {
            return try TypedCall.call(text)
        } catch {
            throw .badInput(InputProblem("\(error)"))
        }
    }

    /// Moves to `target` by real undos and redos; a single step keeps its animation
    /// (the mirrored plan for an undo). Every check the engine made is recorded.
    private func seek(to target: Int, animated: Bool) throws(RulebenchError) {
        let start = game.history.cursor
        guard target != start else { return }
        story = nil   // a sequence plays when a step is performed, not when the history is crossed
        defer { try? memory.observe(game) }
        let checks: [Game.StepCheck]
        do {
            checks = try game.seek(to: target)
        } catch {
            animation = nil
            throw error
        }
        memory.record(checks)
        animation = nil
        if animated, let check = checks.last, let played = check.animation {
            let call = label(of: check.step)
            let keyframes = try? game.keyframes(of: played, from: memory.scenes[start] ?? nil)
            animation = StudioAnimation(label: check.direction == .undo ? "undo of \(call)" : call, direction: check.direction.rawValue,
                                        animation: played, keyframes: keyframes)
        }
    }

    // MARK: Levels

    /// The opened level file, or why there is none.
    private func openedLevels() throws(RulebenchError) -> StudioLevels {
        guard let levels else {
            throw .badInput(InputProblem("no level file is open (open one: rulebench studio levels.yaml)"))
        }
        return levels
    }

    /// Sets level `number` up: the game restarted by the engine with the
    /// level's options, its history empty; what was learnt of the old one forgotten.
    private func setUpLevel(_ number: Int) throws(RulebenchError) {
        var chosen = try openedLevels()
        try chosen.setUp(number: number, in: game)
        levels = chosen
        forgetPositions()
        animation = StudioSession.opening(of: game)
        try memory.observe(game)
    }

    /// Shows every page the game as `chosen` sees it, or as its author (nil).
    private func choose(_ chosen: String?) throws(RulebenchError) {
        if let chosen {
            let seats = try game.seats()
            guard !seats.isEmpty else {
                throw .badInput(InputProblem("the pack declares no seats: the studio shows it as its author sees it"))
            }
            guard seats.contains(chosen) else {
                throw .badInput(InputProblem("unknown seat '\(chosen)' (seats: \(seats.joined(separator: ", ")))"))
            }
        }
        if chosen != seat { seatChanges = nil }
        seat = chosen
    }

    // MARK: Saving and reloading

    /// Saves the history at `path`, relative to the folder the studio started in, by
    /// `FolderSave`'s rules (a page's path never leaves that folder nor follows a link).
    private func save(_ path: String, overwrite: Bool, id: Int64?) throws(RulebenchError) -> String {
        try game.save(path, inside: folder, overwrite: overwrite)
        return StudioReply.saved(path: path, steps: game.history.count, id: id).text
    }

    /// The path the page proposes to save to: the opened history when it is
    /// inside the studio's folder, else a plain name made from the pack's
    /// (a pack named `../../x` proposes `x-studio.json`, never a way out).
    var proposedSavePath: String {
        if case .history = source, (try? FolderSave(folder: folder, path: source.name).parts()) != nil { return source.name }
        let base = source.kind == "history" ? String(source.name.split(separator: "/").last ?? "") : "\(game.pack.name)-studio.json"
        return FolderSave.safeName(base) ?? "game.json"
    }

    /// The pack's file at `path` (relative to its folder: the view's images,
    /// atlases and sounds, percent-decoded by the server; a base pack's when the pack
    /// extends one and has no such file); nil for anything outside those folders (`Game.packFile`).
    func packFile(_ path: String) -> URL? {
        game.packFile(path)
    }

    /// The file of sound `name` of the current scene's sounds folder (the library's rule:
    /// `NAME.wav`, `.ogg` or `.mp3`); nil when there is none.
    func soundFile(_ name: String) -> URL? {
        guard let scene = memory.scenes[game.history.cursor] ?? nil else { return nil }
        return game.soundFile(named: name, in: scene)
    }

    /// Reloads the pack when one of its files changed since the last look,
    /// replaying the history with the new rules; returns the new position,
    /// or nil when nothing changed.
    func reloadIfChanged() -> String? {
        guard watch.changed(game: game) else { return nil }
        let cursor = pendingCursor ?? game.history.cursor
        let outcome = StudioReload.replay(game, pending: pending, cursor: cursor, configuration: configuration,
                                          count: (reload?.count ?? 0) + 1)
        reload = outcome.summary
        if let replayed = outcome.game {
            game = replayed
            forgetPositions()
            pending = outcome.pending
            pendingCursor = pending.isEmpty ? nil : cursor
            if let seat, !((try? game.seats()) ?? []).contains(seat) { self.seat = nil }
            try? memory.observe(game)
        }
        watch = StudioReload.Watch(game: game)
        return position()
    }
}
