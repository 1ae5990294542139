/// The typed face of the fuzzer's step loop (`Kernel/fuzz.lua`): one
/// crossing plays a whole run, checking every step, and comes back with
/// what happened.
extension Kernel {
    /// What a run is asked to play.
    struct RunRequest {
        /// The steps to play first; nil to choose every step from `choiceSeed`.
        var program: [FuzzStep]?
        /// The seed of the step generator.
        var choiceSeed: UInt64 = 0
        /// Steps in all: after the program's, the rest are chosen.
        var depth = 0
        /// The program's step at this index becomes a random legal call of
        /// this action (the guided search's "same action, other params").
        var anyLegalCall: (index: Int, action: String)?
        /// Chosen steps favour the kinds of move played least so far in
        /// the session (see `Kernel/fuzz.lua`, "rare kinds first"): the
        /// guided search's runs. Works with coverage off (kinds come from
        /// the Lua stack, not the line hook).
        var favoursRareKinds = false
        /// With `favoursRareKinds`: each kind played earlier in the session
        /// is left out of this run with even odds, unless nothing else is
        /// legal (the guided search's swarm runs; see `Kernel/fuzz.lua`).
        var leavesOutKinds = false
        /// Count lines and edges of rule code in this run (nil: as the game
        /// was configured). The guided search covers only the runs whose
        /// edges it uses: the line hook costs 1.6x-2.5x a step.
        var collectsCoverage: Bool?
        /// Stop, marking the run invalid, at a `perform` step that `legal` did not emit.
        var checkLegality = false
        /// Return the legal calls offered before each step.
        var recordLegal = false
        /// Rewind the whole history at the end and compare with the state after setup.
        var rewindAtEnd = false
        /// List the legal actions after the last step (a finding when `legal`
        /// raises there): how a finding of that kind is reproduced.
        var listLegalAtEnd = false
        /// On a worker of a parallel guided session: what the other workers
        /// found since this one last heard (their edges are not new here,
        /// their plays count); the reply then says what this run found
        /// (`RunReply.found`). Nil alone.
        var share: Discoveries?
        /// Start where the last run of this game stood after its first
        /// `resume` steps (the same as this program's), rewound there with
        /// the strict undo, rather than from a game just set up: the
        /// shrinker's candidates. Only the program's steps after those are
        /// sent, and the reply answers for those only (their outcomes,
        /// trace and legal calls; plans and findings keep their step
        /// numbers), its history where it stands without the entries
        /// (`RunReply.carriesEntries`). Nil: a game with no history.
        var resume: Int?
        /// The slots the pack's story sequences read (`SequenceProbe`): the
        /// state after setup and after every step that performs must hold
        /// each (an undo or a redo goes back to a state already checked),
        /// or the run stops with a `sequenceTextsRead` finding naming the
        /// first missing one by its index here (`RunProblem.missingSlot`).
        var reads: [StatePath] = []
    }

    /// What went wrong at a step, as the kernel saw it.
    enum RunProblem {
        /// An operation failed with this error.
        case error(RulebenchError)
        /// An undo took effect but did not restore these slots.
        case undoMismatch([UndoProblem])
        /// A redo differed from the original.
        case redoMismatch(RedoMismatch)
        /// Rewinding reached a state whose hash is not the one after setup.
        case rewoundTo(actual: StateHash, expected: StateHash)
        /// A no-leak probe: what is hidden from the seat was rearranged,
        /// and what it is shown changed.
        case leak(SeatLeak)
        /// A story sequence reads `RunRequest.reads[index]`, which the state lacks.
        case missingSlot(index: Int)
    }

    /// A failed check of a run.
    struct RunFinding {
        /// The property that failed.
        let property: FuzzFinding.Property
        /// The step (0-based) it failed at.
        let stepIndex: Int
        /// What the step was doing: "failed", "after", "emitted", "legal",
        /// "undo", "turn", "lastturn", "redo", "rewind" or "rewound".
        let during: StepActivity
        /// The call concerned, when there is one.
        let call: ActionCall?
        let problem: RunProblem
        /// Of the end-of-run rewind's findings, how many undos it ran, the failing one included.
        var rewindUndos: Int? = nil
    }

    /// A performed action's plan, by the kernel's id for it; the plan's
    /// bytes come only the first time the kernel sees that plan.
    struct PlanSighting {
        let stepIndex: Int
        let id: Int
        let plan: [UInt8]?
    }

