import Foundation

/// Lints a rule pack without a player: what `rulebench check` reports.
///
/// It finds, in this order:
/// - syntax and load errors, with file and line (errors);
/// - setup failing for the pack's declared options, and invariants failing
///   on the initial state (errors);
/// - a view (`view` in pack.lua) that fails, writes, adds a bad node or
///   gives a bad place, in the sampled states (errors, at its line), and
///   the image, atlas and sound files it names that the pack lacks (warnings);
/// - goals that fail, write to the state or answer something other than
///   true or false, and invariants that fail, in any state the sampling or a
///   short breadth-first search from the start reaches (errors); a goal's
///   estimate above the moves of a line to the goal that a short search
///   finds from a sampled state (warnings);
/// - actions with no `legal` function that no other action queues as a
///   subaction, which play, explore and the fuzzer can never choose (warnings);
/// - `act:sub` of an action the pack does not have (errors); an action other
///   actions queue that has no `legal` and is not `internal = true`, and an
///   internal action nothing queues or that has a `legal` (warnings);
/// - params declared but never read as `a.name`, and `a.name` read but
///   neither declared nor recorded on `a` by the action (warnings);
/// - the story sequences' problems (`SequenceAudit`, docs/sequences.md);
/// - `legal` emitting a param table that `check` rejects, the engine refuses,
///   or that fails when applied, and undos that do not restore the state, found by
///   performing and undoing every emitted call in a few states reached by
///   random legal play from fixed seeds (errors).
///
/// ```swift
/// let problems = try PackChecker(pack: "desert").check()
/// for problem in problems { print(problem) }   // rules/desert/actions/move.lua:12: warning: ...
/// ```
public struct PackChecker {
    /// How much to sample, and how to start games.
    public struct Options: Sendable {
        /// Setup options over the pack's defaults.
        public var setupOptions: [String: StateValue] = [:]
        /// Seeds of the sample games (each also checks setup with that seed).
        public var seeds: [Int64] = [1, 2, 3]
        /// Random legal actions played per sample game.
        public var depth = 12
        /// At most this many emitted calls are tried in each state (a random sample when there are more).
        public var callsPerState = 40
        /// A goal's estimate is checked against the lines to the goal a
        /// breadth-first search of this many moves finds from each sampled state...
        public var estimateDepth = 6
        /// ...keeping at most this many states.
        public var estimateStates = 2_000
        /// States the short search visits, breadth first from the start of
        /// the first seed's game, running goals and invariants in each (0: none).
        public var searchStates = 300
        /// Limits, the rules folder, and where rule prints go (default: nowhere).
        public var configuration: Game.Configuration

        /// The defaults: seeds 1, 2 and 3, 12 moves each, rule prints swallowed.
        public init() {
            configuration = Game.Configuration()
            configuration.printHandler = { _ in }
        }
    }

    /// The pack: a name under the rules folder or a path to a pack folder.
    public let pack: String
    /// What to sample.
    public let options: Options

    /// A checker of `pack`.
    public init(pack: String, options: Options = Options()) {
        self.pack = pack
        self.options = options
    }

    /// Checks the pack and returns every problem found (empty when clean).
    ///
    /// - Throws: `.badInput` only when there is no pack at `pack` (every
    ///   problem inside the pack is returned as a `PackProblem`).
    public func check() throws(RulebenchError) -> [PackProblem] {
        let folder = try PackFiles.locate(pack, rulesDirectory: options.configuration.rulesDirectory, relativeTo: nil)
        let manifest = PackFiles.display(folder.appendingPathComponent("pack.lua"))
        var startProblems: [PackProblem] = []
        var sampled: [PackProblem] = []
        var info: PackInfo?
        var loaded = true
        var sequenceProblems: [PackProblem] = []

        for seed in options.seeds.isEmpty ? [1] : options.seeds {
            do {
                let game = try Game(pack: folder.path, options: options.setupOptions, seed: seed, configuration: options.configuration)
                info = info ?? game.pack
                if let problem = PackChecker.openingProblem(game, manifest: manifest),
                   !startProblems.contains(problem) { startProblems.append(problem) }
                if seed == options.seeds.first ?? 1 {
                    search(game, seed: seed) { Self.add($0, to: &sampled) }
                    sequenceProblems = SequenceAudit(game: game).problems
                }
                sample(game, seed: seed, into: &sampled)
            } catch {
                guard let problem = startProblem(error, manifest: manifest, seed: seed) else { continue }
                // The same failure with another seed is the same bug: report it once.
                if !startProblems.contains(where: { $0.file == problem.file && $0.line == problem.line }) {
                    startProblems.append(problem)
                }
                if case .packLoad = error {
                    loaded = false
                    break
                }
            }
        }
        startProblems = startProblems.map { PackChecker.expandingTruncatedFile($0, in: folder) }
        let broken = loaded ? [] : Set(startProblems.map(\.file))
        return startProblems + staticProblems(folder: folder, info: info, loaded: loaded).filter { !broken.contains($0.file) }
            + sequenceProblems + sampled
    }

