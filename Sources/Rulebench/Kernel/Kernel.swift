import Foundation

/// The one Swift owner of the kernel's calls.
///
/// The kernel (`Sources/Rulebench/Kernel/*.lua`) runs inside the game's Lua
/// state; this type is its typed face. Every call crosses the bridge once,
/// through a `KernelEntry` (the protocol: function, accounting, restart
/// policy), and every reply comes back as a Swift value read by
/// `KernelReply`: a hash, a perform reply, a list of legal calls, or a
/// `KernelError` that says what kind of failure it was and where. Nothing
/// outside this type and its extensions reads a kernel reply.
///
/// An operation that runs rule code (`KernelEntry.Mode.runsRules`) commits
/// its own work at its end: one call, one crossing. A failed rule call is
/// rolled back here (`abort`), before the error is thrown.
final class Kernel {
    private let vm: LuaVM
    /// Reads pack files for the kernel and receives what rules print.
    let files: PackFiles
    /// What `coverage` is told when coverage is switched on ("1", or "all"
    /// with `GameConfiguration.coversKernelLines`).
    private(set) var coverageMode = "1"

    /// Starts a Lua state with the kernel loaded.
    init(configuration: GameConfiguration, files: PackFiles) throws(RulebenchError) {
        self.files = files
        do {
            vm = try LuaVM(memoryCap: configuration.memoryCap, instructionBudget: configuration.instructionBudget,
                           host: files, kernel: KernelSource.chunks)
        } catch let failure as LuaFailure {
            throw .script(ScriptFailure(message: "cannot start Lua: \(failure.message)", location: nil, traceback: failure.traceback))
        } catch {
            throw .script(ScriptFailure(message: "cannot start Lua: \(error)", location: nil, traceback: ""))
        }
        try call(.configure, [configuration.animationSources ? "1" : "0", configuration.plantsSeededNext ? "1" : "0",
                              configuration.checksInvariants ? "1" : "0", configuration.checksLeaks ? "1" : "0"])
        coverageMode = configuration.coversKernelLines ? "all" : "1"
        if configuration.collectsCoverage { try call(.coverage, [coverageMode]) }
    }

    /// Bytes the Lua state holds.
    var memoryUsed: Int { vm.memoryUsed }

    /// How often watched work ran again counted in this state: whole calls,
    /// and single operations of the kernel's loops (see `LuaVM.reruns`).
    var reruns: (calls: Int64, operations: Int64) { vm.reruns }

    /// Kernel calls made in this state so far (`LuaVM.crossings`).
    var crossings: Int { vm.crossings }

    // MARK: Loading packs

    /// What `pack.lua` declares about itself before its actions load.
    struct Manifest {
        let name: String
        let version: String?
        let extends: String?
    }

    /// Runs a pack's `pack.lua` under the id the kernel will know it by.
    func definePack(id: String, file: String, source: String) throws(RulebenchError) -> Manifest {
        let reply = try loading { () throws(RulebenchError) in try call(.definePack, [id, id, file, source]) }
        let value = try KernelReply(.definePack, reply.first ?? [])
        return Manifest(name: try value.string("name"), version: try value.optionalString("version"),
                        extends: try value.optionalString("extends"))
    }

    /// Links a pack to its base, so its action files can reach the base's modules.
    func linkBase(pack: String, base: String) throws(RulebenchError) {
        try call(.linkBase, [pack, base])
    }

    /// Runs one action file of a pack.
    func addAction(pack: String, name: String, file: String, source: String) throws(RulebenchError) {
        _ = try loading { () throws(RulebenchError) in try call(.addAction, [pack, name, file, source]) }
    }

    /// Merges a pack with its base (`base` empty for none) and describes the result.
    func finishPack(id: String, base: String, extends: String?) throws(RulebenchError) -> PackInfo {
        let reply = try loading { () throws(RulebenchError) in try call(.finishPack, [id, base]) }
        return try PackInfo(KernelReply(.finishPack, reply.first ?? []), directory: id, extends: extends)
    }

    // MARK: Operations

