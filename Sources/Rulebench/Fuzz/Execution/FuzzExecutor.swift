import Foundation

/// Runs fuzz programs in games of their pack and checks the fuzzer's properties after each step.
struct FuzzExecutor {
    /// How a game is made for each program.
    var configuration: Game.Configuration
    /// A folder a relative pack path is resolved against.
    var base: URL?
    /// The games programs run in, kept loaded between programs.
    let games = GameCache()

    /// Two loaded games of the pack, restarted for each program rather than
    /// built anew: creating a Lua state and compiling the kernel and the pack
    /// costs more than a whole short program. `main` plays the programs;
    /// `replay` replays their saved histories from scratch.
    final class GameCache {
        /// Which cached game.
        enum Slot { case main, replay }

        var main: Game? { games[.main]?.game }
        /// `animationIsSound`'s verdicts by the main game's plan ids (nil: sound).
        var verdicts: [Int: String?] = [:]
        /// The last run the main game played, whole (its reply with the
        /// steps of the runs it resumed put back), while the game stands
        /// where it ended: what a run that resumes needs (`play`).
        var lastRun: (program: FuzzProgram, request: Kernel.RunRequest, reply: Kernel.RunReply)?
        /// The pack's sequence reads (`SequenceProbe`), read once per pack; nil inside: none.
        private var probes: [String: SequenceProbe?] = [:]

        func sequenceProbe(of game: Game) -> SequenceProbe? {
            if let known = probes[game.pack.directory] { return known }
            let probe = SequenceProbe(game)
            probes[game.pack.directory] = .some(probe)
            return probe
        }
        /// Each cached game with the pack reference it was made for.
        private var games: [Slot: (pack: String, game: Game)] = [:]

        /// The cached game of `slot` when it was made for `pack`.
        func game(_ slot: Slot, of pack: String) -> Game? {
            guard let cached = games[slot], cached.pack == pack else { return nil }
            return cached.game
        }

        func store(_ game: Game?, _ slot: Slot, of pack: String) {
            games[slot] = game.map { (pack, $0) }
            if slot == .main { verdicts = [:]; lastRun = nil }   // plan ids belong to the main game's kernel
        }
    }

    /// What happened at one step, for reproducing it as a scenario.
    enum Outcome: Hashable {
        case performed(StateHash)
        case rejected(String)
        case failed(String)
        case undone(Int)
        case redone(Int)
    }

    /// The result of running a program.
    struct Result {
        var finding: FuzzFinding?
        /// The state hash after each step.
        var trace: [StateHash] = []
        /// The outcome of each step that ran.
        var outcomes: [Outcome] = []
        /// The legal actions offered before each step (recorded only when asked).
        var legal: [[ActionCall]] = []
        /// False when a `perform` step was not legal at its point (a shrink candidate to discard).
        var valid = true
        /// When it was not: the legal calls at that step (the shrinker mends the step with one).
        var offered: [ActionCall]?
        /// Line-to-line edges of rule code this run reached first (with coverage on).
        var newEdges = 0
        /// The steps (0-based) at which it reached them (see `Kernel.RunReply.novelSteps`).
        var novelSteps: [Int] = []
        /// What the run found for the other workers of a parallel guided
        /// session (with `Kernel.RunRequest.share`).
        var found: Discoveries?
        /// It resumed from an earlier run's first steps (`execute`'s `resuming`).
        var resumed = false
    }

    /// A game of the program's pack, set up with its seed and options.
    func newGame(_ program: FuzzProgram) throws(RulebenchError) -> Game {
        try reuse(.main, pack: program.pack, seed: program.seed, options: program.options)
    }

    /// The cached game at `slot`, restarted; a new one when there is none yet
    /// for this pack (a corpus may hold programs of another pack) or its
    /// last restart failed.
    private func reuse(_ slot: GameCache.Slot, pack: String, seed: Int64,
                       options: [String: StateValue]) throws(RulebenchError) -> Game {
        if slot == .main { games.lastRun = nil }
        if let game = games.game(slot, of: pack) {
            do {
                try game.restart(seed: seed, options: options)
                return game
            } catch {
                games.store(nil, slot, of: pack)
                throw error
            }
        }
        games.store(nil, slot, of: pack)
        let game = try Game(pack: pack, options: options, seed: seed, configuration: configuration, relativeTo: base)
        games.store(game, slot, of: pack)
        return game
    }

