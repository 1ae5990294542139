import Foundation

/// A saved history: enough to rebuild a game exactly and to prove it.
///
/// The file is JSON: the pack (name, version, folder), the seed, the setup
/// options, any state overrides, the initial state hash, and per performed
/// step its action, params and the state hash after it. The redo tail and
/// the cursor are kept too. Loading replays every step from scratch and
/// refuses the file at the first step whose hash differs.
public struct SavedHistory: Sendable {
    /// One saved step.
    public struct Step: Sendable {
        public var call: ActionCall
        public var hash: StateHash
    }

    public static let format = "rulebench-history"
    public static let formatVersion: Int64 = 1

    public var packName: String
    public var packVersion: String
    /// The pack folder as it was given when saving.
    public var packPath: String
    public var seed: Int64
    public var options: [String: StateValue]
    public var overrides: [(path: StatePath, value: StateValue?)]
    public var initialHash: StateHash
    public var steps: [Step]
    /// How many steps are applied (the rest were undone and can be redone).
    public var cursor: Int

    /// The history of a game, ready to save.
    public init(of game: Game) {
        packName = game.pack.name
        packVersion = game.pack.version
        packPath = game.pack.directory
        seed = game.seed
        options = game.options
        overrides = game.overrides
        initialHash = game.history.initialHash
        steps = game.history.entries.map { Step(call: $0.call, hash: $0.hash) }
        cursor = game.history.cursor
    }

    /// The JSON text of the file.
    public var json: String {
        let options = JSONValue.object(self.options.sorted { $0.key < $1.key }.map { ($0.key, JSONValue($0.value)) })
        let overrides = JSONValue.array(self.overrides.map {
            .object([("path", .string($0.path.description)), ("value", JSONValue($0.value))])
        })
        let steps = JSONValue.array(self.steps.map { step in
            .object([("action", .string(step.call.name)),
                     ("params", .object(step.call.params.sorted { $0.key < $1.key }.map { ($0.key, JSONValue($0.value)) })),
                     ("hash", .string(step.hash.hex))])
        })
        return JSONValue.object([
            ("format", .string(SavedHistory.format)), ("formatVersion", .int(SavedHistory.formatVersion)),
            ("pack", .object([("name", .string(packName)), ("version", .string(packVersion)), ("path", .string(packPath))])),
            ("seed", .int(seed)), ("options", options), ("overrides", overrides),
            ("initialHash", .string(initialHash.hex)), ("cursor", .int(Int64(cursor))), ("steps", steps),
        ]).serialized(pretty: false) + "\n"
    }

    /// Writes the file: a new or regular file atomically (a failed write
    /// leaves no partial file); a symbolic link, device or FIFO in place,
    /// without replacing it (see `OutputFile`). The pack's folder is written
    /// relative to the file's folder, so that `replay` finds it from
    /// wherever it runs, and in a moved or fresh checkout.
    public func write(to url: URL) throws(RulebenchError) {
        try OutputFile(url, purpose: "the history").write(try text(forFileIn: url.deletingLastPathComponent()))
    }

    /// The file's text for a file in `folder`: the pack's folder written
    /// relative to it (refused when it cannot carry a value; see `checkCarried`).
    func text(forFileIn folder: URL) throws(RulebenchError) -> String {
        try checkCarried()
        var saved = self
        saved.packPath = SavedHistory.path(of: packPath, relativeTo: folder)
        return saved.json
    }

    /// Refuses a history JSON cannot hold exactly: a param or option
    /// holding NaN or an infinity (JSON has no words for them, and a file
    /// holding `nan` does not replay). Rules cannot emit one (`emit` refuses
    /// it at the rule's line), nor can a scenario give one; a host app can.
    func checkCarried() throws(RulebenchError) {
        func refuse(_ what: String) -> RulebenchError {
            .badInput(InputProblem("\(what) holds NaN or an infinity, which a history (JSON text) cannot carry; the history was not saved"))
        }
        if options.values.contains(where: \.holdsNonFiniteNumber) { throw refuse("a setup option") }
        for (index, step) in steps.enumerated() where step.call.params.values.contains(where: \.holdsNonFiniteNumber) {
            throw refuse("step \(index + 1) (\(step.call.name))")
        }
    }