    /// The result of a perform or a redo: the state hash after it, the
    /// kernel's description of the run, its subaction tree and animation
    /// plan, each kept encoded until someone reads it (equal values encode
    /// equally), and where the game's history stands after it.
    struct PerformReply {
        let hash: StateHash
        let tree: [UInt8]
        let plan: [UInt8]
        let position: History.Position
    }

    /// The result of an undo: the hash after it, its animation plan (encoded),
    /// the problems of a strict undo (empty when exact), and where the
    /// history stands after it (the undo took effect either way).
    struct UndoReply {
        let hash: StateHash
        let plan: [UInt8]
        let problems: [UndoProblem]
        /// The entry undone (it stays to redo), as the kernel's history holds it.
        let entry: HistoryEntry
        /// The hash the history records for the state the undo left.
        let current: StateHash
        let position: History.Position
    }

    /// Starts a new game as `newGame` does; `opening` is the animation the
    /// pack's `opening` built on the state setup made (nil without one, or
    /// when it animates nothing). One call: the game is committed.
    func startGame(pack: String, seed: Int64, options: [String: StateValue]) throws(RulebenchError) -> (hash: StateHash, opening: ActionAnimation?) {
        try started(.newGame, call(.newGame, [Array(pack.utf8), Array(String(seed).utf8), Wire.encode(options)]))
    }

    /// Loads the pack again from the chunks compiled when it first loaded
    /// (fresh globals and modules, every file run again, nothing compiled)
    /// and starts a new game of it, as `startGame` does: one call.
    func restart(pack: String, seed: Int64, options: [String: StateValue]) throws(RulebenchError) -> (hash: StateHash, opening: ActionAnimation?) {
        let reply: [[UInt8]]
        do {
            reply = try call(.restart, [Array(pack.utf8), Array(String(seed).utf8), Wire.encode(options)])
        } catch {
            // A rule file that fails as it loads again is a load error, as
            // it was the first time (`loading`); setup's failures are setup's.
            if case .script(let failure) = error, failure.phase == "loading" { throw Kernel.loadError(error) }
            throw error
        }
        return try started(.restart, reply)
    }

    /// A new game's reply: its hash, and the opening's plan node when there is one.
    private func started(_ entry: KernelEntry, _ reply: [[UInt8]]) throws(RulebenchError) -> (hash: StateHash, opening: ActionAnimation?) {
        guard reply.count > 1 else { return (hash(reply), nil) }
        let node = try KernelReply(entry, reply[1], result: 2)
        guard node.optional("own") != nil else { return (hash(reply), nil) }
        return (hash(reply), ActionAnimation(node: node.value, direction: .do, fallbackAction: "setup"))
    }

    /// Performs an action, records it in the game's history (the redo
    /// tail dropped) and commits, in one call.
    func perform(_ call: ActionCall) throws(RulebenchError) -> PerformReply {
        try performReply(.perform, positioned(.perform, [Array(call.name.utf8), Wire.encode(call.params)]), results: 3)
    }

    /// Redoes the history's next entry: performs it again and commits it,
    /// in one call. Strict, the kernel compares the hash, the subaction
    /// tree and the plan with the first time's (history.lua); reaching the
    /// same hash, the state is the one the invariants already passed, so
    /// they are not run again. A redo that differs is rolled back, and
    /// what differs returned with what it gave (the fourth result, "" when
    /// none); then the entry's call and whether it is a checkpoint.
    func redo(strict: Bool) throws(RulebenchError) -> (PerformReply, RedoMismatch?, call: ActionCall, isCheckpoint: Bool) {
        let reply = try positioned(.redo, [Array((strict ? "1" : "0").utf8)])
        let perform = try performReply(.redo, reply, results: 7)
        let mismatch = reply.strings[3].isEmpty ? nil : try Kernel.redoMismatch(KernelReply(.redo, reply.strings[3], result: 4))
        let (call, checkpoint) = try Kernel.entryCall(.redo, reply.strings, at: 4)
        return (perform, mismatch, call, checkpoint)
    }

