/// What the shrinker's runs showed of one game's steps, so that a candidate
/// whose verdict they already prove is judged without a run.
///
/// A shrink tries hundreds of programs that differ from each other in a
/// step or two. Most break on the first `perform` a deletion made illegal;
/// many others replay, through undos and redos, only steps earlier runs
/// played. Each run tells, for every step it played without a finding, what
/// the step did (its outcome: performed, leaving a state; rejected; undid
/// or redid so many entries) and, when it stopped on an illegal `perform`,
/// that the call is not legal there, and which calls are.
///
/// What a step does, and whether it passes every check made at a step, is
/// a function of where it is played, from the game of one pack, seed and
/// options (`origin`; another game starts the memo afresh): the kernel's
/// determinism, which the shrinker assumes and checks (a candidate it
/// keeps fails again from a restart, or the memo is off). A `perform` (or
/// an attempt) depends on the state alone, and so does which calls are
/// legal (as the resumed runs' listing reuse assumes too); an undo or a
/// redo on the history: the entries applied and those a redo would apply
/// (`Point`), each entry a node of a trie of (state, step) pairs, so that
/// one history is one point however a program came to it.
///
/// From the start, a candidate whose steps were all played before is
/// judged so:
/// - reaching a `perform` refused in its state, it is illegal there, with
///   the calls offered there: an illegal verdict comes before any
///   end-of-run check (`FuzzExecutor.play`);
/// - played to its end, it passes every check made at a step; when the
///   run would make no check after its last step (`passesWithoutEndChecks`),
///   it fails nothing: it neither reproduces the finding nor is illegal.
///
/// Nothing else is predicted: a candidate with a step never played where
/// it stands runs, and a candidate kept is one a run reproduced. The
/// invariant kept: every answer is the verdict and offered calls the run
/// would give.
struct StepMemo {
    /// A state: the game just set up, or a hash.
    private enum State: Hashable {
        case start
        case hash(StateHash)
    }

    /// Where a step is played: the state, and the history (the entries
    /// applied and the entries a redo would apply, each a node of its
    /// trie; 0: none).
    private struct Point {
        var state = State.start
        var applied = 0
        var undone = 0
    }

    /// A step known by what it depends on.
    private enum Move: Hashable {
        /// A `perform` or an attempt, in a state.
        case call(State, FuzzStep)
        /// An undo or a redo, on a history.
        case history(applied: Int, undone: Int, FuzzStep)
    }

    /// An entry applied on the history `below` by `step`, from the state
    /// `before` to the state `after`.
    private struct Applied: Hashable {
        let below: Int
        let before: State
        let step: FuzzStep
        let after: State
    }

    /// The applied entry `entry`, undone onto the redo entries `below`.
    private struct Undone: Hashable {
        let below: Int
        let entry: Int
    }

    /// What earlier runs prove of a program.
    enum Answer: Equatable {
        /// Its step at `index` is a `perform` not legal there; `offered` are the legal calls.
        case illegal(index: Int, offered: [ActionCall])
        /// Every step passes every check made at a step.
        case passes
    }

    /// The program the memo's steps start from, without steps.
    private var origin: FuzzProgram?
    /// The tries' nodes, numbered from 1 in the order they were made.
    private var applied = Trie<Applied>()
    private var undone = Trie<Undone>()
    /// Each step played without a finding, and what it did.
    private var outcomes: [Move: FuzzExecutor.Outcome] = [:]
    /// `perform`s a run refused as not legal in their state.
    private var refused: Set<Move> = []
    /// The legal calls listed in each state where a `perform` was refused.
    private var offered: [State: [ActionCall]] = [:]

    /// The most steps and entries remembered; past that the memo starts afresh.
    static let capacity = 50_000

    /// Candidates judged from the memo so far: found illegal, and found to pass.
    private(set) var answeredIllegal = 0
    private(set) var answeredPassing = 0
    var answered: Int { answeredIllegal + answeredPassing }

