import Foundation

/// A game of a rule pack: the state, the history, and the only way to change them.
///
/// ```swift
/// let game = try Game(pack: "desert", seed: 7)
/// for call in try game.legalActions() { ... }
/// try game.perform("move", ["player": "p1", "to": "b2"])
/// try game.undo()
/// try game.redo()
/// ```
///
/// Every operation either completes or leaves the state and history exactly
/// as they were, and throws a `RulebenchError` that says why. A `Game` is not
/// thread-safe; use it from one thread at a time.
public final class Game {
    /// Limits and checking modes (`GameConfiguration`, which the kernel starts from).
    public typealias Configuration = GameConfiguration

    /// The pack this game runs.
    public let pack: PackInfo
    /// The seed of the engine's random generator.
    public private(set) var seed: Int64
    /// The setup options as given (the pack's defaults fill the rest).
    public private(set) var options: [String: StateValue]
    /// Values written over the state after setup (see `setState`).
    public private(set) var overrides: [(path: StatePath, value: StateValue?)] = []
    /// The performed actions and the undo/redo cursor.
    public private(set) var history: History
    /// Limits and checking modes in force.
    public let configuration: Configuration
    /// The opening animation the pack's `opening` built right after setup
    /// (the deal, say), as the animation of an action named "setup"; nil
    /// when the pack has no `opening` or it returned no plan.
    public private(set) var openingAnimation: ActionAnimation?

    /// The typed face of the kernel running this game.
    let kernel: Kernel
    let packID: String
    let packURL: URL

    /// Loads a pack and runs its setup.
    ///
    /// - Parameters:
    ///   - reference: a pack name (a folder under `rules/`) or a path to a pack folder.
    ///   - options: setup options; the pack's `options` supply defaults.
    ///   - seed: the seed of the engine's random generator.
    ///   - configuration: limits and checking modes.
    ///   - base: a folder to resolve a relative pack path against (a scenario's folder).
    public init(pack reference: String, options: [String: StateValue] = [:], seed: Int64 = 0,
                configuration: Configuration = Configuration(), relativeTo base: URL? = nil) throws(RulebenchError) {
        let (kernel, url, id, info) = try Game.load(reference, configuration: configuration, relativeTo: base)
        self.kernel = kernel
        self.packURL = url
        self.seed = seed
        self.options = options
        self.configuration = configuration
        self.packID = id
        self.pack = info
        try info.validate(options: options)
        let start = try kernel.startGame(pack: id, seed: seed, options: options)
        history = History(initialHash: start.hash, kernel: kernel)
        openingAnimation = start.opening
    }

    /// Starts a new game of the same pack in this game's Lua state: setup
    /// with `seed` and `options`, an empty history, no overrides. The pack's
    /// files run again from the chunks compiled when it loaded, so anything a
    /// pack keeps outside the game state (module-level tables) starts afresh,
    /// as in a new game; only creating the Lua state and compiling are saved,
    /// which is most of what a new `Game` costs. The fuzzer restarts instead.
    public func restart(seed: Int64, options: [String: StateValue] = [:]) throws(RulebenchError) {
        try pack.validate(options: options)
        let start = try kernel.restart(pack: packID, seed: seed, options: options)
        self.seed = seed
        self.options = options
        overrides = []
        history = History(initialHash: start.hash, kernel: kernel)
        openingAnimation = start.opening
    }

    // MARK: Loading

    /// What a pack declares, loaded without setting a game up: what a caller
    /// needs before it has the options (`PackInfo.options(fromText:)`).
    public static func packInfo(_ reference: String, configuration: Configuration = Configuration(),
                                relativeTo base: URL? = nil) throws(RulebenchError) -> PackInfo {
        var quiet = configuration
        quiet.printHandler = { _ in }
        return try load(reference, configuration: quiet, relativeTo: base).info
    }

    /// A fresh kernel with the pack at `reference` (and its bases) loaded.
    private static func load(_ reference: String, configuration: Configuration, relativeTo base: URL?)
        throws(RulebenchError) -> (kernel: Kernel, url: URL, id: String, info: PackInfo) {
        let url = try PackFiles.locate(reference, rulesDirectory: configuration.rulesDirectory, relativeTo: base)
        let files = PackFiles()
        files.printHandler = configuration.printHandler
        let kernel = try Kernel(configuration: configuration, files: files)
        let (id, info) = try loadPack(at: url, into: kernel, chain: [], root: url.deletingLastPathComponent())
        return (kernel, url, id, info)
    }