    private func performReply(_ entry: KernelEntry, _ reply: (strings: [[UInt8]], position: History.Position),
                              results: Int) throws(RulebenchError) -> PerformReply {
        let strings = reply.strings
        guard strings.count == results else { throw Kernel.replyMismatch(entry, "", "\(strings.count + 5) results, not \(results + 5)") }
        return PerformReply(hash: hash(strings), tree: strings[1], plan: strings[2], position: reply.position)
    }

    /// Undoes the history's last applied entry and commits the undo, in one
    /// call. With `strict`, every slot the action or its undo wrote is
    /// compared with its value before the action (differences are repaired
    /// and reported), and then the state's hash with the one before it.
    func undo(strict: Bool) throws(RulebenchError) -> UndoReply {
        let (reply, position) = try positioned(.undo, [Array((strict ? "1" : "0").utf8)])
        guard reply.count == 10 else { throw Kernel.replyMismatch(.undo, "", "\(reply.count + 5) results, not 15") }
        let problems = reply[2].isEmpty ? [] : try Kernel.problems(KernelReply(.undo, reply[2], result: 3))
        return UndoReply(hash: hash(reply), plan: reply[1], problems: problems, entry: try Kernel.historyEntry(.undo, reply, at: 4),
                         current: StateHash(hex: String(decoding: reply[3], as: UTF8.self)), position: position)
    }

    /// Every legal action call, in action-name order, each action in its emit order.
    func legal() throws(RulebenchError) -> [ActionCall] {
        try Kernel.calls(KernelReply(.legal, call(.legal).first ?? []))
    }

    /// What perform would say of a call's params, without performing: nil
    /// when they fit the action's declaration (or the action is unknown).
    func paramProblem(_ call: ActionCall) throws(RulebenchError) -> ParamProblem? {
        let bytes = try self.call(.paramProblem, [Array(call.name.utf8), Wire.encode(call.params)]).first ?? []
        if bytes.isEmpty { return nil }
        let reply = try KernelReply(.paramProblem, bytes)
        return ParamProblem(message: try reply.string("message"), param: try reply.string("param"),
                            kind: try reply.field("problem").decode(ParamProblem.Kind.self))
    }

    /// Runs the pack's invariants on the current state.
    func checkInvariants() throws(RulebenchError) { try call(.invariants) }

    /// The pack's text picture of the state ("" when it has no `render`).
    func render() throws(RulebenchError) -> String {
        String(decoding: try call(.render).first ?? [], as: UTF8.self)
    }

    /// The hash of the live state.
    func hash() throws(RulebenchError) -> StateHash { hash(try call(.hash)) }

    /// The value at `path` (nil when absent).
    func value(at path: StatePath) throws(RulebenchError) -> StateValue? {
        let bytes = try call(.get, [Wire.encode(path)]).first ?? []
        do { return try Wire.decode(bytes) } catch { throw Kernel.replyMismatch(.get, "", "bytes that do not decode (\(error))") }
    }

    /// Writes a value at `path` and commits it; returns the new hash.
    func set(_ value: StateValue?, at path: StatePath, createsTables: Bool = true) throws(RulebenchError) -> StateHash {
        hash(try call(.set, [Wire.encode(path), Wire.encode(value), Array((createsTables ? "1" : "0").utf8)]))
    }

    /// Counts the VM instructions `body` runs, by Lua function ("file:line"
    /// of its definition). A development aid; needs an instruction budget of 0.
    func countInstructions(_ body: () throws -> Void) throws -> [String: Int] {
        try call(.profile, ["1"])
        var failure: Error?
        do { try body() } catch { failure = error }
        let value = try KernelReply(.profile, call(.profile, ["0"]).first ?? [])
        if let failure { throw failure }
        var counts: [String: Int] = [:]
        for entry in try value.entries() { counts[entry.key.description] = try entry.value.int() }
        return counts
    }

    /// Runs a kernel test written in Lua (`Tests/KernelTests/*.lua`): the
    /// chunk gets the kernel's internals and the protocol as Swift sees it
    /// (`KernelEntry.table`); an error fails it with its line.
    func selfTest(file: String, source: String) throws(RulebenchError) {
        let protocolTable = StateValue.table([.string("entries"): KernelEntry.table, .string("words"): KernelWords.table])
        try call(.selfTest, [Array(file.utf8), Array(source.utf8), Wire.encode(protocolTable)])
    }

