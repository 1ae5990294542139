/// What the shrinker's runs showed of one game's moves, so that a candidate
/// they already prove illegal is judged without a run.
///
/// A shrink tries hundreds of programs that differ from each other in a
/// step or two, and most of them break on the first `perform` a deletion
/// made illegal. Each run tells, for every `perform` it played, the state
/// it left (its trace) and, when it stopped on an illegal one, that the
/// call is not among the legal calls of that state, and which are. Both
/// are functions of the state (the kernel's determinism; `legal` lists
/// from the state alone, as the resumed runs' listing reuse assumes too):
/// from the setup, a candidate whose `perform`s are moves seen before,
/// leading to one seen refused, is illegal at that step with those
/// offered calls, whatever else it would check.
///
/// Nothing else is predicted. A move is remembered only when a run played
/// it and found nothing there (its trace has the step), so the real run
/// would reach the refused step too: an illegal verdict comes before any
/// end-of-run check (`FuzzExecutor.play`). A candidate that could pass is
/// always run, and a candidate kept is one a run reproduced. The invariant
/// kept: every answer is the verdict and offered calls the run would give,
/// from the game of one pack, seed and options (`origin`; another game
/// starts the memo afresh).
struct LegalityMemo {
    /// A state the moves start from: the game just set up, or a hash.
    private enum Point: Hashable {
        case start
        case state(StateHash)
    }

    /// A call made at a point.
    private struct Move: Hashable {
        let point: Point
        let call: ActionCall
    }

    /// The program the memo's moves start from, without steps.
    private var origin: FuzzProgram?
    /// Each move played without a finding, and the state it left.
    private var next: [Move: StateHash] = [:]
    /// Moves a run refused as not legal at their point.
    private var refused: Set<Move> = []
    /// The legal calls listed at each point where a move was refused.
    private var offered: [Point: [ActionCall]] = [:]

    /// The most moves remembered; past that the memo starts afresh.
    static let capacity = 50_000

    /// Candidates judged from the memo so far.
    private(set) var answered = 0

    /// The illegal step of `program` and the calls legal there, when its
    /// first `perform`s are moves seen before and the next was refused;
    /// nil when only a run can tell.
    mutating func illegalStep(of program: FuzzProgram) -> (index: Int, offered: [ActionCall])? {
        guard origin == Self.origin(of: program) else { return nil }
        var point = Point.start
        for (index, step) in program.steps.enumerated() {
            guard case .perform(let call) = step else { return nil }
            let move = Move(point: point, call: call)
            if refused.contains(move), let calls = offered[point] {
                answered += 1
                return (index, calls)
            }
            guard let after = next[move] else { return nil }
            point = .state(after)
        }
        return nil
    }

    /// Remembers what a checked run of `program` showed: the state after
    /// each `perform` it played without a finding, up to its first other
    /// step, and the move it refused when it stopped on an illegal one.
    mutating func learn(_ program: FuzzProgram, _ result: FuzzExecutor.Result) {
        let from = Self.origin(of: program)
        if origin != from || next.count + refused.count >= Self.capacity {
            (origin, next, refused, offered) = (from, [:], [], [:])
        }
        var point = Point.start
        for (index, step) in program.steps.enumerated() {
            guard case .perform(let call) = step else { return }
            let move = Move(point: point, call: call)
            if index < result.trace.count {
                next[move] = result.trace[index]
                point = .state(result.trace[index])
            } else {
                if !result.valid, index == result.outcomes.count, let calls = result.offered {
                    refused.insert(move)
                    offered[point] = calls
                }
                return
            }
        }
    }

    private static func origin(of program: FuzzProgram) -> FuzzProgram {
        var origin = program
        origin.steps = []
        return origin
    }
}