    /// `target` relative to `folder` (`../rules/race`), or as given when it is
    /// not an absolute path or shares nothing but the root with the folder.
    static func path(of target: String, relativeTo folder: URL) -> String {
        guard target.hasPrefix("/") else { return target }
        let to = URL(fileURLWithPath: target).standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let from = folder.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        var common = 0
        while common < min(to.count, from.count), to[common] == from[common] { common += 1 }
        guard common > 1 else { return target }
        let parts = Array(repeating: "..", count: from.count - common) + to[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// Reads and checks a history file (it does not replay it; see `replay`).
    public init(contentsOf url: URL) throws(RulebenchError) {
        let file = PackFiles.display(url)
        try self.init(utf8: [UInt8](try InputFile.bytes(url, display: file)), file: file)
    }

    /// Reads and checks a history from its JSON text; `file` names it in errors.
    public init(json text: String, file: String) throws(RulebenchError) {
        try self.init(utf8: Array(text.utf8), file: file)
    }

    /// Reads and checks a history from the bytes of its file: bytes that
    /// are not UTF-8 are an error at their place, never U+FFFD in a string
    /// that would then fail to replay.
    init(utf8 bytes: [UInt8], file: String) throws(RulebenchError) {
        func bad(_ message: String) -> RulebenchError { .badInput(InputProblem(message, file: file)) }
        let root: JSONValue
        do {
            root = try JSONValue.parse(utf8: bytes)
        } catch let error as JSONValue.ParseError {
            throw .badInput(InputProblem("not a history file: \(error.message)", file: file, line: error.line, column: error.column))
        } catch {
            throw bad("not a history file")
        }
        func whole(_ name: String) throws(RulebenchError) -> Int64 {
            switch root.wholeNumber(name) {
            case .success(let value): return value
            case .failure(let problem): throw bad(problem.message)
            }
        }
        guard root["format"] == .string(SavedHistory.format) else { throw bad("not a rulebench history (no \"format\": \"\(SavedHistory.format)\")") }
        guard try whole("formatVersion") == SavedHistory.formatVersion else {
            throw bad("unsupported history format version (this rulebench reads version \(SavedHistory.formatVersion))")
        }
        guard case .string(let name)? = root["pack"]?["name"], case .string(let packVersion)? = root["pack"]?["version"],
              case .string(let path)? = root["pack"]?["path"] else { throw bad("missing pack name, version or path") }
        let seed = try whole("seed")
        guard case .string(let initial)? = root["initialHash"] else { throw bad("missing initialHash") }
        guard case .array(let stepValues)? = root["steps"] else { throw bad("missing steps") }
        let cursor = try whole("cursor")
        guard cursor >= 0, cursor <= stepValues.count else {
            throw bad("impossible cursor \(cursor): \"cursor\" counts the steps applied, from 0 to \(stepValues.count) (the steps saved)")
        }
        var steps: [Step] = []
        for (index, value) in stepValues.enumerated() {
            guard case .string(let action)? = value["action"], case .string(let hash)? = value["hash"],
                  case .object? = value["params"] else { throw bad("step \(index + 1) is malformed (needs action, params, hash)") }
            steps.append(Step(call: ActionCall(action, ActionCall.params(from: value["params"]?.stateValue)), hash: StateHash(hex: hash)))
        }
        var overrides: [(path: StatePath, value: StateValue?)] = []
        if case .array(let list)? = root["overrides"] {
            for item in list {
                guard case .string(let text)? = item["path"], let path = try? StatePath(parsing: text) else { throw bad("malformed override") }
                overrides.append((path, item["value"]?.stateValue))
            }
        }
        packName = name
        self.packVersion = packVersion
        packPath = path
        self.seed = seed
        options = ActionCall.params(from: root["options"]?.stateValue)
        self.overrides = overrides
        initialHash = StateHash(hex: initial)
        self.steps = steps
        self.cursor = Int(cursor)
    }

    /// Rebuilds the game by replaying every step, checking each state hash.
    ///
    /// - Parameters:
    ///   - configuration: limits and checking modes of the new game.
    ///   - base: the folder the pack's path is relative to (the history file's).
    ///   - source: how errors name the history (its file).
    ///   - progress: called after each verified step with its number.
    /// - Throws: `.badInput` naming the step whose hash differs, or the pack
    ///   whose name or version differs from the saved one.
    public func replay(configuration: Game.Configuration = Game.Configuration(), relativeTo base: URL? = nil,
                       source: String = "history", progress: (Int) -> Void = { _ in }) throws(RulebenchError) -> Game {
        let game = try Game(pack: packPath, options: options, seed: seed, configuration: configuration, relativeTo: base)
        try replay(into: game, restarting: false, source: source, progress: progress)
        return game
    }

    /// Replays the history in an existing game of its pack: the game is
    /// restarted (unless `restarting` is false and it is fresh from setup)
    /// with the saved seed and options, then every step is performed and
    /// checked against its saved hash.
    func replay(into game: Game, restarting: Bool = true, source: String = "history",
                progress: (Int) -> Void = { _ in }) throws(RulebenchError) {
        if let mismatch = try prepare(game, restarting: restarting, source: source) { throw .badInput(mismatch) }
        if let mismatch = try replaySteps(into: game, source: source, progress: progress) { throw mismatch }
        while game.history.cursor > cursor { try game.undo() }
    }

    /// Performs the saved steps in `game` (set up as saved), stopping at the
    /// first that cannot be performed or gives another hash: that one is
    /// returned, as the error `replay` would throw.
    private func replaySteps(into game: Game, source: String, progress: (Int) -> Void) throws(RulebenchError) -> RulebenchError? {
        for (index, step) in steps.enumerated() {
            let entry: HistoryEntry
            do {
                entry = try game.perform(step.call)
            } catch {
                // An action the pack does not have, or params it refuses: the file is bad input.
                if case .badInput = error { throw cannotReplay(index, error, source) }
                return cannotReplay(index, error, source)
            }
            guard entry.hash == step.hash else {
                return differs(index, entry.hash, source)
            }
            progress(index + 1)
        }
        return nil
    }

    /// Replays the history as `replay` does, but tells a failed check apart
    /// from input that cannot be used: a step that is rejected or fails, or
    /// whose state hash (or the one after setup) differs from the saved one,
    /// is a `ReplayVerdict` mismatch; an unknown pack, one of another name or
    /// version, or a step naming an action or params the pack does not take,
    /// is thrown. The pack is looked for relative to `base` (the
    /// history file's folder) first.
    public func verify(configuration: Game.Configuration = Game.Configuration(), relativeTo base: URL? = nil,
                       source: String = "history", progress: (Int) -> Void = { _ in }) throws(RulebenchError) -> ReplayVerdict {
        let game = try Game(pack: packPath, options: options, seed: seed, configuration: configuration, relativeTo: base)
        if let mismatch = try prepare(game, restarting: false, source: source) { return ReplayVerdict(game: game, mismatch: mismatch) }
        if case .badInput(let problem)? = try replaySteps(into: game, source: source, progress: progress) {
            return ReplayVerdict(game: game, mismatch: problem)
        }
        while game.history.cursor > cursor { try game.undo() }
        return ReplayVerdict(game: game, mismatch: nil)
    }

    /// Checks that the history replays in `game` as `replay(into:)` does,
    /// with the same errors, but without keeping it: the steps run inside
    /// the kernel in one call, only their hashes are compared, and they are
    /// rolled back, so the game is left as setup made it. The fuzzer's
    /// end-of-run check.
    func verify(in game: Game, restarting: Bool = true, source: String = "history") throws(RulebenchError) {
        if let mismatch = try prepare(game, restarting: restarting, source: source) { throw .badInput(mismatch) }
        switch try game.kernel.replay(steps.map { ($0.call, $0.hash) }) {
        case nil: return
        case .failed(let index, let error)?: throw cannotReplay(index, error, source)
        case .hash(let index, let actual)?: throw differs(index, actual, source)
        }
    }

    private func cannotReplay(_ index: Int, _ error: RulebenchError, _ source: String) -> RulebenchError {
        .badInput(InputProblem("step \(index + 1) (\(steps[index].call)) cannot be replayed: \(error)", file: source))
    }

    private func differs(_ index: Int, _ actual: StateHash, _ source: String) -> RulebenchError {
        .badInput(InputProblem("step \(index + 1) (\(steps[index].call)) gives state hash \(actual), the history says \(steps[index].hash)", file: source))
    }

    /// Restarts the game (when asked) and checks that it is the one saved:
    /// the same pack and version (else it throws), the overrides written,
    /// the same hash after setup (else it returns the mismatch).
    private func prepare(_ game: Game, restarting: Bool, source: String) throws(RulebenchError) -> InputProblem? {
        if restarting { try game.restart(seed: seed, options: options) }
        guard game.pack.name == packName, game.pack.version == packVersion else {
            throw .badInput(InputProblem("saved with pack \(packName) \(packVersion), but \(game.pack.directory) is \(game.pack.name) \(game.pack.version): "
                                         + "replay it with the pack it was saved with (its version \(packVersion) from version control), or start a new game", file: source))
        }
        for override in overrides { try game.setState(override.value, at: override.path) }
        guard game.history.initialHash == initialHash else {
            return InputProblem("the state after setup has hash \(game.history.initialHash), the history says \(initialHash): the pack or the setup changed", file: source)
        }
        return nil
    }
}

extension Game {
    /// Saves the history (see `SavedHistory`).
    public func save(to url: URL) throws(RulebenchError) {
        try SavedHistory(of: self).write(to: url)
    }

    /// Loads a saved history and replays it, verifying every step's hash.
    /// The pack is looked for relative to the file's folder first.
    public static func replay(contentsOf url: URL, configuration: Configuration = Configuration(),
                              progress: (Int) -> Void = { _ in }) throws(RulebenchError) -> Game {
        let saved = try SavedHistory(contentsOf: url)
        return try saved.replay(configuration: configuration, relativeTo: url.deletingLastPathComponent(),
                                source: PackFiles.display(url), progress: progress)
    }
}

/// What replaying a saved history found (`SavedHistory.verify`).
public struct ReplayVerdict {
    /// The game as far as it replayed: every step when there is no mismatch.
    public var game: Game
    /// The first step (or the setup) that did not replay as saved; nil when
    /// every state hash matched.
    public var mismatch: InputProblem?
}