    /// What a walk of the game tree inside the kernel found.
    enum Exploration {
        /// Nodes per depth: `[d]` sequences of length d + 1; the finished
        /// games: `finished[d]` sequences of length d (from 0, the state the
        /// walk began at, to depth - 1) end at a state with no legal call,
        /// `ended[d]` the distinct states they end at.
        case counts([Int], finished: [Int], ended: [[StateHash]])
        /// An undo on `path` did not restore the state.
        case undoMismatch(path: [ActionCall], problems: [UndoProblem])
    }

    /// How `explore` ended (the protocol's words).
    enum ExploreStatus: String, CaseIterable {
        case ok, undo
    }

    /// Walks every sequence of legal actions up to `depth` from the current
    /// state inside the kernel: perform, recurse, undo (verified when
    /// `strict`), one crossing for the whole walk. The state is the one it
    /// started from afterwards, whatever happened.
    func explore(depth: Int, strict: Bool) throws(ExplorationFailure) -> Exploration {
        do throws(RulebenchError) {
            let reply = try call(.explore, [String(depth), strict ? "1" : "0"])
            guard reply.count == 2 || reply.count == 3 else { throw Kernel.replyMismatch(.explore, "", "\(reply.count) results, not 2 or 3") }
            let status = try KernelReply.word(.explore, reply[0], as: ExploreStatus.self)
            let value = try KernelReply(.explore, reply[1], result: 2)
            switch status {
            case .undo: return .undoMismatch(path: try exploredPath(), problems: try Kernel.problems(value))
            case .ok:
                guard reply.count == 3 else { throw Kernel.replyMismatch(.explore, "", "2 results, not 3") }
                let games = try KernelReply(.explore, reply[2], result: 3)
                return .counts(try value.list().map { item throws(RulebenchError) in try item.int() },
                               finished: try games.field("finished").list().map { item throws(RulebenchError) in try item.int() },
                               ended: try games.field("ended").list().map { level throws(RulebenchError) in
                                   try level.list().map { item throws(RulebenchError) in StateHash(hex: try item.string()) }
                               })
            }
        } catch {
            throw ExplorationFailure(path: pathForReport(), error: error)
        }
    }

    /// The path of a failed walk, for its report.
    private func pathForReport() -> [ActionCall] {
        do {
            return try exploredPath()
        } catch {
            // The path is the report's context: the failure being reported
            // says more than a second one reading the path would.
            return []
        }
    }

    /// The path the last walk was on.
    private func exploredPath() throws(RulebenchError) -> [ActionCall] {
        try Kernel.calls(KernelReply(.explored, call(.explored).first ?? []))
    }

    // MARK: Crossing

    func hash(_ reply: [[UInt8]]) -> StateHash {
        StateHash(hex: String(decoding: reply.first ?? [], as: UTF8.self))
    }

    /// Calls the kernel at `entry` with text arguments.
    @discardableResult
    func call(_ entry: KernelEntry, _ arguments: [String]) throws(RulebenchError) -> [[UInt8]] {
        try call(entry, arguments.map { Array($0.utf8) })
    }

    /// Calls the kernel at `entry`. A rule call's failure is the rules':
    /// the pending operation is rolled back and the error says what and
    /// where. A bookkeeping call's failure is a bug in the engine.
    @discardableResult
    func call(_ entry: KernelEntry, _ arguments: [[UInt8]] = []) throws(RulebenchError) -> [[UInt8]] {
        try crossing(entry) { () throws(LuaFailure) in try vm.call(entry.rawValue, mode: entry.vmMode, restart: entry.vmRestart, arguments) }
    }