    /// `root` is the folder holding the pack that was asked for: base packs
    /// (`extends`) are looked for there and nowhere else.
    private static func loadPack(at url: URL, into kernel: Kernel, chain: [String], root: URL) throws(RulebenchError) -> (String, PackInfo) {
        let files = kernel.files
        let id = files.register(url)
        if chain.contains(id) {
            throw .packLoad(InputProblem("'extends' makes a cycle: " + (chain + [id]).joined(separator: " -> "), file: id + "/pack.lua"))
        }
        let manifestFile = url.appendingPathComponent("pack.lua")
        let source = try PackFiles.read(manifestFile, of: url)
        files.noteChunk(PackFiles.display(manifestFile))
        let manifest = try kernel.definePack(id: id, file: PackFiles.display(manifestFile), source: source)
        var baseID = ""
        if let extends = manifest.extends {
            let baseURL = try basePack(extends, beside: url, root: root, manifest: manifestFile)
            baseID = try loadPack(at: baseURL, into: kernel, chain: chain + [id], root: root).0
            try kernel.linkBase(pack: id, base: baseID)
        }
        for action in try PackFiles.actionFiles(in: url) {
            let text = try PackFiles.read(action.url, of: url)
            files.noteChunk(PackFiles.display(action.url))
            try kernel.addAction(pack: id, name: action.name, file: PackFiles.display(action.url), source: text)
        }
        return (id, try kernel.finishPack(id: id, base: baseID, extends: manifest.extends))
    }

    /// The folder of the base pack named by `extends`: a folder with a
    /// pack.lua inside `root`, symbolic links resolved. Anything else, a
    /// missing pack as much as a path that leads out of `root` (`../../etc`),
    /// gets one message that names only `extends` and `root`, so the answer
    /// says nothing about what exists outside.
    private static func basePack(_ extends: String, beside url: URL, root: URL, manifest: URL) throws(RulebenchError) -> URL {
        let candidate = url.deletingLastPathComponent().appendingPathComponent(extends).standardizedFileURL
        let inside = root.standardizedFileURL.resolvingSymlinksInPath().path + "/"
        let resolved = candidate.resolvingSymlinksInPath().path
        guard resolved.hasPrefix(inside),
              FileManager.default.fileExists(atPath: candidate.appendingPathComponent("pack.lua").path) else {
            throw .packLoad(InputProblem("extends unknown pack '\(extends)': no pack of that name in \(PackFiles.display(root)) "
                                         + "(a base pack is a folder beside the packs that extend it)",
                                         file: PackFiles.display(manifest)))
        }
        return candidate
    }

    // MARK: Playing

    /// Every legal action in the current state, as the pack's `legal` functions emit them
    /// (actions in name order, each in its own emit order).
    public func legalActions() throws(RulebenchError) -> [ActionCall] {
        try kernel.legal()
    }

    /// Performs an action: check, apply, subactions, invariants, animation plan.
    /// On any failure nothing changes and the error says why.
    @discardableResult
    public func perform(_ name: String, _ params: [String: StateValue] = [:]) throws(RulebenchError) -> HistoryEntry {
        try perform(ActionCall(name, params))
    }

    /// Performs an action call.
    @discardableResult
    public func perform(_ call: ActionCall) throws(RulebenchError) -> HistoryEntry {
        performed(call, try kernel.perform(call))
    }

    /// The history's entry for a call the kernel performed (and committed):
    /// the history's view moves to where the kernel's stands.
    func performed(_ call: ActionCall, _ reply: Kernel.PerformReply) -> HistoryEntry {
        history.move(to: reply.position, current: reply.hash)
        return HistoryEntry(call: call, hash: reply.hash, isCheckpoint: pack.actions[call.name]?.isCheckpoint ?? false,
                            tree: reply.tree, plan: reply.plan)
    }

    /// Undoes the last performed action: its subactions in reverse order, then
    /// its own `undo` (or the journal).
    ///
    /// In strict mode a rule whose undo does not restore the state exactly
    /// (the kernel compares every slot written, then the state's hash) makes
    /// this throw `.undoMismatch` *after* the state was repaired from the
    /// journal and the undo took effect.
    @discardableResult
    public func undo() throws(RulebenchError) -> UndoOutcome {
        guard history.cursor > 0 else { throw .badInput(InputProblem("nothing to undo")) }
        let reply = try kernel.undo(strict: configuration.strict)
        history.move(to: reply.position, current: reply.current)
        if !reply.problems.isEmpty {
            throw .undoMismatch(reply.problems)
        }
        return UndoOutcome(entry: reply.entry, hash: reply.hash, plan: reply.plan)
    }