    /// Everything a run did.
    struct RunReply {
        /// The steps chosen (generated runs) or nil (programs).
        var steps: [FuzzStep]?
        var outcomes: [FuzzExecutor.Outcome] = []
        /// The state hash after each step that completed.
        var trace: [StateHash] = []
        var legal: [[ActionCall]] = []
        /// False when a `perform` step was not legal (with `checkLegality`).
        var valid = true
        /// When it was not: the legal calls at that step.
        var offered: [ActionCall]?
        var finding: RunFinding?
        /// The end-of-run rewind's finding.
        var rewound: RunFinding?
        var plans: [PlanSighting] = []
        /// The game's history after the run: where it stands, and its
        /// entries when `carriesEntries`.
        var history: History
        /// Whether `history` holds every entry: a run from a game just set
        /// up. A resumed run's reply leaves them out: the game's view keeps
        /// those it read and reads the rest from the kernel (`Game.play`).
        var carriesEntries = true
        /// Line-to-line edges of rule code no earlier run of this game's
        /// Lua state reached (0 unless it collects coverage).
        var newEdges = 0
        /// The steps (0-based) at which the run reached edges first (the
        /// step itself, or the legal enumeration just before it).
        var novelSteps: [Int] = []
        /// What this Lua state found, for the other workers (with `RunRequest.share`).
        var found: Discoveries?
    }

    /// Plays a run in the current game, which must have no history yet.
    func run(_ request: RunRequest) throws(RulebenchError) -> RunReply {
        if let on = request.collectsCoverage { try call(.coverage, [on ? coverageMode : "0"]) }
        let reply = try call(.fuzz, [Wire.encode(Kernel.fields(request))])
        return try runReply(KernelReply(.fuzz, reply.first ?? []), raw: Array(reply.dropFirst()))
    }

    /// A request as fuzz.lua reads it (`KernelWords.RunField`).
    private static func fields(_ request: RunRequest) -> StateValue {
        typealias Field = KernelWords.RunField
        var fields: [StateKey: StateValue] = [
            .string(Field.seed.rawValue): .int(Int64(bitPattern: request.choiceSeed)),
            .string(Field.depth.rawValue): .int(Int64(request.depth)),
            .string(Field.checkLegality.rawValue): .bool(request.checkLegality),
            .string(Field.recordLegal.rawValue): .bool(request.recordLegal),
            .string(Field.rewindAtEnd.rawValue): .bool(request.rewindAtEnd),
            .string(Field.listLegalAtEnd.rawValue): .bool(request.listLegalAtEnd),
        ]
        if let program = request.program {
            // A resumed run is sent its steps after the shared ones only.
            let skipped = min(request.resume ?? 0, program.count)
            var steps = program[skipped...].map(Kernel.encode)
            if let other = request.anyLegalCall, steps.indices.contains(other.index - skipped) {
                steps[other.index - skipped] = .table([.string("op"): .string(KernelWords.StepOp.anyLegalCall.rawValue),
                                             .string("name"): .string(other.action)])
            }
            fields[.string(Field.program.rawValue)] = .list(steps)
        }
        if request.favoursRareKinds { fields[.string(Field.favoursRareKinds.rawValue)] = .bool(true) }
        if request.leavesOutKinds { fields[.string(Field.leavesOutKinds.rawValue)] = .bool(true) }
        if let resume = request.resume { fields[.string(Field.resume.rawValue)] = .int(Int64(resume)) }
        if !request.reads.isEmpty {
            fields[.string(Field.reads.rawValue)] = .list(request.reads.map { path in
                .list(path.keys.map { key in
                    switch key {
                    case .int(let n): return .int(n)
                    case .string(let text): return .string(text)
                    }
                })
            })
        }
        if let share = request.share {
            fields[.string(Field.share.rawValue)] = .table([
                .string("edges"): .list(share.edges.map { .int(Int64($0)) }),
                .string("kinds"): .list(share.kinds.flatMap { [StateValue.int($0.site), .int(Int64($0.plays))] }),
            ])
        }
        return .table(fields)
    }

    /// What a run of a parallel guided session's worker found (fuzz.lua's `found`).
    private func discoveries(_ value: KernelReply) throws(RulebenchError) -> Discoveries {
        func ints(_ name: String) throws(RulebenchError) -> [Int] {
            try value.field(name).list().map { item throws(RulebenchError) in try item.int() }
        }
        let flat = try ints("kinds")
        let kinds = stride(from: 0, to: flat.count - 1, by: 2).map { Discoveries.KindPlays(site: Int64(flat[$0]), plays: flat[$0 + 1]) }
        return Discoveries(edges: try ints("edges"), earlier: try ints("before"), kinds: kinds)
    }