    /// Calls the kernel at `entry`, whose last five results are where the
    /// history stands (history.lua's `where`, read as integers): the
    /// results before them, and the position.
    func positioned(_ entry: KernelEntry, _ arguments: [[UInt8]] = []) throws(RulebenchError)
        -> (strings: [[UInt8]], position: History.Position) {
        let reply = try crossing(entry) { () throws(LuaFailure) in try vm.call(entry.rawValue, mode: entry.vmMode, restart: entry.vmRestart, arguments, integers: 5) }
        guard let n = reply.integers else {
            throw Kernel.replyMismatch(entry, "", "its last 5 results are not integers (where the history stands)")
        }
        return (reply.strings, History.Position(cursor: n[0], count: n[1], undosToLastCheckpoint: n[2], undosToLastTurn: n[3],
                                                version: n[4]))
    }

    /// A crossing's failure as the entry's mode says: a rule call's, or
    /// the engine's own.
    private func crossing<T>(_ entry: KernelEntry, _ body: () throws(LuaFailure) -> T) throws(RulebenchError) -> T {
        do {
            return try body()
        } catch {
            switch entry.mode {
            case .runsRules: throw try rulesFailed(error)
            case .bookkeeping: throw internalError(error, in: entry)
            }
        }
    }

    /// A failed rule call: the operation rolled back, and what was running
    /// when it failed (abort's reply) named in the error.
    private func rulesFailed(_ error: LuaFailure) throws(RulebenchError) -> RulebenchError {
        let context = try KernelReply(.abort, call(.abort).first ?? [])
        if error.cause == .memoryCap { try call(.gc) }
        return rulebenchError(error, action: try context.optionalString("action"), phase: try context.optionalString("phase"))
    }

    /// A failed bookkeeping call, as an internal error (or the cap's, see below).
    private func internalError(_ error: LuaFailure, in entry: KernelEntry) -> RulebenchError {
        // The engine may use twice the cap for its copies of the state
        // (alloc.c, RB_ENGINE_COPIES): running out means the state
        // is near the cap, so the error names the cap, as a rule's would.
        if error.cause == .memoryCap {
            return .budgetExceeded(BudgetFailure(resource: .memory, limit: Int64(vm.memoryCap), location: nil,
                                                 action: nil, phase: "the engine's work (\(entry.rawValue))"))
        }
        return .script(ScriptFailure(message: "internal error in the engine: \(error.message)", location: nil, traceback: error.traceback))
    }

    /// A failed operation as the public API reports it, whether Swift made
    /// the call or a kernel loop caught the failure (see Kernel+Fuzz).
    func rulebenchError(_ failure: LuaFailure, action: String?, phase: String?) -> RulebenchError {
        KernelError(files.expandingTruncatedNames(failure), action: action, phase: phase)
            .rulebenchError(instructionBudget: vm.instructionBudget, memoryCap: vm.memoryCap)
    }

    /// Errors while loading are load errors, whatever raised them.
    private func loading<T>(_ body: () throws(RulebenchError) -> T) throws(RulebenchError) -> T {
        do {
            return try body()
        } catch {
            throw Kernel.loadError(error)
        }
    }

    /// An error raised while a pack loads, as a load error.
    private static func loadError(_ error: RulebenchError) -> RulebenchError {
        switch error {
        case .script(let failure):
            return .packLoad(InputProblem(failure.message, file: failure.location?.file, line: failure.location?.line))
        case .badInput(let problem):
            return .packLoad(problem)
        default:
            return error
        }
    }

    /// A value as the kernel's diff shows it, with Lua's `nil` (absent) read as `StateChange.absent`.
    private static func shown(_ value: KernelReply?) throws(RulebenchError) -> String {
        guard let text = try value?.string(), text != "nil" else { return StateChange.absent }
        return text
    }

    /// The kernel's list of undo problems `{ action, file, line, diffs = { { path, before, after, note } } }`.
    static func problems(_ value: KernelReply) throws(RulebenchError) -> [UndoProblem] {
        UndoProblem.merged(try value.list().map { problem throws(RulebenchError) in
            UndoProblem(
                action: try problem.string("action"),
                undoFunction: try KernelError.location(problem),
                differences: try problem.field("diffs").list().map { d throws(RulebenchError) in
                    StateChange(path: try d.string("path"), before: try shown(d.optional("before")), after: try shown(d.optional("after")),
                                note: try d.optionalString("note"))
                }.sorted { StatePath.naturalOrder($0.path, $1.path) })
        })
    }