    // MARK: Starting a game

    /// The opening animation's problem, as the fuzzer judges an action's
    /// plan: not finite, or two runs of one property overlapping (an error).
    static func openingProblem(_ game: Game, manifest: String) -> PackProblem? {
        guard let opening = game.openingAnimation, let problem = Fuzzer.animationProblem(opening) else { return nil }
        return PackProblem(.error, file: opening.source?.file ?? manifest, line: opening.source?.line, "the opening's \(problem)")
    }

    /// `file:line` split in two.
    /// Lua shortens long file names in its messages to "...tail"; this puts
    /// back the full name of the pack's file that ends with the tail.
    static func expandingTruncatedFile(_ problem: PackProblem, in folder: URL) -> PackProblem {
        guard problem.file.hasPrefix("...") else { return problem }
        let tail = String(problem.file.dropFirst(3))
        let candidates = [folder.appendingPathComponent("pack.lua")]
            + ((try? PackFiles.actionFiles(in: folder))?.map(\.url) ?? [])
            + ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".lua") }
                .map { folder.appendingPathComponent($0) }
        guard let match = candidates.map(PackFiles.display).first(where: { $0.hasSuffix(tail) }) else { return problem }
        var expanded = problem
        expanded.file = match
        return expanded
    }

    private func startProblem(_ error: RulebenchError, manifest: String, seed: Int64) -> PackProblem? {
        let options = describe(optionsOf: seed)
        switch error {
        case .packLoad(let problem):
            return PackProblem(.error, file: problem.file ?? manifest, line: problem.line,
                               problem.message + " (the pack does not load; fix this first, then run check again)")
        case .badInput(let problem):
            return PackProblem(.error, file: problem.file ?? manifest, line: problem.line, "setup \(options): \(problem.message)")
        case .invariant(let name, let message, let location):
            return PackProblem(.error, file: location?.file ?? manifest, line: location?.line,
                               "the initial state \(options) breaks an invariant: " + (message.isEmpty ? "'\(name)' failed" : message))
        case .script(let failure):
            return PackProblem(.error, file: failure.location?.file ?? manifest, line: failure.location?.line,
                               "setup fails \(options): \(failure.message)")
        case .budgetExceeded(let failure):
            return PackProblem(.error, file: failure.location?.file ?? manifest, line: failure.location?.line,
                               "setup \(options): \(failure)")
        case .rejected, .undoMismatch, .redoMismatch:
            return PackProblem(.error, file: manifest, "setup \(options): \(error)")
        }
    }

    private func describe(optionsOf seed: Int64) -> String {
        let given = options.setupOptions.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return "(seed \(seed)" + (given.isEmpty ? ", default options)" : ", options " + given.joined(separator: " ") + ")")
    }

    // MARK: Reading the sources

    private func staticProblems(folder: URL, info: PackInfo?, loaded: Bool) -> [PackProblem] {
        guard let files = try? PackFiles.actionFiles(in: folder) else { return [] }
        let lints = files.compactMap { file -> ActionSourceLint? in
            guard let data = try? InputFile.bytes(file.url, display: PackFiles.display(file.url)) else { return nil }
            return ActionSourceLint(name: file.name, file: PackFiles.display(file.url), source: String(decoding: data, as: UTF8.self))
        }
        let queued = lints.reduce(into: Set<String>()) { $0.formUnion($1.queuedSubactions) }
        var problems = loaded ? PackChecker.subactionProblems(lints, info: info) : []
        for lint in lints {
            let action = info?.actions[lint.name]
            let hasLegal = action?.hasLegal ?? (lint.scan.definitionLine(of: "legal") != nil)
            if !hasLegal && !queued.contains(lint.name) && action?.isInternal != true {
                problems.append(PackProblem(.warning, file: lint.file, line: nil,
                    "'\(lint.name)' has no legal function and no action queues it with act:sub, so play, explore and the fuzzer "
                        + "never choose it: add legal = function(game, emit) ... end that emits its param tables"))
            }
            let declared = action.flatMap { $0.declaresParams ? Set($0.params.keys) : nil }
            // Without a loaded pack, the params table is read from the source.
            problems += lint.paramProblems(declared: loaded ? declared : nil)
            if let problem = lint.directionProblem { problems.append(problem) }
        }
        return problems
    }

    /// What `act:sub` calls and `internal` say about each other (the pack loaded):
    /// - `act:sub("name")` of an action the pack does not have (error: it fails when it runs);
    /// - an action that other actions queue, that has no `legal`, and is not
    ///   `internal`: a helper meant to run only as a subaction, which a player
    ///   could still perform on its own (warning: mark it `internal = true`);
    /// - an internal action no action queues (nothing runs it), with a
    ///   `legal` function (never called), or marked `checkpoint` (only
    ///   top-level actions are history entries, where `undo turn` stops)
    ///   (warnings).
    static func subactionProblems(_ lints: [ActionSourceLint], info: PackInfo?) -> [PackProblem] {
        guard let info else { return [] }
        var problems: [PackProblem] = []
        var callers: [String: (file: String, line: Int)] = [:]
        for lint in lints {
            for call in lint.subactionCalls {
                if callers[call.name] == nil { callers[call.name] = (lint.file, call.line) }
                guard info.actions[call.name] == nil else { continue }
                problems.append(PackProblem(.error, file: lint.file, line: call.line,
                    "act:sub of unknown action '\(call.name)': it fails whenever this line runs; add actions/\(call.name).lua or fix the name"
                        + Suggestion.hint(for: call.name, in: info.actionNames)))
            }
        }
        for lint in lints {
            guard let action = info.actions[lint.name] else { continue }
            if action.isInternal {
                if callers[lint.name] == nil {
                    problems.append(PackProblem(.warning, file: lint.file, line: lint.scan.definitionLine(of: "internal"),
                        "'\(lint.name)' is internal but no action queues it with act:sub(\"\(lint.name)\", ...), so nothing ever runs it"))
                }
                if action.hasLegal {
                    problems.append(PackProblem(.warning, file: lint.file, line: lint.scan.definitionLine(of: "legal"),
                        "'\(lint.name)' is internal, so its legal function is never called: remove it"))
                }
                if action.isCheckpoint {
                    problems.append(PackProblem(.warning, file: lint.file, line: lint.scan.definitionLine(of: "checkpoint"),
                        "'\(lint.name)' is internal, so it is never a history entry and `undo turn` never stops at it: "
                            + "mark the actions that queue it checkpoint = true instead"))
                }
            } else if !action.hasLegal, let caller = callers[lint.name] {
                problems.append(PackProblem(.warning, file: lint.file, line: nil,
                    "'\(lint.name)' has no legal function and runs as a subaction (\(caller.file):\(caller.line)), but a player can "
                        + "still perform it on its own: add internal = true so that only act:sub runs it"))
            }
        }
        return problems
    }

    // MARK: Sampling legal play

    /// Performs and undoes every call `legal` emits in states reached by random legal play.
    private func sample(_ game: Game, seed: Int64, into problems: inout [PackProblem]) {
        var random = FuzzRandom(seed: UInt64(bitPattern: seed) &* 0x2545_F491_4F6C_DD1D &+ 17)
        func report(_ problem: PackProblem) { Self.add(problem, to: &problems) }
        for move in 0...options.depth {
            lintGoals(game, context: "seed \(seed), after \(move) move\(move == 1 ? "" : "s")", report: report)
            lintView(game, context: "seed \(seed), after \(move) move\(move == 1 ? "" : "s")", report: report)
            let calls: [ActionCall]
            do {
                calls = try game.legalActions()
            } catch {
                report(failureProblem(error, game: game, during: "legal", context: "seed \(seed), after \(move) moves"))
                return
            }
            var tried = calls
            if tried.count > options.callsPerState {
                for index in 0..<options.callsPerState { tried.swapAt(index, index + random.below(tried.count - index)) }
                tried = Array(tried.prefix(options.callsPerState))
            }
            var good: [ActionCall] = []
            for call in tried {
                let context = "seed \(seed), after \(move) move\(move == 1 ? "" : "s")"
                do {
                    try game.perform(call)
                } catch {
                    report(emittedProblem(call, error, game: game, context: context))
                    continue
                }
                do {
                    try game.undo()
                    good.append(call)
                } catch {
                    report(undoProblem(call, error, game: game, context: context))
                    return   // the state was repaired, but this game's play is no longer trustworthy
                }
            }
            guard move < options.depth, !good.isEmpty else { return }
            let chosen = good[random.below(good.count)]
            do { try game.perform(chosen) } catch { return }
        }
    }

    /// Adds a problem unless one at its place is there: one report per
    /// place, whichever seed, state or call finds it first.
    static func add(_ problem: PackProblem, to problems: inout [PackProblem]) {
        if !problems.contains(where: { $0.file == problem.file && $0.line == problem.line }) { problems.append(problem) }
    }

    /// Runs every goal of the pack in the current state: each must answer
    /// true or false without failing or writing (it runs read-only); a
    /// goal's estimate must not exceed the moves of a line to the goal
    /// found by a short search (a warning: A* may then miss the shortest line),
    /// probed only when `probingEstimates` (the sampled states; `check`'s
    /// breadth-first walk has hundreds of states, each a search of its own).
    func lintGoals(_ game: Game, context: String, probingEstimates: Bool = true, report: (PackProblem) -> Void) {
        for goal in game.pack.goals {
            do {
                _ = try game.goalHolds(goal)
                guard probingEstimates else { continue }
                let probe = try game.kernel.probeEstimate(goal: goal, depth: options.estimateDepth, bound: options.estimateStates)
                if let over = probe {
                    report(PackProblem(.warning, file: over.location?.file ?? game.pack.directory + "/pack.lua", line: over.location?.line,
                        "goal '\(goal)': estimate says \(over.estimate) where the goal is at most \(over.most) move\(over.most == 1 ? "" : "s") away "
                            + "(\(context)" + (over.at == 0 ? "" : ", then \(over.at) move\(over.at == 1 ? "" : "s") toward it")
                            + "): an estimate above the moves still needed "
                            + "lets `solve` miss the shortest line"))
                }
            } catch {
                report(failureProblem(error, game: game, during: "goal '\(goal)'", context: context))
            }
        }
    }

    private func legalLine(of action: String, game: Game) -> (file: String, line: Int?) {
        let file = game.pack.actions[action]?.file ?? game.pack.directory + "/pack.lua"
        guard let data = try? InputFile.bytes(URL(fileURLWithPath: file), display: file) else { return (file, nil) }
        return (file, LuaSourceScan(String(decoding: data, as: UTF8.self)).definitionLine(of: "legal"))
    }

    private func emittedProblem(_ call: ActionCall, _ error: RulebenchError, game: Game, context: String) -> PackProblem {
        let legal = legalLine(of: call.name, game: game)
        switch error {
        case .rejected(let reason, let action):
            let who = action == call.name || action.isEmpty ? "check" : "the check of subaction '\(action)'"
            return PackProblem(.error, file: legal.file, line: legal.line,
                "legal emits `\(call)` but \(who) rejects it: \(reason) (\(context)); make legal and check agree")
        case .badInput(let problem):
            return PackProblem(.error, file: legal.file, line: legal.line,
                "legal emits `\(call)` but the engine refuses its params: \(problem.message) (\(context))")
        default:
            return failureProblem(error, game: game, during: "`\(call)` (emitted by legal)", context: context)
        }
    }

    private func undoProblem(_ call: ActionCall, _ error: RulebenchError, game: Game, context: String) -> PackProblem {
        if case .undoMismatch(let list) = error, let first = list.first {
            let detail = first.differences.prefix(3).map(UndoProblem.line).joined(separator: "; ")
            return PackProblem(.error, file: first.undoFunction?.file ?? game.pack.actions[call.name]?.file ?? "?",
                               line: first.undoFunction?.line,
                               "undo of '\(first.action)' after `\(call)` does not restore the state: \(detail) (\(context))")
        }
        return failureProblem(error, game: game, during: "undo of `\(call)`", context: context)
    }

    func failureProblem(_ error: RulebenchError, game: Game, during what: String, context: String) -> PackProblem {
        let fallback = game.pack.directory + "/pack.lua"
        switch error {
        case .script(let failure):
            return PackProblem(.error, file: failure.location?.file ?? fallback, line: failure.location?.line,
                               "\(what) fails: \(failure.message) (\(context))")
        case .budgetExceeded(let failure):
            return PackProblem(.error, file: failure.location?.file ?? fallback, line: failure.location?.line, "\(what): \(failure) (\(context))")
        case .invariant(let name, let message, let location):
            return PackProblem(.error, file: location?.file ?? fallback, line: location?.line,
                               "\(what) breaks an invariant: " + (message.isEmpty ? "'\(name)' failed" : message) + " (\(context))")
        default:
            return PackProblem(.error, file: fallback, "\(what): \(error) (\(context))")
        }
    }
}