    /// Runs a whole program. With `checkLegality`, each `perform` must be among
    /// the legal actions of its state (otherwise the result is marked invalid).
    /// With `resuming`, the run may start where the last one stood after
    /// the steps the two programs share (`resumePoint`), rewound there
    /// with the strict undo instead of replayed from a restarted game: the
    /// shrinker's candidates, which differ from the last one from some step
    /// on. `Result.resumed` says whether it did. With `seeking`, the
    /// whole-history checks after the run (save, load, replay) are made
    /// only when the kernel's end-of-run rewind found that finding: when
    /// it did not, no finding the run can give is that one (the
    /// shrinker's candidates of a finding of the rewind). Without
    /// `wholeHistoryIfResumed`, a resumed run whose rewind found that
    /// finding leaves those checks out too: for a caller that plays such a
    /// run again from a restarted game before it believes it (the shrinker).
    func execute(_ program: FuzzProgram, checkLegality: Bool, recordLegal: Bool = false, finalChecks: Bool = true,
                 listLegalAtEnd: Bool = false, resuming: Bool = false, seeking: FindingKey? = nil,
                 wholeHistoryIfResumed: Bool = true) -> Result {
        var request = Kernel.RunRequest(program: program.steps, checkLegality: checkLegality,
                                        recordLegal: recordLegal, rewindAtEnd: finalChecks, listLegalAtEnd: listLegalAtEnd)
        if resuming, let resume = resumePoint(program, request) {
            request.resume = resume
            let result = play(program, request, seeking: seeking, wholeHistory: wholeHistoryIfResumed).1
            if result.resumed { return result }
            request.resume = nil   // the kernel could not go back there: from a restarted game
        }
        return play(program, request, seeking: seeking).1
    }

    /// How many first steps `program` can take from the main game's last
    /// run: those it shares with it, up to the last that run completed
    /// of its first performs and attempts, when the run was asked the same
    /// of each step (none when it did not record the legal calls this one
    /// records). Nil when there is no such run (the kernel refuses the
    /// rest: entries a later step replaced, a state not the history's).
    private func resumePoint(_ program: FuzzProgram, _ request: Kernel.RunRequest) -> Int? {
        guard let last = games.lastRun, games.main != nil, last.program.pack == program.pack,
              last.program.seed == program.seed, last.program.options == program.options,
              last.request.checkLegality == request.checkLegality else { return nil }
        // The legal calls of the shared steps were not recorded: every step
        // undone and played again, still without a restart.
        if request.recordLegal && !last.request.recordLegal { return 0 }
        let shared = zip(program.steps, last.program.steps).prefix { $0 == $1 }.count
        let performs = last.program.steps.prefix {
            if case .perform = $0 { return true }
            if case .attempt = $0 { return true }
            return false
        }.count
        return min(shared, last.reply.trace.count, performs)
    }

    /// Plays a random game of up to `depth` steps chosen by the generator
    /// seeded with `choiceSeed`; returns the program as played.
    func generate(_ start: FuzzProgram, choiceSeed: UInt64, depth: Int) -> (FuzzProgram, Result) {
        play(start, Kernel.RunRequest(program: nil, choiceSeed: choiceSeed, depth: depth, rewindAtEnd: true))
    }

