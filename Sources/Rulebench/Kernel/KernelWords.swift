/// The words the kernel and Swift exchange inside requests and replies.
///
/// Each enum's raw values are the Lua strings, named here once: renaming a
/// Swift case elsewhere (`FuzzStep`) does not change the protocol, and a
/// word this side does not know is an internal error (`KernelReply.decode`),
/// never a fallback. The kernel declares the same words in
/// `Kernel/protocol.lua`; `KernelLuaTests` (Tests/KernelTests/protocol.lua)
/// checks that both lists agree, group by group, for every group of `table`.
/// The words of the other calls are enums declared beside the call that
/// decodes them, all in this folder, and listed in `table` too:
/// `KernelWordsTests` fails for an enum of raw words in `Sources/Rulebench/
/// Kernel` that `table` does not list.
enum KernelWords {
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
        case share, resume, reads
    }

    /// Every group of words: its name in `K.WORDS`, the Swift type that
    /// names its words, and the words.
    static var groups: [(name: String, type: Any.Type, words: [String])] {
        func group<T: RawRepresentable & CaseIterable>(_ name: String, _ type: T.Type) -> (name: String, type: Any.Type, words: [String])
            where T.RawValue == String { (name, type, type.allCases.map(\.rawValue)) }
        return [
            // A finding's property: the kernel sends the case's own name (the
            // name finding files carry), reports print its raw value.
            ("property", FuzzFinding.Property.self, FuzzFinding.Property.allCases.map(\.word)),
            group("op", StepOp.self), group("outcome", Outcome.self), group("cause", Cause.self),
            group("redo", RedoDifference.self), group("travel", TravelStep.self), group("request", RunField.self),
            group("during", Kernel.StepActivity.self), group("paramproblem", ParamProblem.Kind.self),
            group("explore", Kernel.ExploreStatus.self), group("solvesearch", Kernel.SolveSearch.self),
            group("solvestep", Kernel.StepWord.self), group("probe", Kernel.ProbeWord.self),
            group("solvestart", Kernel.SolveStartKind.self), group("solveshare", Kernel.SolveShareStatus.self),
            group("solvechild", Kernel.SolveChild.Kind.self), group("valuestart", Kernel.ValueStart.self),
            group("valuestop", Kernel.ValueStop.self), group("errorkind", KernelError.Kind.self),
            group("shown", SeatLeak.Shown.self), group("shape", SceneNode.Shape.self), group("easing", Easing.self),
            group("subanimations", ActionAnimation.Mode.self),
        ]
    }

    /// The words as a Lua table for the kernel's test: group -> list of words.
    static var table: StateValue {
        var out: [StateKey: StateValue] = [:]
        for group in groups { out[.string(group.name)] = .list(group.words.map { .string($0) }) }
        return .table(out)
    }
}
