/// The words the kernel and Swift exchange inside requests and replies.
///
/// Each enum's raw values are the Lua strings, named here once: renaming a
/// Swift case elsewhere (`FuzzFinding.Property`, `FuzzStep`) does not change
/// the protocol, and a word this side does not know is an internal error
/// (`KernelReply.decode`), never a fallback. The kernel declares the same
/// words in `Kernel/protocol.lua`; `KernelLuaTests` (Tests/KernelTests/
/// protocol.lua) checks that both lists agree. The words of the other calls
/// (explore, solve, a param's problem, a fuzz finding's step) are enums
/// declared beside the call that reads them, and listed in `table` too.
enum KernelWords {
    /// The fuzz run's properties, as fuzz.lua names a finding's `property`.
    enum Property: String, CaseIterable {
        case undoRestores, redoReproduces, undoMirrorsDo, failureChangesNothing, legalIsAllowed, invariantsHold
        case rewindAndReplay, seatSeesOnly

        var property: FuzzFinding.Property {
            switch self {
            case .undoRestores: return .undoRestores
            case .redoReproduces: return .redoReproduces
            case .undoMirrorsDo: return .undoMirrorsDo
            case .failureChangesNothing: return .failureChangesNothing
            case .legalIsAllowed: return .legalIsAllowed
            case .invariantsHold: return .invariantsHold
            case .rewindAndReplay: return .rewindAndReplay
            case .seatSeesOnly: return .seatSeesOnly
            }
        }
    }

    /// A step's `op` in a fuzz program or a run's chosen steps.
    enum StepOp: String, CaseIterable {
        case perform = "do", attempt = "try", undo, redo, undoTurn = "turn", undoLastTurn = "lastturn"
        /// A step to replace by a random legal call of the named action (a request only).
        case anyLegalCall = "any"
    }

    /// A run's outcome of a step, its `kind`.
    enum Outcome: String, CaseIterable {
        case performed, rejected, undone, redone, failed
    }

    /// Why an operation of a kernel loop failed, its failure's `cause` (protect.c).
    enum Cause: String, CaseIterable {
        case budget, memory, error
    }

    /// What a strict redo found different from the first time (engine.lua's
    /// perform, fuzz.lua's redo): a `RedoMismatch`'s `what`.
    enum RedoDifference: String, CaseIterable {
        case hash = "state hash", tree = "subaction tree", plan = "animation plan"
    }

    /// What a step of a travel did (history.lua, `travel`): the word before
    /// its results.
    enum TravelStep: String, CaseIterable {
        case undone, redone, failed, differs
    }

    /// The fields of a fuzz run's request (fuzz.lua, API.fuzz).
    enum RunField: String, CaseIterable {
        case seed = "choices", depth, program, checkLegality = "checklegal", recordLegal = "recordlegal"
        case rewindAtEnd = "final", listLegalAtEnd = "listlegal", favoursRareKinds = "rare", leavesOutKinds = "leaveout"
        case share, resume
    }

    /// The words as a Lua table for the kernel's test: group -> list of words.
    static var table: StateValue {
        func list(_ words: [String]) -> StateValue { .list(words.map { .string($0) }) }
        return .table([
            .string("property"): list(Property.allCases.map(\.rawValue)),
            .string("op"): list(StepOp.allCases.map(\.rawValue)),
            .string("outcome"): list(Outcome.allCases.map(\.rawValue)),
            .string("cause"): list(Cause.allCases.map(\.rawValue)),
            .string("redo"): list(RedoDifference.allCases.map(\.rawValue)),
            .string("travel"): list(TravelStep.allCases.map(\.rawValue)),
            .string("request"): list(RunField.allCases.map(\.rawValue)),
            // The words of the other calls, declared beside the call that reads them.
            .string("during"): list(FuzzExecutor.StepActivity.allCases.map(\.rawValue)),
            .string("paramproblem"): list(ParamProblem.Kind.allCases.map(\.rawValue)),
            .string("explore"): list(Kernel.ExploreStatus.allCases.map(\.rawValue)),
            .string("solvesearch"): list(Kernel.SolveSearch.allCases.map(\.rawValue)),
            .string("solvestep"): list(Kernel.StepWord.allCases.map(\.rawValue)),
            .string("probe"): list(Kernel.ProbeWord.allCases.map(\.rawValue)),
            .string("solvestart"): list(Kernel.SolveStartKind.allCases.map(\.rawValue)),
            .string("solveshare"): list(Kernel.SolveShareStatus.allCases.map(\.rawValue)),
            .string("solvechild"): list(Kernel.SolveChild.Kind.allCases.map(\.rawValue)),
        ])
    }
}
