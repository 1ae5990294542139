/// One shrink of a session's first line, timed: how many candidates the
/// `Shrinker` ran, on which clock's seconds, and how long the line was
/// before and after. What `rulebench-bench --shrink` measures (row S1): a
/// session found the line with a budget of one shrink candidate, so its
/// report's `original` is the line as the fuzzer played it; the shrink here
/// is the one the session would have run (the session's executor, the
/// default candidate budget), timed on the caller's clock (the bench passes the
/// thread's CPU seconds, which a loaded machine does not inflate).
public struct ShrinkTiming: Sendable {
    /// Candidates run (`Shrinker.attempts`).
    public let candidates: Int
    /// Seconds on the caller's clock the shrink took.
    public let seconds: Double
    /// Steps of the line shrunk, and of its reproduction.
    public let originalSteps: Int
    public let shrunkSteps: Int
    /// How the shrink ended.
    public let status: ShrinkStatus
    /// The reproduction.
    public let shrunk: FuzzProgram

    public var candidatesPerSecond: Double { seconds > 0 ? Double(candidates) / seconds : 0 }

    /// Shrinks `report`'s original line in `fuzzer`'s executor, as a
    /// session shrinks it (`budget` candidates at most: the default's),
    /// timed on `clock`. With `resumes` off,
    /// every candidate is replayed from a restarted game (the long way the
    /// tests compare with).
    public static func measure(_ report: Fuzzer.Report, of fuzzer: Fuzzer, budget: Int? = nil,
                               resumes: Bool = true, clock: @escaping () -> Double) -> ShrinkTiming {
        var shrinker = Shrinker(executor: fuzzer.executor, budget: budget ?? Shrinker.defaultBudget, clock: clock)
        shrinker.resumes = resumes
        // A session shrinks in the game its runs loaded: loaded before the clock starts.
        _ = try? fuzzer.executor.newGame(report.original)
        let start = clock()
        let (shrunk, _) = shrinker.shrink(report.original, report.finding)
        return ShrinkTiming(candidates: shrinker.attempts, seconds: clock() - start, originalSteps: report.original.steps.count,
                            shrunkSteps: shrunk.steps.count, status: shrinker.status, shrunk: shrunk)
    }

    /// The Lua VM instructions the same shrink runs (candidates resumed),
    /// by function (`Game.countInstructions`: exact, where a loaded
    /// machine's seconds are not), and the candidates it ran: where a
    /// candidate's kernel work goes (`rulebench-bench --shrink --profile`).
    /// Needs a session whose games have no instruction budget.
    public static func instructions(_ report: Fuzzer.Report, of fuzzer: Fuzzer) throws -> (candidates: Int, counts: [String: Int]) {
        var shrinker = Shrinker(executor: fuzzer.executor, clock: { 0 })
        let game = try fuzzer.executor.newGame(report.original)
        let counts = try game.countInstructions { _ = shrinker.shrink(report.original, report.finding) }
        return (shrinker.attempts, counts)
    }
}
