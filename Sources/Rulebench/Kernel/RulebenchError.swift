/// An action or subaction whose undo did not restore the state.
public struct UndoProblem: Hashable, Sendable, CustomStringConvertible {
    /// The action's path in its tree, e.g. `jetpack > move`.
    public var action: String
    /// Where its `undo` function is defined.
    public var undoFunction: SourceLocation?
    /// The first differing slots, sorted by path.
    public var differences: [StateChange]
    /// How many runs of this undo (the same action path and undo function,
    /// e.g. a subaction queued 12 times) failed; their differences are merged.
    public var times = 1

    public var description: String {
        var text = "undo of '\(action)'" + (undoFunction.map { " (\($0))" } ?? "") + " did not restore the state"
            + (times > 1 ? " (\(times) times):" : ":")
        for difference in differences.prefix(10) { text += "\n  " + Self.line(difference) }
        if differences.count > 10 { text += "\n  ... and \(differences.count - 10) more" }
        return text
    }
}

extension UndoProblem {
    /// A slot the undo did not restore, as undo errors have always worded it.
    static func line(_ change: StateChange) -> String {
        "\(change.path): before \(change.before), after undo \(change.after)" + (change.note.map { " (\($0))" } ?? "")
    }

    /// Problems with the same action path and undo function merged into one
    /// (counted in `times`, differences joined without repeats and in natural
    /// path order), in the order each first appears.
    public static func merged(_ problems: [UndoProblem]) -> [UndoProblem] {
        var out: [UndoProblem] = []
        var index: [String: Int] = [:]
        for problem in problems {
            let key = problem.action + "\u{0}" + (problem.undoFunction?.description ?? "")
            guard let at = index[key] else {
                index[key] = out.count
                out.append(problem)
                continue
            }
            out[at].times += problem.times
            let known = Set(out[at].differences.map(\.path))
            out[at].differences += problem.differences.filter { !known.contains($0.path) }
        }
        for i in out.indices { out[i].differences.sort { StatePath.naturalOrder($0.path, $1.path) } }
        return out
    }
}

/// Everything that can go wrong when running rules, as values a caller can inspect.
public enum RulebenchError: Error, CustomStringConvertible, Sendable {
    /// `check` (of the action or of a subaction) refused.
    case rejected(reason: String, action: String)
    /// A Lua error in rule code.
    case script(ScriptFailure)
    /// The instruction budget or the memory cap ran out.
    case budgetExceeded(BudgetFailure)
    /// A pack invariant failed after the action.
    case invariant(name: String, message: String, location: SourceLocation?)
    /// Strict undo found differences. The state was repaired from the journal
    /// and the undo took effect: the game is sound, the rule is not.
    case undoMismatch([UndoProblem])
    /// Redo did not reproduce the original action.
    case redoMismatch(RedoMismatch)
    /// Input that cannot be used: unknown action, bad params, bad path, bad file.
    case badInput(InputProblem)
    /// A pack that does not load.
    case packLoad(InputProblem)

    public var description: String {
        switch self {
        case .rejected(let reason, let action): return "rejected: \(reason) (\(action))"
        case .script(let failure): return failure.description
        case .budgetExceeded(let failure): return failure.description
        case .invariant(let name, let message, let location):
            return (location.map { "\($0): " } ?? "") + (message.isEmpty ? "invariant '\(name)' failed" : message)
        case .undoMismatch(let problems): return problems.map(\.description).joined(separator: "\n")
        case .redoMismatch(let mismatch): return mismatch.description
        case .badInput(let problem), .packLoad(let problem): return problem.description
        }
    }

    /// The problem of a `.badInput` or `.packLoad` error.
    public var inputProblem: InputProblem? {
        switch self {
        case .badInput(let problem), .packLoad(let problem): return problem
        default: return nil
        }
    }

    /// A short name of the kind of error, for reports.
    public var kind: String {
        switch self {
        case .rejected: return "rejected"
        case .script: return "script error"
        case .budgetExceeded(let failure):
            switch failure.resource {
            case .instructions: return "instruction budget"
            case .memory: return "memory cap"
            case .wallClock: return "wall clock"
            case .interrupt: return "interrupted"
            }
        case .invariant: return "invariant"
        case .undoMismatch: return "undo mismatch"
        case .redoMismatch: return "redo mismatch"
        case .badInput: return "bad input"
        case .packLoad: return "pack load error"
        }
    }
}

/// A Lua error raised by rule code.
public struct ScriptFailure: Hashable, Sendable, CustomStringConvertible {
    /// The message without its location.
    public var message: String
    /// Where it was raised, when known.
    public var location: SourceLocation?
    /// The Lua traceback, limited to rule-pack frames.
    public var traceback: String
    /// The action (path) that was running, if any.
    public var action: String?
    /// What was running: "check", "apply", "undo", "legal", "animate", "setup", ...
    public var phase: String?