    /// A run's reply: the record, and the trees and plans sent as results
    /// of their own (`raw`, referred to by position from the record).
    private func runReply(_ value: KernelReply, raw: [[UInt8]]) throws(RulebenchError) -> RunReply {
        func bytes(_ field: KernelReply?) throws(RulebenchError) -> [UInt8]? {
            guard let field else { return nil }
            return try Kernel.result(field, in: raw)
        }
        let history = try value.field("history")
        var result = RunReply(history: History(initialHash: try history.field("initial").hash(), kernel: nil))
        result.steps = try value.optional("steps")?.list().map { step throws(RulebenchError) in try Kernel.step(step) }
        result.outcomes = try value.field("outcomes").list().map { item throws(RulebenchError) in try outcome(item) }
        result.trace = try value.field("trace").list().map { item throws(RulebenchError) in try item.hash() }
        result.legal = try value.optional("legal")?.list().map { offered throws(RulebenchError) in try Kernel.calls(offered) } ?? []
        result.valid = try value.bool("valid")
        result.offered = try value.optional("offered").map { offered throws(RulebenchError) in try Kernel.calls(offered) }
        result.finding = try value.optional("finding").map { item throws(RulebenchError) in try finding(item) }
        result.rewound = try value.optional("rewound").map { item throws(RulebenchError) in try finding(item) }
        result.plans = try value.field("plans").list().map { item throws(RulebenchError) in
            PlanSighting(stepIndex: try item.int("step") - 1, id: try item.int("id"), plan: try bytes(item.optional("plan")))
        }
        if let sent = history.optional("entries") {
            let entries = try sent.list().map { entry throws(RulebenchError) in
                HistoryEntry(call: try entry.call(), hash: try entry.field("hash").hash(),
                             isCheckpoint: try entry.optional("checkpoint")?.bool() ?? false,
                             tree: try bytes(entry.field("tree")) ?? [], plan: try bytes(entry.field("plan")) ?? [])
            }
            result.history.view.keep(entries, at: try Kernel.position(history))
        } else {
            result.history.view.move(to: try Kernel.position(history), current: nil)
            result.carriesEntries = false
        }
        result.newEdges = try value.int("fresh")
        result.novelSteps = try value.field("novel").list().map { item throws(RulebenchError) in try item.int() - 1 }
        result.found = try value.optional("found").map { item throws(RulebenchError) in try discoveries(item) }
        return result
    }

    /// The first step of a replay that did not give its saved hash.
    enum ReplayMismatch {
        /// Step `index` (0-based) failed.
        case failed(index: Int, error: RulebenchError)
        /// Step `index` gave another hash.
        case hash(index: Int, actual: StateHash)
    }

    /// Performs `steps` from the current state (a game with no history),
    /// comparing each hash with the saved one, then rolls everything back:
    /// one crossing, and the game is as it was. Nil when every hash matched.
    func replay(_ steps: [(call: ActionCall, hash: StateHash)]) throws(RulebenchError) -> ReplayMismatch? {
        let list = StateValue.list(steps.map { step in
            var params: [StateKey: StateValue] = [:]
            for (key, value) in step.call.params { params[.string(key)] = value }
            return .table([.string("name"): .string(step.call.name), .string("params"): .table(params),
                           .string("hash"): .string(step.hash.hex)])
        })
        let reply = try call(.replay, [Wire.encode(list)])
        // "" when every hash matched, else the record of the first step that did not.
        guard let bytes = reply.first, !bytes.isEmpty else { return nil }
        let value = try KernelReply(.replay, bytes)
        let index = try value.int("step") - 1
        if let failure = value.optional("failure") { return .failed(index: index, error: try error(failure)) }
        return .hash(index: index, actual: try value.field("hash").hash())
    }

    // MARK: Decoding

    private static func encode(_ step: FuzzStep) -> StateValue {
        typealias Op = KernelWords.StepOp
        func call(_ op: Op, _ call: ActionCall) -> StateValue {
            var params: [StateKey: StateValue] = [:]
            for (key, value) in call.params { params[.string(key)] = value }
            return .table([.string("op"): .string(op.rawValue), .string("name"): .string(call.name), .string("params"): .table(params)])
        }
        func count(_ op: Op, _ n: Int) -> StateValue {
            .table([.string("op"): .string(op.rawValue), .string("n"): .int(Int64(n))])
        }
        switch step {
        case .perform(let c): return call(.perform, c)
        case .attempt(let c): return call(.attempt, c)
        case .undo(let n): return count(.undo, n)
        case .redo(let n): return count(.redo, n)
        case .undoTurn: return .table([.string("op"): .string(Op.undoTurn.rawValue)])
        case .undoLastTurn: return .table([.string("op"): .string(Op.undoLastTurn.rawValue)])
        }
    }

