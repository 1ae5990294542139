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
        var otherParams: (index: Int, action: String)?
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
    }

    /// A failed check of a run.
    struct RunFinding {
        /// The property that failed.
        let property: FuzzFinding.Property
        /// The step (0-based) it failed at.
        let stepIndex: Int
        /// What the step was doing: "failed", "after", "emitted", "legal",
        /// "undo", "turn", "lastturn", "redo", "rewind" or "rewound".
        let during: String
        /// The call concerned, when there is one.
        let call: ActionCall?
        let problem: RunProblem
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
        var finding: RunFinding?
        /// The end-of-run rewind's finding.
        var rewound: RunFinding?
        var plans: [PlanSighting] = []
        /// The game's history after the run.
        var history: History
        /// Line-to-line edges of rule code no earlier run of this game's
        /// Lua state reached (0 unless it collects coverage).
        var newEdges = 0
        /// The steps (0-based) at which the run reached edges first (the
        /// step itself, or the legal enumeration just before it).
        var novelSteps: [Int] = []
    }

    /// Plays a run in the current game, which must have no history yet.
    func run(_ request: RunRequest) throws(RulebenchError) -> RunReply {
        var fields: [String: StateValue] = [
            "choices": .int(Int64(bitPattern: request.choiceSeed)),
            "depth": .int(Int64(request.depth)),
            "checklegal": .bool(request.checkLegality),
            "recordlegal": .bool(request.recordLegal),
            "final": .bool(request.rewindAtEnd),
            "listlegal": .bool(request.listLegalAtEnd),
        ]
        if let program = request.program {
            var steps = program.map(Kernel.encode)
            if let other = request.otherParams, steps.indices.contains(other.index) {
                steps[other.index] = .table([.string("op"): .string("any"), .string("name"): .string(other.action)])
            }
            fields["program"] = .list(steps)
        }
        if request.favoursRareKinds { fields["rare"] = .bool(true) }
        if request.leavesOutKinds { fields["leaveout"] = .bool(true) }
        if let on = request.collectsCoverage { try engine("coverage", [on ? coverageMode : "0"]) }
        let reply = try user("fuzz", [Wire.encode(fields)])
        let raw = Array(reply.dropFirst())
        func bytes(_ value: StateValue?) -> [UInt8]? {
            guard case .int(let n)? = value, n >= 1, Int(n) <= raw.count else { return nil }
            return raw[Int(n) - 1]
        }
        let value = decode(reply.first)
        var result = RunReply(history: History(initialHash: hash(value?["history"]?["initial"])))
        result.steps = value?["steps"]?.listItems?.map(Kernel.step)
        result.outcomes = (value?["outcomes"]?.listItems ?? []).map(outcome)
        result.trace = (value?["trace"]?.listItems ?? []).map { hash($0) }
        result.legal = (value?["legal"]?.listItems ?? []).map { ($0.listItems ?? []).map(Kernel.call) }
        result.valid = value?["valid"] != .bool(false)
        result.finding = value?["finding"].map(finding)
        result.rewound = value?["rewound"].map(finding)
        result.plans = (value?["plans"]?.listItems ?? []).map {
            PlanSighting(stepIndex: Kernel.int($0["step"]) - 1, id: Kernel.int($0["id"]), plan: bytes($0["plan"]))
        }
        let history = value?["history"]
        result.history.entries = (history?["entries"]?.listItems ?? []).map { entry in
            let call = Kernel.call(entry)
            return HistoryEntry(call: call, hash: hash(entry["hash"]), isCheckpoint: entry["checkpoint"] == .bool(true),
                                tree: bytes(entry["tree"]) ?? [], plan: bytes(entry["plan"]) ?? [])
        }
        result.history.cursor = Kernel.int(history?["cursor"])
        result.newEdges = Kernel.int(value?["fresh"])
        result.novelSteps = (value?["novel"]?.listItems ?? []).map { Kernel.int($0) - 1 }
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
        let reply = try user("replay", [Wire.encode(list)])
        guard let value = decode(reply.first), case .table = value else { return nil }
        let index = Kernel.int(value["step"]) - 1
        if value["failure"] != nil { return .failed(index: index, error: error(value["failure"])) }
        return .hash(index: index, actual: hash(value["hash"]))
    }

    // MARK: Decoding

    private static func encode(_ step: FuzzStep) -> StateValue {
        func call(_ op: String, _ call: ActionCall) -> StateValue {
            var params: [StateKey: StateValue] = [:]
            for (key, value) in call.params { params[.string(key)] = value }
            return .table([.string("op"): .string(op), .string("name"): .string(call.name), .string("params"): .table(params)])
        }
        func count(_ op: String, _ n: Int) -> StateValue {
            .table([.string("op"): .string(op), .string("n"): .int(Int64(n))])
        }
        switch step {
        case .perform(let c): return call("do", c)
        case .attempt(let c): return call("try", c)
        case .undo(let n): return count("undo", n)
        case .redo(let n): return count("redo", n)
        case .undoTurn: return .table([.string("op"): .string("turn")])
        case .undoLastTurn: return .table([.string("op"): .string("lastturn")])
        }
    }

    private static func step(_ value: StateValue) -> FuzzStep {
        let n = int(value["n"])
        switch value["op"]?.stringValue {
        case "do": return .perform(call(value))
        case "try": return .attempt(call(value))
        case "undo": return .undo(n)
        case "redo": return .redo(n)
        case "lastturn": return .undoLastTurn
        default: return .undoTurn
        }
    }

    private static func call(_ value: StateValue) -> ActionCall {
        ActionCall(value["name"]?.stringValue ?? "", ActionCall.params(from: value["params"]))
    }

    private static func int(_ value: StateValue?) -> Int {
        if case .int(let n)? = value { return Int(n) }
        return 0
    }

    private func hash(_ value: StateValue?) -> StateHash {
        StateHash(hex: value?.stringValue ?? "")
    }

    private func outcome(_ value: StateValue) -> FuzzExecutor.Outcome {
        switch value["kind"]?.stringValue {
        case "performed": return .performed(hash(value["hash"]))
        case "rejected": return .rejected(value["reason"]?.stringValue ?? "")
        case "undone": return .undone(Kernel.int(value["n"]))
        case "redone": return .redone(Kernel.int(value["n"]))
        default: return .failed("\(error(value["failure"]))")
        }
    }

    /// The error a failure record describes, as `user` would have thrown it.
    private func error(_ value: StateValue?) -> RulebenchError {
        let cause: LuaFailure.Cause
        switch value?["cause"]?.stringValue {
        case "budget": cause = .instructionBudget
        case "memory": cause = .memoryCap
        default: cause = .error
        }
        var fields: [String: String] = [:]
        for entry in value?["fields"]?.sortedEntries ?? [] {
            switch entry.value {
            case .string(let text): fields[entry.key.description] = text
            case .int(let n): fields[entry.key.description] = String(n)
            default: break
            }
        }
        let failure = LuaFailure(cause: cause, text: value?["text"]?.stringValue ?? "", fields: fields)
        return rulebenchError(failure, action: value?["action"]?.stringValue, phase: value?["phase"]?.stringValue)
    }

    private func finding(_ value: StateValue) -> RunFinding {
        let problem: RunProblem
        if let mismatch = value["mismatch"] {
            func shown(_ v: StateValue?) -> String {
                if case .string(let text)? = v { return text }
                return v?.description ?? "nil"
            }
            problem = .redoMismatch(RedoMismatch(what: mismatch["what"]?.stringValue ?? "?", action: mismatch["action"]?.stringValue ?? "?",
                                                 expected: shown(mismatch["expected"]), actual: shown(mismatch["actual"])))
        } else if let problems = value["problems"] {
            problem = .undoMismatch(Kernel.problems(problems))
        } else if value["failure"] != nil {
            problem = .error(error(value["failure"]))
        } else {
            problem = .rewoundTo(actual: hash(value["actual"]), expected: hash(value["expected"]))
        }
        let property = FuzzFinding.Property.allCases.first { "\($0)" == value["property"]?.stringValue } ?? .undoRestores
        return RunFinding(property: property, stepIndex: Kernel.int(value["step"]) - 1,
                          during: value["what"]?.stringValue ?? "", call: value["call"].map(Kernel.call), problem: problem)
    }
}