    /// Plays a run in a fresh game: the kernel plays every step and checks
    /// the kernel's properties after each (`Kernel/fuzz.lua`); here,
    /// `animationIsSound` on
    /// each performed action's plan, then the whole-history checks (see
    /// `execute` for `seeking` and `wholeHistory`).
    func play(_ start: FuzzProgram, _ request: Kernel.RunRequest, seeking: FindingKey? = nil,
              wholeHistory: Bool = true) -> (FuzzProgram, Result) {
        var result = Result()
        var program = start
        let game: Game
        var reply: Kernel.RunReply
        let resumed = request.resume.flatMap { _ in games.main }
        let previous = games.lastRun
        games.lastRun = nil
        do {
            game = try resumed ?? newGame(program)
        } catch {
            result.finding = FuzzFinding(property: .invariantsHold, stepIndex: -1, message: "setup failed: \(error)", differences: [], blame: nil)
            return (start, result)
        }
        let probe = games.sequenceProbe(of: game)
        var request = request
        if let probe { request.reads = probe.reads.map(\.path) }
        do {
            reply = try game.play(request)
            if let base = request.resume, let previous { reply.resumed(after: base, of: previous.reply, recordsLegal: request.recordLegal) }
            result.resumed = resumed != nil
            games.lastRun = (program, request, reply)
        } catch {
            if resumed != nil { return (start, result) }   // not resumed: the caller runs it afresh
            result.finding = FuzzFinding(property: .invariantsHold, stepIndex: -1, message: "the run stopped in the engine: \(error)", differences: [], blame: nil)
            return (start, result)
        }
        if let steps = reply.steps { program.steps = steps }
        result.outcomes = reply.outcomes
        result.trace = reply.trace
        result.legal = reply.legal
        result.valid = reply.valid
        result.offered = reply.offered
        result.newEdges = reply.newEdges
        result.novelSteps = reply.novelSteps
        result.found = reply.found
        let sound = animationFinding(reply, in: program, before: reply.finding?.stepIndex)
        if !reply.valid {
            program.steps = Array(program.steps.prefix(reply.outcomes.count))
            return (program, result)
        }
        result.finding = reply.finding.map { finding($0, probe) }
        if let sound {
            result.finding = sound
            result.outcomes = Array(result.outcomes.prefix(sound.stepIndex + 1))
            result.trace = Array(result.trace.prefix(sound.stepIndex))
        }
        if let found = result.finding {
            program.steps = Array(program.steps.prefix(found.stepIndex + 1))
        } else if request.rewindAtEnd {
            let rewound = reply.rewound.map { kernelFinding -> FuzzFinding in
                var found = finding(kernelFinding)
                found.stepIndex = program.steps.count - 1
                found.rewindUndos = kernelFinding.rewindUndos
                return found
            }
            // Of the rewind's findings, only a broken undo's property is
            // none of the checks below (a rewound hash shares replay's).
            let sought = seeking.flatMap { seeking in rewound.map(seeking.admits) } ?? false
            if let seeking, seeking.property == .undoRestores, !sought {
                result.finding = rewound   // not the finding sought, whatever the checks below would find
            } else if sought && !wholeHistory {
                result.finding = rewound   // the caller plays it again, from a restart, with the checks
            } else {
                result.finding = checkWholeHistory(game, program: program, stepCount: program.steps.count, rewound: rewound)
            }
        }
        return (program, result)
    }

    /// `animationIsSound`: the first performed action (before step `limit`) whose
    /// plan is not finite or has conflicting tracks. Verdicts are kept by
    /// the kernel's plan id: a session performs the same plans again and
    /// again, and building a timeline costs more than the action.
    private func animationFinding(_ reply: Kernel.RunReply, in program: FuzzProgram, before limit: Int?) -> FuzzFinding? {
        // The kernel sends a plan's bytes only the first time it sees the
        // plan, so every new plan is judged now, even past `limit`.
        for sighting in reply.plans {
            guard let plan = sighting.plan, games.verdicts[sighting.id] == nil,
                  case .perform(let call) = program.steps[sighting.stepIndex] else { continue }
            let entry = HistoryEntry(call: call, hash: StateHash(hex: ""), isCheckpoint: false, tree: [], plan: plan)
            if games.verdicts.count >= 50_000 { games.verdicts.removeAll(keepingCapacity: true) }
            games.verdicts[sighting.id] = .some(Fuzzer.animationProblem(entry))
        }
        for sighting in reply.plans {
            if let limit, sighting.stepIndex >= limit { break }
            guard case .some(.some(let problem)) = games.verdicts[sighting.id],
                  case .perform(let call) = program.steps[sighting.stepIndex] else { continue }
            return FuzzFinding(property: .animationIsSound, stepIndex: sighting.stepIndex, message: "\(call): \(problem)", differences: [], blamed: Blame(action: call.name))
        }
        return nil
    }

    /// A finding of the kernel's step loop, worded for the report.
    private func finding(_ found: Kernel.RunFinding, _ probe: SequenceProbe? = nil) -> FuzzFinding {
        let index = found.stepIndex
        let call = found.call.map { "\($0)" } ?? "?"
        let activity: Kernel.StepActivity? = found.during
        switch found.problem {
        case .error(let error) where found.property == .undoMirrorsDo:
            return finding(found.property, index, "\(activity?.turnStep ?? "undo of \(call)"): \(error)", error)
        case .error(let error):
            switch activity {
            case .failed?: return finding(found.property, index, "\(call) failed and changed the state: \(error)", error)
            case .after?: return finding(found.property, index, "after \(call): \(error)", error)
            case .emitted?: return finding(found.property, index, "\(call) was emitted by legal but failed: \(error)", error)
            case .legal?: return finding(found.property, index, FuzzFinding.legalListingFailed + "\(error)", error)
            case .turn?, .lastTurn?: return finding(found.property, index, activity?.turnStep ?? "", error)
            case .rewind?: return finding(found.property, index, FuzzFinding.rewindFailed, error)
            default: return finding(found.property, index, "\(found.during.rawValue) of \(call)", error)
            }
        case .undoMismatch(let problems):
            let what = activity?.turnStep ?? (activity == .rewind ? FuzzFinding.rewindFailed : "undo of \(call)")
            return finding(found.property, index, what, .undoMismatch(problems))
        case .redoMismatch(let mismatch):
            return finding(found.property, index, "redo of \(call)", .redoMismatch(mismatch))
        case .leak(let leak):
            // The blame is the seat and the line that put the secret in its view
            // (the pack's view, legal, animate or apply code): "seat p2 at FILE:LINE".
            let blame = leak.line.flatMap { SourceLocation($0) }.map { Blame(action: "seat \(leak.seat)", location: $0) }
            return FuzzFinding(property: .seatSeesOnly, stepIndex: index, message: leak.message(before: found.call), differences: [], blamed: blame)
        case .missingSlot(let read):
            if let found = probe?.finding(missing: read, stepIndex: index, call: found.call) { return found }
            return FuzzFinding(property: .sequenceTextsRead, stepIndex: index, message: "a story sequence's slot \(read + 1) is missing", differences: [], blame: nil)
        case .rewoundTo(let actual, let expected):
            return FuzzFinding(property: .rewindAndReplay, stepIndex: index,
                               message: FuzzFinding.rewindFailed + " gave state hash \(actual), not the initial \(expected)", differences: [], blame: nil)
        }
    }

