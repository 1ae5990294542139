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
        /// numbers). Nil: a game with no history.
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
        /// The game's history after the run: where it stands, no entries
        /// (the game's view reads them from the kernel when read: `Game.play`).
        var history: History
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
        let reply = try call(.fuzz, [Kernel.requestBytes(request)])
        return try runReply(reply.first ?? [], raw: Array(reply.dropFirst()))
    }

    /// A request as fuzz.lua reads it (`KernelWords.RunField`), written
    /// straight to bytes: no value tree, no key sorting but a call's params'
    /// (Lua makes each params table as it made it from the canonical form),
    /// each step a table made at its size (`Wire.Writer`).
    static func requestBytes(_ request: RunRequest) -> [UInt8] {
        typealias Field = KernelWords.RunField
        var out = Wire.Writer(capacity: 160 + (request.program?.count ?? 0) * 40)
        func field(_ name: Field) { out.key(name.rawValue) }
        out.open()
        field(.seed); out.int(Int64(bitPattern: request.choiceSeed))
        field(.depth); out.int(Int64(request.depth))
        field(.checkLegality); out.bool(request.checkLegality)
        field(.recordLegal); out.bool(request.recordLegal)
        field(.rewindAtEnd); out.bool(request.rewindAtEnd)
        field(.listLegalAtEnd); out.bool(request.listLegalAtEnd)
        if let program = request.program {
            // A resumed run is sent its steps after the shared ones only.
            let skipped = min(request.resume ?? 0, program.count)
            field(.program)
            out.list(count: program.count - skipped)
            for index in skipped..<program.count {
                if let other = request.anyLegalCall, other.index == index {
                    out.table(count: 2)
                    out.key("op"); out.string(KernelWords.StepOp.anyLegalCall.rawValue)
                    out.key("name"); out.string(other.action)
                } else {
                    write(program[index], to: &out)
                }
            }
        }
        if request.favoursRareKinds { field(.favoursRareKinds); out.bool(true) }
        if request.leavesOutKinds { field(.leavesOutKinds); out.bool(true) }
        if let resume = request.resume { field(.resume); out.int(Int64(resume)) }
        if !request.reads.isEmpty {
            field(.reads)
            out.list(count: request.reads.count)
            for path in request.reads { out.encoded(Wire.encode(path)) }
        }
        if let share = request.share {
            field(.share)
            out.table(count: 2)
            out.key("edges"); out.list(count: share.edges.count)
            for edge in share.edges { out.int(Int64(edge)) }
            out.key("kinds"); out.list(count: share.kinds.count * 2)
            for kind in share.kinds { out.int(kind.site); out.int(Int64(kind.plays)) }
        }
        out.close()
        return out.bytes
    }

    /// A program's step, as fuzz.lua reads it: `{ op, name, params }` or `{ op, n }`.
    private static func write(_ step: FuzzStep, to out: inout Wire.Writer) {
        typealias Op = KernelWords.StepOp
        func call(_ op: Op, _ call: ActionCall) {
            out.table(count: 3)
            out.key("op"); out.string(op.rawValue)
            out.key("name"); out.string(call.name)
            // The canonical form, keys in its order: Lua inserts them as it
            // did from `Wire.encode`, so the table (and `pairs` over it) is the same.
            out.key("params"); out.value(call.params)
        }
        func count(_ op: Op, _ n: Int) {
            out.table(count: 2)
            out.key("op"); out.string(op.rawValue)
            out.key("n"); out.int(Int64(n))
        }
        switch step {
        case .perform(let c): call(.perform, c)
        case .attempt(let c): call(.attempt, c)
        case .undo(let n): count(.undo, n)
        case .redo(let n): count(.redo, n)
        case .undoTurn: out.table(count: 1); out.key("op"); out.string(Op.undoTurn.rawValue)
        case .undoLastTurn: out.table(count: 1); out.key("op"); out.string(Op.undoLastTurn.rawValue)
        }
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

    /// A run's reply: the record, read as its bytes come (`KernelStream`:
    /// no value tree for the outcomes, trace and plans), and the plans sent
    /// as results of their own (`raw`, referred to by position from the record).
    func runReply(_ bytes: [UInt8], raw: [[UInt8]]) throws(RulebenchError) -> RunReply {
        try KernelStream.read(.fuzz, bytes) { (stream: inout KernelStream) throws(RulebenchError) -> RunReply in
            var result = RunReply(history: History(initialHash: StateHash(hex: ""), kernel: nil))
            var history: KernelReply?, valid: Bool?, fresh: Int?
            var outcomes: [FuzzExecutor.Outcome]?, trace: [StateHash]?, plans: [PlanSighting]?, novel: [Int]?
            try stream.enter("")
            while let key = try stream.nextKey("") {
                if stream.is(key, "outcomes") {
                    outcomes = try self.outcomes(&stream)
                } else if stream.is(key, "trace") {
                    var hashes: [StateHash] = []
                    try stream.enter("trace")
                    while try stream.nextItem("trace") { hashes.append(try stream.hash("trace.\(hashes.count + 1)")) }
                    trace = hashes
                } else if stream.is(key, "plans") {
                    plans = try Kernel.plans(&stream, raw: raw)
                } else if stream.is(key, "steps") {
                    result.steps = try Kernel.steps(&stream)
                } else if stream.is(key, "novel") {
                    var steps: [Int] = []
                    try stream.enter("novel")
                    while try stream.nextItem("novel") { steps.append(try stream.int("novel.\(steps.count + 1)") - 1) }
                    novel = steps
                } else if stream.is(key, "valid") {
                    valid = try stream.bool("valid")
                } else if stream.is(key, "fresh") {
                    fresh = try stream.int("fresh")
                } else if stream.is(key, "history") {
                    history = try stream.reply("history")
                } else if stream.is(key, "legal") {
                    var lists: [[ActionCall]] = []
                    try stream.enter("legal")
                    while try stream.nextItem("legal") { lists.append(try Kernel.calls(&stream, "legal.\(lists.count + 1)")) }
                    result.legal = lists
                } else if stream.is(key, "offered") {
                    result.offered = try Kernel.calls(&stream, "offered")
                } else if stream.is(key, "finding") {
                    result.finding = try finding(stream.reply("finding"))
                } else if stream.is(key, "rewound") {
                    result.rewound = try finding(stream.reply("rewound"))
                } else if stream.is(key, "found") {
                    result.found = try discoveries(stream.reply("found"))
                } else {
                    let name = stream.text(key)
                    try stream.skip(name)
                }
            }
            func missing(_ name: String) -> RulebenchError { Kernel.replyMismatch(.fuzz, name, "nothing") }
            guard let history else { throw missing("history") }
            guard let outcomes else { throw missing("outcomes") }
            guard let trace else { throw missing("trace") }
            guard let plans else { throw missing("plans") }
            guard let novel else { throw missing("novel") }
            guard let valid else { throw missing("valid") }
            guard let fresh else { throw missing("fresh") }
            (result.outcomes, result.trace, result.plans, result.novelSteps, result.valid, result.newEdges) = (outcomes, trace, plans, novel, valid, fresh)
            // Where the history stands; its entries are read from the
            // kernel when read (the game's view), never carried here.
            result.history.initialHash = try history.field("initial").hash()
            let position = try Kernel.position(history)
            result.history.view.move(to: position, current: position.cursor > 0 ? try history.field("current").hash() : nil)
            return result
        }
    }

    /// A run's `outcomes`: `{ kind, hash | reason | n | failure }` each.
    private func outcomes(_ stream: inout KernelStream) throws(RulebenchError) -> [FuzzExecutor.Outcome] {
        var list: [FuzzExecutor.Outcome] = []
        try stream.enter("outcomes")
        while try stream.nextItem("outcomes") {
            let at = list.count + 1
            var kind: KernelWords.Outcome?, hash: StateHash?, reason: String?, n: Int?, failure: KernelReply?
            try stream.enter("outcomes.\(at)")
            while let key = try stream.nextKey("outcomes.\(at)") {
                if stream.is(key, "kind") { kind = try stream.word(KernelWords.Outcome.self, "outcomes.\(at).kind") }
                else if stream.is(key, "hash") { hash = try stream.hash("outcomes.\(at).hash") }
                else if stream.is(key, "reason") { reason = try stream.string("outcomes.\(at).reason") }
                else if stream.is(key, "n") { n = try stream.int("outcomes.\(at).n") }
                else if stream.is(key, "failure") { failure = try stream.reply("outcomes.\(at).failure") }
                else { try stream.skip("outcomes.\(at)") }
            }
            func missing(_ name: String) -> RulebenchError { Kernel.replyMismatch(.fuzz, "outcomes.\(at).\(name)", "nothing") }
            switch kind {
            case .performed?: guard let hash else { throw missing("hash") }; list.append(.performed(hash))
            case .rejected?: guard let reason else { throw missing("reason") }; list.append(.rejected(reason))
            case .undone?: guard let n else { throw missing("n") }; list.append(.undone(n))
            case .redone?: guard let n else { throw missing("n") }; list.append(.redone(n))
            case .failed?: guard let failure else { throw missing("failure") }; list.append(.failed("\(try error(failure))"))
            case nil: throw missing("kind")
            }
        }
        return list
    }

    /// A run's `plans`: `{ step, id, plan }` each, the plan a result's position (new plans only).
    private static func plans(_ stream: inout KernelStream, raw: [[UInt8]]) throws(RulebenchError) -> [PlanSighting] {
        var list: [PlanSighting] = []
        try stream.enter("plans")
        while try stream.nextItem("plans") {
            let at = list.count + 1
            var step: Int?, id: Int?, plan: [UInt8]?
            try stream.enter("plans.\(at)")
            while let key = try stream.nextKey("plans.\(at)") {
                if stream.is(key, "step") { step = try stream.int("plans.\(at).step") }
                else if stream.is(key, "id") { id = try stream.int("plans.\(at).id") }
                else if stream.is(key, "plan") {
                    let n = try stream.int("plans.\(at).plan")
                    guard n >= 1, n <= raw.count else { throw Kernel.replyMismatch(.fuzz, "plans.\(at).plan", "\(n), not a result's position") }
                    plan = raw[n - 1]
                } else { try stream.skip("plans.\(at)") }
            }
            guard let step else { throw Kernel.replyMismatch(.fuzz, "plans.\(at).step", "nothing") }
            guard let id else { throw Kernel.replyMismatch(.fuzz, "plans.\(at).id", "nothing") }
            list.append(PlanSighting(stepIndex: step - 1, id: id, plan: plan))
        }
        return list
    }

    /// A generated run's `steps`: `{ op, name, params }` or `{ op, n }` each.
    /// A list of calls ({ name, params }) read as it comes, with no tree
    /// of the list made: a shrink candidate's offered calls, a run's
    /// legal calls before each step.
    private static func calls(_ stream: inout KernelStream, _ path: String) throws(RulebenchError) -> [ActionCall] {
        var list: [ActionCall] = []
        try stream.enter(path)
        while try stream.nextItem(path) {
            // Named only in an error: an offered list is read for every illegal candidate.
            let index = list.count + 1
            func at() -> String { "\(path).\(index)" }
            var name: String?, params: [String: StateValue] = [:]
            try stream.enter(at())
            while let key = try stream.nextKey(at()) {
                if stream.is(key, "name") { name = try stream.string("\(at()).name") }
                else if stream.is(key, "params") { params = try stream.params("\(at()).params") }
                else { try stream.skip(at()) }
            }
            guard let name else { throw Kernel.replyMismatch(.fuzz, "\(at()).name", "nothing") }
            list.append(ActionCall(name, params))
        }
        return list
    }

    private static func steps(_ stream: inout KernelStream) throws(RulebenchError) -> [FuzzStep] {
        typealias Op = KernelWords.StepOp
        var list: [FuzzStep] = []
        try stream.enter("steps")
        while try stream.nextItem("steps") {
            let at = list.count + 1
            var op: Op?, name: String?, params: [String: StateValue] = [:], n: Int?
            try stream.enter("steps.\(at)")
            while let key = try stream.nextKey("steps.\(at)") {
                if stream.is(key, "op") { op = try stream.word(Op.self, "steps.\(at).op") }
                else if stream.is(key, "name") { name = try stream.string("steps.\(at).name") }
                else if stream.is(key, "params") { params = try stream.params("steps.\(at).params") }
                else if stream.is(key, "n") { n = try stream.int("steps.\(at).n") }
                else { try stream.skip("steps.\(at)") }
            }
            func missing(_ field: String) -> RulebenchError { Kernel.replyMismatch(.fuzz, "steps.\(at).\(field)", "nothing") }
            func call() throws(RulebenchError) -> ActionCall {
                guard let name else { throw missing("name") }
                return ActionCall(name, params)
            }
            func count() throws(RulebenchError) -> Int {
                guard let n else { throw missing("n") }
                return n
            }
            switch op {
            case .perform?: list.append(.perform(try call()))
            case .attempt?: list.append(.attempt(try call()))
            case .undo?: list.append(.undo(try count()))
            case .redo?: list.append(.redo(try count()))
            case .undoTurn?: list.append(.undoTurn)
            case .undoLastTurn?: list.append(.undoLastTurn)
            case .anyLegalCall?: throw Kernel.replyMismatch(.fuzz, "steps.\(at).op", "'any', which only a request carries")
            case nil: throw missing("op")
            }
        }
        return list
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