    /// A strict redo's mismatch report `{ what, action, expected, actual }`
    /// (history.lua, `difference`), from Game's redo or a fuzz run's finding.
    static func redoMismatch(_ value: KernelReply) throws(RulebenchError) -> RedoMismatch {
        // Hashes come as their hex text; trees and plans as values, shown as Swift shows a value.
        func shown(_ v: KernelReply?) -> String {
            if case .string(let text)? = v?.value { return text }
            return v?.value.description ?? "nil"
        }
        return RedoMismatch(what: try value.field("what").decode(KernelWords.RedoDifference.self).rawValue,
                            action: try value.string("action"),
                            expected: shown(value.optional("expected")), actual: shown(value.optional("actual")))
    }

    /// A kernel list of `{ name, params }`.
    static func calls(_ value: KernelReply) throws(RulebenchError) -> [ActionCall] {
        try value.list().map { item throws(RulebenchError) in try item.call() }
    }
}

/// A failed kernel call, typed: what kind of failure, where, and in what.
struct KernelError: Error {
    /// The kinds of failure the kernel and the bridge report.
    enum Kind: String, CaseIterable {
        /// A `check` refused the action.
        case rejected
        /// An invariant failed.
        case invariant
        /// Params that do not fit the action's declaration.
        case params
        /// An unknown action.
        case unknown
        /// A state path that cannot be written.
        case path
        /// A pack that does not load.
        case load
        /// A rule broke the engine's contract (a bad return value, say).
        case error
        /// A Lua error raised by rule code.
        case script
        /// The instruction budget ran out.
        case instructionBudget
        /// The memory cap was reached.
        case memoryCap
        /// The wall-clock backstop stopped work the budget did not count.
        case wallClock
        /// The process was asked to stop (SIGINT, SIGTERM).
        case interrupted
    }

    let kind: Kind
    /// The message without its location.
    let message: String
    /// Where it happened, when known.
    let location: SourceLocation?
    /// The rule-pack frames of the traceback.
    let traceback: String
    /// The action (path) running, if any.
    let action: String?
    /// What was running: "check", "apply", "undo", ...
    let phase: String?
    /// The invariant that failed (kind `.invariant`).
    let invariant: String?

    /// Where the kernel's chunks are, as tracebacks name them.
    static let kernelPrefix = "rulebench/Kernel/"

    init(_ failure: LuaFailure, action: String?, phase: String?) {
        let fields = failure.fields
        let frames = KernelError.packFrames(failure.traceback)
        traceback = frames
        self.phase = phase
        invariant = fields["invariant"]
        let running = action?.isEmpty == false ? action : nil
        switch failure.cause {
        case .instructionBudget, .memoryCap, .wallClock, .interrupted:
            kind = [.memoryCap: .memoryCap, .wallClock: .wallClock, .interrupted: .interrupted][failure.cause] ?? .instructionBudget
            (location, message) = SourceLocation.split(failure.message)
            self.action = running
            return
        case .error, .handler:
            break
        }
        if let tag = fields["kind"], let known = Kind(rawValue: tag) {
            // A kernel error object: its fields say everything.
            kind = known
            message = fields["message"] ?? ""
            location = KernelError.location(fields)
            self.action = fields["action"].flatMap { $0.isEmpty ? nil : $0 } ?? running
            return
        }
        // A Lua error from rule code: Lua put its position in front of the message.
        kind = .script
        let (position, text) = SourceLocation.split(failure.message)
        message = text
        self.action = running
        // An error object that is not a string carries no position, and a
        // library function's argument error names the kernel's wrapper; the
        // innermost rule-pack frame of the traceback stands in for both.
        let own = position?.file.hasPrefix(KernelError.kernelPrefix) == true ? nil : position
        location = own ?? frames.split(separator: "\n").lazy.compactMap { SourceLocation.split(String($0)).0 }.first
    }

    /// The `file` and `line` fields of a kernel record.
    static func location(_ fields: [String: String]) -> SourceLocation? {
        guard let file = fields["file"], !file.isEmpty else { return nil }
        return SourceLocation(file: file, line: fields["line"].flatMap { Int($0) } ?? 0)
    }