    /// `rewindAndReplay` and `saveAndLoad`: rewinding gives the initial state, and the saved
    /// history replays from scratch with the same hash at every step.
    func checkWholeHistory(_ game: Game, program: FuzzProgram, stepCount: Int, rewound: FuzzFinding?) -> FuzzFinding? {
        let saved = SavedHistory(of: game)
        let reloaded: SavedHistory
        do {
            // Round-trip through the saved text in memory: no file I/O per run.
            reloaded = try SavedHistory(json: saved.json, file: "(saved history)")
        } catch {
            return FuzzFinding(property: .saveAndLoad, stepIndex: stepCount - 1, message: "the history could not be saved and read back: \(error)", differences: [], blame: nil)
        }
        if reloaded.steps.map(\.hash) != saved.steps.map(\.hash) || reloaded.steps.map(\.call) != saved.steps.map(\.call) {
            return FuzzFinding(property: .saveAndLoad, stepIndex: stepCount - 1, message: "the saved history reads back differently", differences: [], blame: nil)
        }
        let replayGame: Game
        do {
            replayGame = try reuse(.replay, pack: program.pack, seed: reloaded.seed, options: reloaded.options)
            try reloaded.verify(in: replayGame, restarting: false, source: "(saved history)")
        } catch {
            return FuzzFinding(property: .rewindAndReplay, stepIndex: stepCount - 1, message: "replaying the history from scratch: \(error)", differences: [], blame: nil)
        }
        // The kernel rewound at the end of the run; reported after the
        // save and replay checks, in the order of the properties.
        return rewound
    }

    private func finding(_ property: FuzzFinding.Property, _ index: Int, _ message: String, _ error: RulebenchError) -> FuzzFinding {
        switch error {
        case .undoMismatch(let problems):
            return FuzzFinding(property: property, stepIndex: index, message: "\(message): the undo did not restore the state",
                               differences: problems.flatMap(\.differences),
                               blamed: problems.first.map { Blame(action: $0.action, location: $0.undoFunction, inUndo: true) })
        case .redoMismatch(let mismatch):
            return FuzzFinding(property: property, stepIndex: index, message: mismatch.description, differences: [], blamed: Blame(action: mismatch.action))
        case .script(let failure):
            return FuzzFinding(property: property, stepIndex: index, message: message, differences: [],
                               blamed: Blame(action: failure.action ?? "", location: failure.location))
        case .invariant(let name, _, let location):
            return FuzzFinding(property: property, stepIndex: index, message: message, differences: [],
                               blamed: Blame(action: "invariant \(name)", location: location))
        default:
            return FuzzFinding(property: property, stepIndex: index, message: message, differences: [], blame: nil)
        }
    }
}

private extension Kernel.RunReply {
    /// A resumed run's reply made whole: the first `base` steps' outcomes,
    /// trace, legal calls and plans are those of `earlier`, the run it
    /// resumed from (the same steps, played the same way).
    mutating func resumed(after base: Int, of earlier: Kernel.RunReply, recordsLegal: Bool) {
        outcomes = Array(earlier.outcomes.prefix(base)) + outcomes
        trace = Array(earlier.trace.prefix(base)) + trace
        if recordsLegal { legal = Array(earlier.legal.prefix(base)) + legal }
        plans = earlier.plans.filter { $0.stepIndex < base } + plans
    }
}