    /// Reapplies the next undone action from its params. In strict mode it must
    /// give the same state hash, subaction tree and animation plan as the first
    /// time (the kernel compares them), or nothing changes and this throws
    /// `.redoMismatch`.
    @discardableResult
    public func redo() throws(RulebenchError) -> HistoryEntry {
        guard history.cursor < history.count else { throw .badInput(InputProblem("nothing to redo")) }
        let (reply, mismatch, call, isCheckpoint) = try kernel.redo(strict: configuration.strict)
        if let mismatch { throw .redoMismatch(mismatch) }
        history.move(to: reply.position, current: reply.hash)
        return HistoryEntry(call: call, hash: reply.hash, isCheckpoint: isCheckpoint, tree: reply.tree, plan: reply.plan)
    }

    /// What perform would say of a call's params (the engine's own check),
    /// without performing: nil when they fit.
    func paramProblem(_ call: ActionCall) throws(RulebenchError) -> ParamProblem? {
        try kernel.paramProblem(call)
    }

    /// Undoes back to the last checkpoint action (which stays applied);
    /// returns what was undone, nothing right after a checkpoint. Throws
    /// "nothing to undo" at the start, as `undo` does. One kernel call, in
    /// which each undo is checked as `undo` checks it.
    @discardableResult
    public func undoTurn() throws(RulebenchError) -> [UndoOutcome] {
        try undoTravel(.undoTurn)
    }

    /// Takes back the last turn (`History.undosToLastTurn`): the last action
    /// and those before it back to the checkpoint before it, so in a game
    /// whose every move is a checkpoint, the last move. Throws "nothing to
    /// undo" at the start; returns what was undone. One kernel call.
    @discardableResult
    public func undoLastTurn() throws(RulebenchError) -> [UndoOutcome] {
        try undoTravel(.undoLastTurn)
    }

    /// The undos of a turn: as many `undo()`s, but in one call. The first
    /// that fails, or does not restore the state, throws as `undo()` would,
    /// with those before it done.
    func undoTravel(_ travel: Kernel.Travel) throws(RulebenchError) -> [UndoOutcome] {
        guard history.cursor > 0 else { throw .badInput(InputProblem("nothing to undo")) }
        var outcomes: [UndoOutcome] = []
        for step in try travelled(travel).steps {
            switch step {
            case .undone(let hash, let plan, let problems, let entry, _):
                if !problems.isEmpty { throw .undoMismatch(problems) }
                outcomes.append(UndoOutcome(entry: entry, hash: hash, plan: plan))
            case .failed(let error):
                throw error
            case .redone, .differs:
                throw Kernel.replyMismatch(.travel, "steps", "a redo, in the undos of a turn")
            }
        }
        return outcomes
    }

    /// Runs a travel in the kernel and takes the history where it left it
    /// (the kernel's cursor, counts and version: a redo that, in non-strict
    /// mode, replaced its entry changed the version, so the view reads it
    /// again).
    ///
    /// The call itself fails when a stop ends it partway: a signal
    /// (`Interruption.request`, answered as the next step begins) or the
    /// wall-clock backstop in one of its steps, the memory cap between two.
    /// The steps before the stop are committed in the kernel, and their
    /// reply is lost: where the history stands is read back
    /// (`travelStopped`, one more crossing, on that path only), so the view
    /// stays the kernel's and a history saved afterwards replays.
    func travelled(_ travel: Kernel.Travel) throws(RulebenchError) -> Kernel.TravelReply {
        let start = history.cursor
        let reply: Kernel.TravelReply
        do {
            reply = try kernel.travel(travel, strict: configuration.strict)
        } catch {
            take(try kernel.travelStopped(from: start))
            throw error
        }
        take(reply)
        return reply
    }

    /// Takes where a travel left the history, and the hash it records
    /// there when the last step that took effect said it.
    private func take(_ reply: Kernel.TravelReply) {
        var current = reply.position.cursor == history.cursor ? history.view.current : nil
        for step in reply.steps {
            switch step {
            case .undone(_, _, _, _, let hash): current = hash
            case .redone(let entry): current = entry.hash
            case .failed, .differs: break
            }
        }
        history.move(to: reply.position, current: current)
    }

    /// Undoes everything, back to the state after setup: as many `undo()`s,
    /// in one kernel call; the first that fails or does not restore the
    /// state throws as `undo()` would.
    public func rewind() throws(RulebenchError) {
        guard history.cursor > 0 else { return }
        _ = try undoTravel(.rewind)
    }

    /// Undoes back to history position `cursor` after a walk (explore,
    /// solve) stopped on an error, as far as it can: an undo that did not
    /// restore the state has still taken effect (the state was repaired), so
    /// it goes on (as a seek does); any other failure stops it where it is.
    func unwind(to cursor: Int) {
        guard history.cursor > cursor else { return }
        do { _ = try travelled(.seek(cursor)) } catch {
            // Where it stopped is where the history now stands (`travelled`).
        }
    }