    private static func step(_ value: KernelReply) throws(RulebenchError) -> FuzzStep {
        switch try value.field("op").decode(KernelWords.StepOp.self) {
        case .perform: return .perform(try value.call())
        case .attempt: return .attempt(try value.call())
        case .undo: return .undo(try value.int("n"))
        case .redo: return .redo(try value.int("n"))
        case .undoTurn: return .undoTurn
        case .undoLastTurn: return .undoLastTurn
        case .anyLegalCall: throw Kernel.replyMismatch(value.entry, value.path + ".op", "'any', which only a request carries")
        }
    }

    private func outcome(_ value: KernelReply) throws(RulebenchError) -> FuzzExecutor.Outcome {
        switch try value.field("kind").decode(KernelWords.Outcome.self) {
        case .performed: return .performed(try value.field("hash").hash())
        case .rejected: return .rejected(try value.string("reason"))
        case .undone: return .undone(try value.int("n"))
        case .redone: return .redone(try value.int("n"))
        case .failed: return .failed("\(try error(value.field("failure")))")
        }
    }

    /// The error a failure record describes, as `call` would have thrown it
    /// (a fuzz run's step, a step of `travel`).
    func error(_ value: KernelReply) throws(RulebenchError) -> RulebenchError {
        let cause: LuaFailure.Cause
        switch try value.field("cause").decode(KernelWords.Cause.self) {
        case .budget: cause = .instructionBudget
        case .memory: cause = .memoryCap
        case .error: cause = .error
        }
        var fields: [String: String] = [:]
        for entry in try value.optional("fields")?.entries() ?? [] {
            switch entry.value.value {
            case .string(let text): fields[entry.key.description] = text
            case .int(let n): fields[entry.key.description] = String(n)
            default: throw Kernel.replyMismatch(.fuzz, entry.value.path, "\(entry.value.value), not text or an integer")
            }
        }
        let failure = LuaFailure(cause: cause, text: try value.optionalString("text") ?? "", fields: fields)
        return rulebenchError(failure, action: try value.optionalString("action"), phase: try value.optionalString("phase"))
    }

    private func finding(_ value: KernelReply) throws(RulebenchError) -> RunFinding {
        let problem: RunProblem
        if let mismatch = value.optional("mismatch") {
            problem = .redoMismatch(try Kernel.redoMismatch(mismatch))
        } else if let problems = value.optional("problems") {
            problem = .undoMismatch(try Kernel.problems(problems))
        } else if let failure = value.optional("failure") {
            problem = .error(try error(failure))
        } else if let read = try value.optionalInt("read") {
            problem = .missingSlot(index: read - 1)
        } else if let seat = value.optional("seat") {
            problem = .leak(SeatLeak(seat: try seat.string(), shown: try value.field("shown").decode(SeatLeak.Shown.self),
                                     slots: try value.field("slots").list().map { item throws(RulebenchError) in try item.string() },
                                     line: try value.optionalString("line")))
        } else {
            problem = .rewoundTo(actual: try value.field("actual").hash(), expected: try value.field("expected").hash())
        }
        let word = try value.field("property").string()
        guard let property = FuzzFinding.Property.allCases.first(where: { $0.word == word }) else {
            throw Kernel.replyMismatch(.fuzz, "finding.property", "'\(word)', which this side does not know")
        }
        // The end-of-run rewind's finding belongs to no step: its index is -1.
        let step = try value.optional("step")?.int() ?? 0
        return RunFinding(property: property, stepIndex: step - 1, during: try value.field("what").decode(StepActivity.self),
                          call: try value.optional("call").map { call throws(RulebenchError) in try call.call() },
                          problem: problem, rewindUndos: try value.optionalInt("undos"))
    }
}

extension Kernel {
    /// What a step of the kernel's loop was doing when a check failed (the
    /// kernel's word for it, `RunFinding.during`).
    enum StepActivity: String, CaseIterable {
        /// A performed action failed, and its rollback left the state changed.
        case failed
        /// The checks after a perform (invariants, the animation).
        case after
        /// A seat's view changed with its secrets alone, before a step is
        /// chosen (the no-leak probe; after a step it is `after`).
        case before
        /// An action `legal` emitted failed.
        case emitted
        /// Listing the legal actions failed.
        case legal
        /// An undo of one step, an undo to the last checkpoint, a redo.
        case undo, turn, redo
        /// A take-back of the last turn (`undo: last turn`).
        case lastTurn = "lastturn"
        /// The end of the run: rewinding the whole history, and its result.
        case rewind, rewound

        /// How a report names a step that undid a whole turn; nil for the others.
        var turnStep: String? {
            switch self {
            case .turn: return "undo turn"
            case .lastTurn: return "undo last turn"
            default: return nil
            }
        }
    }
}
