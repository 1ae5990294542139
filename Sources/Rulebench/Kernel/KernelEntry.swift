/// The kernel's entry points: every function of the kernel's `API` table
/// (`Sources/Rulebench/Kernel/*.lua`) that Swift calls, named once.
///
/// Each entry carries the three things a call needs: the Lua function's
/// name (the raw value), how the call is accounted (`mode`), and what the
/// watchdog may do when it runs long (`restart`, handed to C with every
/// call). Nothing else names a kernel function: `Kernel` calls through an
/// entry, and `KernelLuaTests` checks, in Lua, that every entry is a
/// function the kernel defines and that its abort function exists.
enum KernelEntry: String, CaseIterable {
    // Loading packs (packload.lua)
    case definePack = "definepack", addAction = "addaction", linkBase = "linkbase"
    case finishPack = "finishpack", paramProblem = "paramproblem"
    // Operations on the game (engine.lua)
    case newGame = "newgame", restart, abort, legal, invariants, render, generate
    // The game's history: Game's operations on it (history.lua)
    case perform, redo, undo, travel, position, entries
    case hash, get, set, gc, configure, goal, goalEstimate = "goalestimate"
    // Walks and loops inside the kernel (explore.lua, solve.lua, unique.lua, fuzz.lua)
    case explore, explored
    case solveBegin = "solvebegin", solveStep = "solvestep", solveLine = "solveline"
    case solveProbe = "solveprobe", solveEnd = "solveend"
    case solveSnap = "solvesnap", solveChildren = "solvechildren", solveFailed = "solvefailed", solveReplay = "solvereplay"
    case uniqueBegin = "uniquebegin", uniqueStep = "uniquestep", uniqueLine = "uniqueline", uniqueEnd = "uniqueend"
    case uniqueChildren = "uniquechildren"
    case valueBegin = "valuebegin", valueMove = "valuemove", valueLine = "valueline", valueFailed = "valuefailed"
    case valueEnd = "valueend", valueResult = "valueresult"
    case fuzz, fuzzAbort = "fuzzabort", replay, replayAbort = "replayabort"
    // Coverage, identity and development aids
    case coverage, coverageReport = "coveragereport", hashOrder = "hashorder", profile, selfTest = "selftest"
    // A pack's view (view.lua)
    case scene, viewPlaces = "viewplaces"
    // Seats and secrets (seats.lua)
    case seats, performAs = "performas", legalAs = "legalas", legalBySeat = "legalbyseat", refusal, seatView = "seatview"
    case viewHash = "viewhash", seatScene = "seatscene"
    case leakProbe = "leakprobe", stepProbe = "stepprobe"

    /// How a call is accounted.
    enum Mode: String {
        /// Runs rule code: under the instruction budget and the memory cap;
        /// a failure is the rules' (rolled back, then reported as theirs).
        case runsRules = "rules"
        /// The kernel's own bookkeeping: no rule code, no instruction
        /// budget, a reserve above the cap; a failure is a bug in the engine.
        case bookkeeping
    }

    /// What the watchdog may do with a call that runs past its allowance
    /// (luashim.h, `RBRestart`).
    enum Restart: Equatable {
        /// Counted from the start: the call has effects no abort undoes
        /// (loading registers packs and modules), or it is not a rule call.
        case never
        /// Watched whole; when stopped, rolled back by `abort` (nil: it
        /// writes nothing) and run again counted.
        case call(abort: KernelEntry?)
        /// A kernel loop: each operation is watched alone (fuzz.lua's
        /// protect); a call stopped between operations is rolled back by
        /// `abort` and run again whole.
        case operations(abort: KernelEntry)
    }

    var mode: Mode {
        switch self {
        case .definePack, .addAction, .finishPack, .newGame, .restart, .perform, .redo, .undo, .travel, .legal, .invariants,
             .render, .generate, .set, .goal, .goalEstimate, .explore, .solveBegin, .solveStep, .solveLine, .solveProbe, .uniqueBegin,
             .uniqueStep, .uniqueLine, .fuzz, .replay, .scene, .viewPlaces, .solveChildren, .solveReplay,
             .uniqueChildren, .performAs, .legalAs, .legalBySeat, .refusal, .seatView, .viewHash, .seatScene, .leakProbe,
             .stepProbe, .valueBegin, .valueMove, .valueLine, .valueResult:
            return .runsRules
        case .linkBase, .paramProblem, .abort, .hash, .get, .gc, .configure, .explored, .position, .entries,
             .solveEnd, .uniqueEnd, .fuzzAbort, .replayAbort, .coverage, .coverageReport, .hashOrder, .profile,
             .selfTest, .solveSnap, .solveFailed, .seats, .valueFailed, .valueEnd:
            return .bookkeeping
        }
    }

    /// The calls whose every effect `abort` undoes (they begin an operation,
    /// which rolls back to its journal mark), those that write nothing, and
    /// the kernel's loops; every other call is counted from the start.
    var restart: Restart {
        switch self {
        // Each commits at its end, after the watch (engine.lua, commitcall):
        // one the watchdog stops is still pending for abort. A restart's
        // reload runs again whole: it loads from the chunks it compiled.
        case .perform, .redo, .undo, .newGame, .restart, .set, .explore, .performAs, .leakProbe, .stepProbe: return .call(abort: .abort)
        case .legal, .render, .generate, .invariants, .scene, .viewPlaces, .legalAs, .legalBySeat, .refusal, .seatView, .viewHash,
             .seatScene:
            return .call(abort: nil)
        case .fuzz: return .operations(abort: .fuzzAbort)
        case .replay: return .operations(abort: .replayAbort)
        // `travel` commits each of its steps as it goes: no abort takes
        // them back, so it is counted from the start and never runs again.
        case .travel: return .never
        default: return .never
        }
    }

    /// The mode as `LuaVM` takes it.
    var vmMode: LuaVM.Mode { mode == .runsRules ? .rules : .bookkeeping }

    /// The policy as `LuaVM` takes it: the kind and the abort function's name.
    var vmRestart: LuaVM.Restart {
        switch restart {
        case .never: return .never
        case .call(let abort): return .call(abort: abort?.rawValue)
        case .operations(let abort): return .operations(abort: abort.rawValue)
        }
    }

    /// The protocol as a Lua table for the kernel's own test
    /// (Tests/KernelTests/protocol.lua): entry name -> { mode, restart, abort }.
    static var table: StateValue {
        var entries: [StateKey: StateValue] = [:]
        for entry in allCases {
            var row: [StateKey: StateValue] = [.string("mode"): .string(entry.mode.rawValue)]
            switch entry.restart {
            case .never: row[.string("restart")] = .string("never")
            case .call(let abort):
                row[.string("restart")] = .string("call")
                if let abort { row[.string("abort")] = .string(abort.rawValue) }
            case .operations(let abort):
                row[.string("restart")] = .string("operations")
                row[.string("abort")] = .string(abort.rawValue)
            }
            entries[.string(entry.rawValue)] = .table(row)
        }
        return .table(entries)
    }
}