    /// The `file` and `line` fields of a kernel reply's record (both optional).
    static func location(_ value: KernelReply) throws(RulebenchError) -> SourceLocation? {
        guard let file = try value.optionalString("file"), !file.isEmpty else { return nil }
        return SourceLocation(file: file, line: try value.optional("line")?.int() ?? 0)
    }

    /// The traceback lines that point into rule packs (the kernel's own frames are noise).
    private static func packFrames(_ traceback: String) -> String {
        traceback.split(separator: "\n")
            .filter { $0.contains(".lua:") && !$0.contains(kernelPrefix) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: "\n")
    }

    /// The error as the public API reports it.
    func rulebenchError(instructionBudget: Int64, memoryCap: Int) -> RulebenchError {
        switch kind {
        case .instructionBudget:
            return .budgetExceeded(BudgetFailure(resource: .instructions, limit: instructionBudget,
                                                 location: location, action: action, phase: phase))
        case .memoryCap:
            return .budgetExceeded(BudgetFailure(resource: .memory, limit: Int64(memoryCap),
                                                 location: location, action: action, phase: phase))
        case .wallClock, .interrupted:
            return .budgetExceeded(BudgetFailure(resource: kind == .wallClock ? .wallClock : .interrupt,
                                                 limit: instructionBudget, location: location, action: action,
                                                 phase: phase, detail: message))
        case .rejected:
            return .rejected(reason: message, action: action ?? "")
        case .invariant:
            return .invariant(name: invariant ?? "", message: message, location: location)
        case .params, .unknown, .path:
            return .badInput(InputProblem(message))
        case .load:
            return .packLoad(InputProblem(message, file: location?.file, line: location.flatMap { $0.line > 0 ? $0.line : nil }))
        case .error, .script:
            return .script(ScriptFailure(message: message, location: location, traceback: traceback, action: action, phase: phase))
        }
    }
}

/// A call's params that do not fit its action's declaration, as the kernel's
/// one param check (`checkparams` in `Kernel/engine.lua`) found them.
struct ParamProblem {
    /// How a param does not fit.
    enum Kind: String, CaseIterable {
        /// The action declares no such param.
        case undeclared
        /// The value is not of the declared type.
        case type
        /// A required param is not given.
        case missing
    }
    /// The engine's message, as perform would raise it.
    var message: String
    /// The param it is about.
    var param: String
    var kind: Kind
}

// MARK: - Reading finishPack's reply (only here: PackInfo never sees a reply)

extension PackInfo {
    /// A pack as `finishpack` describes it (packload.lua, describe).
    init(_ value: KernelReply, directory: String, extends: String?) throws(RulebenchError) {
        name = try value.string("name")
        version = try value.string("version")
        self.directory = directory
        self.extends = extends
        var actions: [String: ActionInfo] = [:]
        for entry in try value.field("actions").entries() {
            let name = entry.key.description
            actions[name] = try PackInfo.action(name, entry.value)
        }
        self.actions = actions
        options = ActionCall.params(from: try value.field("options").value)
        for entry in try value.field("optiontypes").entries() { optionTypes[entry.key.description] = try entry.value.string() }
        invariants = try value.field("invariants").list().map { item throws(RulebenchError) in try item.string() }
        goals = try value.field("goals").list().map { item throws(RulebenchError) in try item.string() }
        hasRender = try value.bool("render")
        hasSetup = try value.bool("setup")
        description = try value.optionalString("description")
    }

    private static func action(_ name: String, _ a: KernelReply) throws(RulebenchError) -> ActionInfo {
        var params: [String: String] = [:]
        for p in try a.field("params").entries() { params[p.key.description] = try p.value.string() }
        return ActionInfo(
            name: name, params: params, declaresParams: try a.bool("declared"),
            file: try a.string("file"), hasLegal: try a.bool("legal"),
            hasCheck: try a.bool("check"), hasUndo: try a.bool("undo"),
            hasAnimate: try a.bool("animate"), isCheckpoint: try a.bool("checkpoint"),
            description: try a.optionalString("description"), isInternal: try a.bool("internal"))
    }
}