    /// What earlier runs prove of `program`, nil when only a run can tell.
    /// `passes` is answered only when `passesWithoutEndChecks`.
    mutating func answer(for program: FuzzProgram, passesWithoutEndChecks: Bool) -> Answer? {
        guard origin == Self.origin(of: program) else { return nil }
        var point = Point()
        for (index, step) in program.steps.enumerated() {
            let move = Self.move(step, at: point)
            if refused.contains(move), let calls = offered[point.state] {
                answeredIllegal += 1
                return .illegal(index: index, offered: calls)
            }
            guard let outcome = outcomes[move] else { return nil }
            point = after(step, outcome, from: point)
        }
        guard passesWithoutEndChecks else { return nil }
        answeredPassing += 1
        return .passes
    }

    /// Remembers what a checked run of `program` showed: what each step it
    /// played before its finding did, and the `perform` it refused when it
    /// stopped on an illegal one.
    mutating func learn(_ program: FuzzProgram, _ result: FuzzExecutor.Result) {
        let from = Self.origin(of: program)
        if origin != from || outcomes.count + refused.count + applied.count + undone.count >= Self.capacity {
            self = StepMemo(origin: from, answeredIllegal: answeredIllegal, answeredPassing: answeredPassing)
        }
        // Steps at and after a finding (an end-of-run check's is the last
        // step's) are not known to pass.
        let passed = min(result.outcomes.count, result.finding.map { max(0, $0.stepIndex) } ?? Int.max)
        var point = Point()
        for (index, step) in program.steps.enumerated() {
            let move = Self.move(step, at: point)
            guard index < passed else {
                if !result.valid, index == result.outcomes.count, let calls = result.offered {
                    refused.insert(move)
                    offered[point.state] = calls
                }
                return
            }
            outcomes[move] = result.outcomes[index]
            point = after(step, result.outcomes[index], from: point)
        }
    }

    private init(origin: FuzzProgram, answeredIllegal: Int, answeredPassing: Int) {
        self.origin = origin
        (self.answeredIllegal, self.answeredPassing) = (answeredIllegal, answeredPassing)
    }

    init() {}

    private static func move(_ step: FuzzStep, at point: Point) -> Move {
        switch step {
        case .perform, .attempt: return .call(point.state, step)
        default: return .history(applied: point.applied, undone: point.undone, step)
        }
    }

    /// Where the game stands after `step` did `outcome` at `point`.
    private mutating func after(_ step: FuzzStep, _ outcome: FuzzExecutor.Outcome, from point: Point) -> Point {
        var point = point
        switch outcome {
        case .performed(let hash):
            let entry = Applied(below: point.applied, before: point.state, step: step, after: .hash(hash))
            point = Point(state: entry.after, applied: applied.number(entry), undone: 0)
        case .rejected, .failed:
            break
        case .undone(let count):
            for _ in 0..<max(0, count) where point.applied != 0 {
                let top = applied[point.applied]
                point.undone = undone.number(Undone(below: point.undone, entry: point.applied))
                (point.state, point.applied) = (top.before, top.below)
            }
        case .redone(let count):
            for _ in 0..<max(0, count) where point.undone != 0 {
                let top = undone[point.undone]
                (point.state, point.applied, point.undone) = (applied[top.entry].after, top.entry, top.below)
            }
        }
        return point
    }

    private static func origin(of program: FuzzProgram) -> FuzzProgram {
        var origin = program
        origin.steps = []
        return origin
    }

    /// Nodes numbered from 1 in the order they were first given, each once
    /// (0 stands for none): the tries of `StepMemo`'s histories.
    private struct Trie<Node: Hashable> {
        private var numbers: [Node: Int] = [:]
        private var nodes: [Node] = []

        var count: Int { nodes.count }

        /// The node numbered `number` (from 1).
        subscript(number: Int) -> Node { nodes[number - 1] }

        /// The number of `node`, given it now if it has none yet.
        mutating func number(_ node: Node) -> Int {
            if let known = numbers[node] { return known }
            nodes.append(node)
            numbers[node] = nodes.count
            return nodes.count
        }
    }
}