    /// Plays a fuzz run inside the kernel (`Kernel/fuzz.lua`) from this
    /// game's setup (or, resumed, from the last run's first steps), then
    /// takes the run's history as its own: the state is where the run left it.
    func play(_ request: Kernel.RunRequest) throws(RulebenchError) -> Kernel.RunReply {
        guard history.count == 0 || request.resume != nil else {
            throw .badInput(InputProblem("a fuzz run starts from a game with no history"))
        }
        let reply = try kernel.run(request)
        // A reply carries no entries. After a run from setup the view
        // starts afresh; after a resumed one it keeps those it read while the
        // kernel has not changed them since (`HistoryView`'s version).
        if request.resume == nil {
            history.view.take(reply.history.view)
        } else {
            history.view.move(to: reply.history.view.position, current: reply.history.view.current)
        }
        return reply
    }

    // MARK: Reading and checking the state

    /// The value at `path` (nil when absent).
    public func state(at path: StatePath) throws(RulebenchError) -> StateValue? {
        try kernel.value(at: path)
    }

    /// The whole state.
    public func state() throws(RulebenchError) -> StateValue {
        try state(at: .root) ?? .emptyTable
    }

    /// The current state hash, as history recorded it.
    public var stateHash: StateHash { history.currentHash }

    /// The hash of the live state, read from the engine rather than from
    /// history, so a failed operation that left a trace would show. It equals
    /// `stateHash` whenever the engine keeps its guarantees.
    public func liveStateHash() throws(RulebenchError) -> StateHash {
        try kernel.hash()
    }

    /// Writes a value at `path` before the first action (scenario overrides).
    /// Missing tables along the path are created when `createsTables` (the
    /// default, as saved histories replay their overrides); otherwise a
    /// missing one is bad input naming it. It is saved with the history.
    public func setState(_ value: StateValue?, at path: StatePath, createsTables: Bool = true) throws(RulebenchError) {
        guard history.count == 0 else {
            throw .badInput(InputProblem("the state can be set only before the first action"))
        }
        guard !path.keys.isEmpty else { throw .badInput(InputProblem("cannot replace the whole state")) }
        let hash = try kernel.set(value, at: path, createsTables: createsTables)
        overrides.append((path, value))
        history.initialHash = hash
    }

    /// Runs the pack's invariants on the current state.
    public func checkInvariants() throws(RulebenchError) {
        try kernel.checkInvariants()
    }

    /// Whether the pack's goal `name` (from `goals` in pack.lua) holds now.
    /// The goal runs with the state read-only, as invariants do.
    ///
    /// - Throws: `.badInput` for a goal the pack does not declare (naming
    ///   those it does), `.script` for a goal that fails or returns
    ///   something other than true or false (with its file and line).
    public func goalHolds(_ name: String) throws(RulebenchError) -> Bool {
        try kernel.goalHolds(name)
    }

    /// The estimate the pack's goal `name` declares of the moves still
    /// needed from here (run read-only, as the goal); nil when it declares none.
    public func goalEstimate(_ name: String) throws(RulebenchError) -> Double? {
        try kernel.goalEstimate(name)
    }

    /// The pack's `result(game)` now, as each seat's score (a seat that won:
    /// 1, the others -1; "draw": 0 each; a table: its scores): nil while
    /// play goes on, or when the pack declares no result.
    public func result() throws(RulebenchError) -> [String: Int]? {
        try kernel.valueResult()
    }

    /// The pack's text picture of the board ("" when it has no `render`).
    public func render() throws(RulebenchError) -> String {
        try kernel.render()
    }

    /// Counts the Lua VM instructions `body` runs in this game, by function
    /// ("file:line" where it is defined; the kernel's own files are under
    /// `rulebench/Kernel/`). Counts are exact and repeatable, so they compare
    /// changes where timings on a busy machine cannot. A development aid for
    /// the benchmarks: it needs `instructionBudget` 0, whose hook it would replace.
    public func countInstructions(_ body: () throws -> Void) throws -> [String: Int] {
        guard configuration.instructionBudget == 0 else {
            throw RulebenchError.badInput(InputProblem("counting instructions needs a game with instructionBudget 0"))
        }
        return try kernel.countInstructions(body)
    }

    /// The lines of rule code this game ran (with `collectsCoverage`), the
    /// lines its pack has, and how often the fuzzer performed, undid and
    /// redid each action in it.
    public func coverage() throws(RulebenchError) -> CoverageReport {
        try kernel.coverageReport()
    }

    /// Bytes the game's Lua state holds.
    public var memoryUsed: Int { kernel.memoryUsed }
}