    public var description: String {
        var text = (location.map { "\($0): " } ?? "") + message
        var context: [String] = []
        if let phase, !phase.isEmpty { context.append("in \(phase)") }
        if let action, !action.isEmpty, action != phase { context.append("of '\(action)'") }
        if !context.isEmpty { text += " (" + context.joined(separator: " ") + ")" }
        return text
    }
}

/// A budget that ran out.
public struct BudgetFailure: Hashable, Sendable, CustomStringConvertible {
    /// Which budget.
    /// `wallClock`: the last line of defence stopped work that the
    /// instruction budget did not count (not a deterministic verdict);
    /// `interrupt`: the process was asked to stop (SIGINT, SIGTERM).
    public enum Resource: String, Sendable { case instructions, memory, wallClock, interrupt }
    public var resource: Resource
    /// The limit in force (instructions per call, or bytes).
    public var limit: Int64
    /// Where the script was when it ran out, when known.
    public var location: SourceLocation?
    /// The action (path) that was running, if any.
    public var action: String?
    /// What was running.
    public var phase: String?
    /// The stop's own message (`wallClock`, `interrupt`): what stopped the call.
    public var detail: String?

    public init(resource: Resource, limit: Int64, location: SourceLocation? = nil, action: String? = nil,
                phase: String? = nil, detail: String? = nil) {
        self.resource = resource
        self.limit = limit
        self.location = location
        self.action = action
        self.phase = phase
        self.detail = detail
    }

    public var description: String {
        let what: String
        switch resource {
        case .instructions: what = "instruction budget exceeded (\(limit) instructions)"
        case .memory: what = "memory cap exceeded (\(limit / (1 << 20)) MiB)"
        case .wallClock, .interrupt: what = detail ?? resource.rawValue
        }
        var text = (location.map { "\($0): " } ?? "") + what
        if let phase, !phase.isEmpty { text += " in \(phase)" }
        if let action, !action.isEmpty, action != phase { text += " of '\(action)'" }
        return text
    }
}

/// Redo gave something other than the original action did.
public struct RedoMismatch: Hashable, Sendable, CustomStringConvertible {
    /// What differs: "state hash", "subaction tree" or "animation plan".
    public var what: String
    /// The action redone.
    public var action: String
    /// The original and the redone value, rendered.
    public var expected: String
    public var actual: String

    public var description: String {
        "redo of '\(action)' gave a different \(what): expected \(expected), got \(actual)"
    }
}

/// Input that cannot be used, with where it came from when known.
public struct InputProblem: Hashable, Sendable, CustomStringConvertible {
    /// What a problem is about, for a caller that words it again or points
    /// at where the user wrote the thing (a scenario's `rules:` or option).
    public enum Subject: Hashable, Sendable {
        /// A pack name or path that names no pack, and the packs in the
        /// rules folder that was searched (sorted; empty when none was found).
        case unknownPack(String, available: [String])
        /// A setup option the pack does not take, or of another type.
        case option(String)
    }

    /// What is wrong, and what to do about it.
    public var message: String
    /// Where it is, when a line is known (a place in a scenario, a history, a pack file).
    public var location: SourceLocation?
    /// The file it is about when no line is known (a file that cannot be read).
    private var wholeFile: String?
    /// What it is about, when a caller may need to know.
    public var subject: Subject?

    /// A problem, at whatever is known of its place: a file, a line of it, a column.
    public init(_ message: String, file: String? = nil, line: Int? = nil, column: Int? = nil, subject: Subject? = nil) {
        self.message = message
        if let file, let line { location = SourceLocation(file: file, line: line, column: column) } else { wholeFile = file }
        self.subject = subject
    }

    /// A problem at a place in a file.
    public init(_ message: String, at location: SourceLocation) {
        self.message = message
        self.location = location
    }

    /// The file it is about.
    public var file: String? { location?.file ?? wholeFile }
    /// The line, when known.
    public var line: Int? { location?.line }
    /// The column, when known.
    public var column: Int? { location?.column }

    /// The same problem at another place (where the user wrote the thing).
    public func placed(at location: SourceLocation) -> InputProblem {
        var problem = self
        problem.location = location
        problem.wholeFile = nil
        return problem
    }

    /// `file:line:col: message`, with whatever parts are known.
    public var description: String {
        var prefix = ""
        if let file {
            prefix = file
            if let line { prefix += ":\(line)" }
            if let line, let column, line > 0 { prefix += ":\(column)" }
            prefix += ": "
        }
        return prefix + message
    }
}
