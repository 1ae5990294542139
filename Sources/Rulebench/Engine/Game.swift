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
    /// Limits and checking modes.
    public struct Configuration: Sendable {
        /// Prove every undo restores the state exactly, and every redo
        /// reproduces the action (hash, subaction tree, animation plan).
        public var strict = true
        /// Lua instructions allowed per operation (perform, undo, legal, ...); 0 disables the hook.
        public var instructionBudget: Int64 = 10_000_000
        /// Bytes the game's Lua state may hold.
        public var memoryCap = 256 << 20
        /// Where packs named without a path are looked for (default: ./rules).
        public var rulesDirectory: URL?
        /// Receives what rules `print` (default: standard error).
        public var printHandler: (@Sendable (String) -> Void)?

        public init() {}
    }

    /// The pack this game runs.
    public let pack: PackInfo
    /// The seed of the engine's random generator.
    public let seed: Int64
    /// The setup options as given (the pack's defaults fill the rest).
    public let options: [String: StateValue]
    /// Values written over the state after setup (see `setState`).
    public private(set) var overrides: [(path: StatePath, value: StateValue?)] = []
    /// The performed actions and the undo/redo cursor.
    public private(set) var history: History
    /// Limits and checking modes in force.
    public let configuration: Configuration

    let vm: LuaVM
    private let files: PackFiles
    private let packID: String
    let packURL: URL

    /// Loads a pack and runs its setup.
    ///
    /// - Parameters:
    ///   - pack: a pack name (a folder under `rules/`) or a path to a pack folder.
    ///   - options: setup options; the pack's `options` supply defaults.
    ///   - seed: the seed of the engine's random generator.
    ///   - relativeTo: a folder to resolve a relative pack path against (a scenario's folder).
    public init(pack reference: String, options: [String: StateValue] = [:], seed: Int64 = 0,
                configuration: Configuration = Configuration(), relativeTo base: URL? = nil) throws(RulebenchError) {
        let url = try PackFiles.locate(reference, rulesDirectory: configuration.rulesDirectory, relativeTo: base)
        let files = PackFiles()
        files.printHandler = configuration.printHandler
        let vm: LuaVM
        do {
            vm = try LuaVM(memoryCap: configuration.memoryCap, instructionBudget: configuration.instructionBudget, host: files, kernel: KernelSource.chunks)
        } catch let failure as LuaFailure {
            throw .script(ScriptFailure(message: "cannot start Lua: \(failure.message)", location: nil, traceback: failure.traceback))
        } catch {
            throw .script(ScriptFailure(message: "cannot start Lua: \(error)", location: nil, traceback: ""))
        }
        self.vm = vm
        self.files = files
        self.packURL = url
        self.seed = seed
        self.options = options
        self.configuration = configuration
        let (id, info) = try Game.loadPack(at: url, into: vm, files: files, chain: [])
        self.packID = id
        self.pack = info
        let results = try Game.userCall(vm, files, "newgame", [Array(id.utf8), Array(String(seed).utf8), Wire.encode(options)])
        try Game.engineCall(vm, "commit")
        history = History(initialHash: StateHash(hex: String(decoding: results[0], as: UTF8.self)))
    }

    // MARK: Loading

    private static func loadPack(at url: URL, into vm: LuaVM, files: PackFiles, chain: [String]) throws(RulebenchError) -> (String, PackInfo) {
        let id = files.register(url)
        if chain.contains(id) {
            throw .packLoad(InputProblem("'extends' makes a cycle: " + (chain + [id]).joined(separator: " -> "), file: id + "/pack.lua"))
        }
        let manifestFile = url.appendingPathComponent("pack.lua")
        let source = try PackFiles.read(manifestFile)
        files.noteChunk(PackFiles.display(manifestFile))
        let defined = try loading { () throws(RulebenchError) in
            try userCall(vm, files, "definepack", [id, id, PackFiles.display(manifestFile), source].map { Array($0.utf8) })
        }
        let manifest = try? Wire.decode(defined[0])
        var baseID = ""
        let extends = manifest?["extends"]?.stringValue
        if let extends {
            let baseURL = url.deletingLastPathComponent().appendingPathComponent(extends)
            guard FileManager.default.fileExists(atPath: baseURL.appendingPathComponent("pack.lua").path) else {
                throw .packLoad(InputProblem("extends unknown pack '\(extends)' (no \(PackFiles.display(baseURL))/pack.lua)",
                                             file: PackFiles.display(manifestFile)))
            }
            baseID = try loadPack(at: baseURL.standardizedFileURL, into: vm, files: files, chain: chain + [id]).0
            try engineCall(vm, "linkbase", [Array(id.utf8), Array(baseID.utf8)])
        }
        for action in try PackFiles.actionFiles(in: url) {
            let text = try PackFiles.read(action.url)
            files.noteChunk(PackFiles.display(action.url))
            _ = try loading { () throws(RulebenchError) in
                try userCall(vm, files, "addaction", [id, action.name, PackFiles.display(action.url), text].map { Array($0.utf8) })
            }
        }
        let described = try loading { () throws(RulebenchError) in
            try userCall(vm, files, "finishpack", [Array(id.utf8), Array(baseID.utf8)])
        }
        return (id, PackInfo(try? Wire.decode(described[0]), directory: id, extends: extends))
    }

    /// Errors while loading are load errors, whatever raised them.
    private static func loading<T>(_ body: () throws(RulebenchError) -> T) throws(RulebenchError) -> T {
        do {
            return try body()
        } catch {
            switch error {
            case .script(let failure):
                throw .packLoad(InputProblem(failure.message, file: failure.location?.file, line: failure.location?.line))
            case .badInput(let problem):
                throw .packLoad(problem)
            default:
                throw error
            }
        }
    }

    // MARK: Calls into the kernel

    /// A call that runs rule code; on failure the kernel rolls back to where it began.
    @discardableResult
    static func userCall(_ vm: LuaVM, _ files: PackFiles, _ function: String, _ arguments: [[UInt8]]) throws(RulebenchError) -> [[UInt8]] {
        do {
            return try vm.call(function, arguments, mode: .user)
        } catch {
            let context = (try? vm.call("failure", mode: .engine)).flatMap { try? Wire.decode($0[0]) }
            _ = try? vm.call("abort", mode: .engine)
            if error.cause == .memoryCap { _ = try? vm.call("gc", mode: .engine) }
            throw translate(error, action: context?["action"]?.stringValue, phase: context?["phase"]?.stringValue, vm: vm, files: files)
        }
    }

    @discardableResult
    static func engineCall(_ vm: LuaVM, _ function: String, _ arguments: [[UInt8]] = []) throws(RulebenchError) -> [[UInt8]] {
        do {
            return try vm.call(function, arguments, mode: .engine)
        } catch {
            throw .script(ScriptFailure(message: "internal error in the engine: \(error.message)", location: nil, traceback: error.traceback))
        }
    }

    private static func translate(_ failure: LuaFailure, action: String?, phase: String?, vm: LuaVM, files: PackFiles) -> RulebenchError {
        let failure = files.expandingTruncatedNames(failure)
        let (location, message) = ScriptLocation.split(failure.message)
        let action = action?.isEmpty == false ? action : nil
        switch failure.cause {
        case .instructionBudget:
            return .budgetExceeded(BudgetFailure(resource: .instructions, limit: vm.instructionBudget,
                                                 location: location, action: action, phase: phase))
        case .memoryCap:
            return .budgetExceeded(BudgetFailure(resource: .memory, limit: Int64(vm.memoryCap),
                                                 location: location, action: action, phase: phase))
        case .error, .handler:
            break
        }
        let fields = failure.fields
        switch failure.kind {
        case "rejected":
            return .rejected(reason: fields["message"] ?? "", action: fields["action"] ?? action ?? "")
        case "invariant":
            return .invariant(name: fields["invariant"] ?? "", message: fields["message"] ?? "",
                              location: ScriptLocation(fields["at"]))
        case "params", "unknown", "path":
            return .badInput(InputProblem(fields["message"] ?? failure.message))
        case "load":
            let (loc, text) = ScriptLocation.split(fields["message"] ?? "")
            if let loc { return .packLoad(InputProblem(text, file: loc.file, line: loc.line)) }
            let parts = text.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].hasSuffix(".lua") {
                return .packLoad(InputProblem(parts[1].trimmingCharacters(in: .whitespaces), file: String(parts[0])))
            }
            return .packLoad(InputProblem(text))
        default:
            let kernelAction = fields["action"].flatMap { $0.isEmpty ? nil : $0 } ?? action
            let frames = packFrames(failure.traceback)
            // An error object that is not a string carries no position, and a
            // library function's argument error names the kernel's wrapper
            // (rulebench/sandbox); the innermost rule-pack frame of the
            // traceback stands in for both.
            let location = (location?.file.hasPrefix("rulebench/") == true ? nil : location) ?? frames.split(separator: "\n").lazy
                .compactMap { ScriptLocation.split(String($0)).0 }.first
            return .script(ScriptFailure(message: message, location: location,
                                         traceback: frames, action: kernelAction, phase: phase))
        }
    }

    /// The traceback lines that point into rule packs (the kernel's own frames are noise).
    private static func packFrames(_ traceback: String) -> String {
        traceback.split(separator: "\n")
            .filter { $0.contains(".lua:") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: "\n")
    }

    // MARK: Playing

    /// Every legal action in the current state, as the pack's `legal` functions emit them
    /// (actions in name order, each in its own emit order).
    public func legalActions() throws(RulebenchError) -> [ActionCall] {
        let results = try Game.userCall(vm, files, "legal", [])
        let list = (try? Wire.decode(results[0]))?.listItems ?? []
        return list.map { ActionCall($0["name"]?.stringValue ?? "", ActionCall.params(from: $0["params"])) }
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
        let entry = try run(call)
        try Game.engineCall(vm, "commit")
        history.entries.removeSubrange(history.cursor...)
        history.entries.append(entry)
        history.cursor += 1
        return entry
    }

    private func run(_ call: ActionCall) throws(RulebenchError) -> HistoryEntry {
        let results = try Game.userCall(vm, files, "perform", [Array(call.name.utf8), Wire.encode(call.params)])
        return HistoryEntry(call: call, hash: StateHash(hex: String(decoding: results[0], as: UTF8.self)),
                            isCheckpoint: pack.actions[call.name]?.isCheckpoint ?? false, detail: results[1])
    }

    /// Undoes the last performed action: its subactions in reverse order, then
    /// its own `undo` (or the journal).
    ///
    /// In strict mode a rule whose undo does not restore the state exactly
    /// makes this throw `.undoMismatch` *after* the state was repaired from
    /// the journal and the undo took effect.
    @discardableResult
    public func undo() throws(RulebenchError) -> UndoOutcome {
        guard history.cursor > 0 else { throw .badInput(InputProblem("nothing to undo")) }
        let results = try Game.userCall(vm, files, "undo", [Array((configuration.strict ? "1" : "0").utf8)])
        try Game.engineCall(vm, "commit")
        history.cursor -= 1
        let entry = history.entries[history.cursor]
        let hash = StateHash(hex: String(decoding: results[0], as: UTF8.self))
        if !results[2].isEmpty {
            throw .undoMismatch(Game.problems(results[2]))
        }
        if configuration.strict && hash != history.currentHash {
            throw .undoMismatch([UndoProblem(action: entry.call.name, undoFunction: nil, differences: [
                StateDifference(path: "(state hash)", before: history.currentHash.hex, after: hash.hex, note: "the state differs from before the action")])])
        }
        return UndoOutcome(entry: entry, hash: hash, plan: results[1])
    }

    private static func problems(_ bytes: [UInt8]) -> [UndoProblem] {
        let list = (try? Wire.decode(bytes))?.listItems ?? []
        return list.map { problem in
            UndoProblem(
                action: problem["action"]?.stringValue ?? "?",
                undoFunction: ScriptLocation(problem["at"]?.stringValue),
                differences: (problem["diffs"]?.listItems ?? []).map { d in
                    StateDifference(path: d["path"]?.stringValue ?? "?", before: d["before"]?.stringValue ?? "nil",
                                    after: d["after"]?.stringValue ?? "nil", note: d["note"]?.stringValue)
                })
        }
    }

    /// Reapplies the next undone action from its params. In strict mode it must
    /// give the same state hash, subaction tree and animation plan as the first
    /// time, or nothing changes and this throws `.redoMismatch`.
    @discardableResult
    public func redo() throws(RulebenchError) -> HistoryEntry {
        guard history.cursor < history.entries.count else { throw .badInput(InputProblem("nothing to redo")) }
        let original = history.entries[history.cursor]
        let entry = try run(original.call)
        if configuration.strict, let mismatch = Game.compare(original, entry) {
            _ = try? vm.call("abort", mode: .engine)
            throw .redoMismatch(mismatch)
        }
        try Game.engineCall(vm, "commit")
        history.entries[history.cursor] = entry
        history.cursor += 1
        return entry
    }

    private static func compare(_ original: HistoryEntry, _ redone: HistoryEntry) -> RedoMismatch? {
        let name = original.call.name
        if original.hash != redone.hash {
            return RedoMismatch(what: "state hash", action: name, expected: original.hash.hex, actual: redone.hash.hex)
        }
        if original.detail == redone.detail { return nil }
        let (a, b) = (original.decodedDetail, redone.decodedDetail)
        if a?["tree"] != b?["tree"] {
            return RedoMismatch(what: "subaction tree", action: name, expected: "\(a?["tree"].map(\.description) ?? "nil")",
                                actual: "\(b?["tree"].map(\.description) ?? "nil")")
        }
        return RedoMismatch(what: "animation plan", action: name, expected: "\(a?["plan"].map(\.description) ?? "nil")",
                            actual: "\(b?["plan"].map(\.description) ?? "nil")")
    }

    /// Undoes back to the last checkpoint action (which stays applied); returns what was undone.
    @discardableResult
    public func undoTurn() throws(RulebenchError) -> [UndoOutcome] {
        var outcomes: [UndoOutcome] = []
        while history.cursor > 0 && !history.entries[history.cursor - 1].isCheckpoint {
            outcomes.append(try undo())
        }
        return outcomes
    }

    /// Undoes everything, back to the state after setup.
    public func rewind() throws(RulebenchError) {
        while history.cursor > 0 { try undo() }
    }

    // MARK: Reading and checking the state

    /// The value at `path` (nil when absent).
    public func state(at path: StatePath) throws(RulebenchError) -> StateValue? {
        let results = try Game.engineCall(vm, "get", [Wire.encode(path)])
        return try? Wire.decode(results[0])
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
        let results = try Game.engineCall(vm, "hash")
        return StateHash(hex: String(decoding: results[0], as: UTF8.self))
    }

    /// Writes a value at `path` before the first action (scenario overrides).
    /// Missing tables along the path are created. It is saved with the history.
    public func setState(_ value: StateValue?, at path: StatePath) throws(RulebenchError) {
        guard history.entries.isEmpty else {
            throw .badInput(InputProblem("the state can be set only before the first action"))
        }
        guard !path.keys.isEmpty else { throw .badInput(InputProblem("cannot replace the whole state")) }
        let results = try Game.userCall(vm, files, "set", [Wire.encode(path), Wire.encode(value)])
        try Game.engineCall(vm, "commit")
        overrides.append((path, value))
        history.initialHash = StateHash(hex: String(decoding: results[0], as: UTF8.self))
    }

    /// Runs the pack's invariants on the current state.
    public func checkInvariants() throws(RulebenchError) {
        try Game.userCall(vm, files, "invariants", [])
    }

    /// The pack's text picture of the board ("" when it has no `render`).
    public func render() throws(RulebenchError) -> String {
        let results = try Game.userCall(vm, files, "render", [])
        return String(decoding: results[0], as: UTF8.self)
    }

    /// Bytes the game's Lua state holds.
    public var memoryUsed: Int { vm.memoryUsed }
}
