/// The caller's side of a parallel fuzz session (`FuzzWorkers`): the
/// findings reported, each bug once, and the workers' progress as one
/// session's. It lives on the caller's thread only.
///
/// How the workers' counts add up: runs, steps, edges and duplicates are summed;
/// the time is the longest worker's; the shrinking seconds are the
/// workers' average (the share of the session's worker time spent
/// shrinking), so steps per second is the whole session's rate.
struct SessionTally {
    private let options: Fuzzer.Options
    private var latest: [Fuzzer.Progress]
    /// The findings, in the order they were reported, one per bug.
    private(set) var reports: [Fuzzer.Report] = []
    /// Reports of a bug another worker had reported (shrunk to the same key).
    private var duplicates = 0

    init(workers: Int, options: Fuzzer.Options) {
        self.options = options
        latest = Array(repeating: Fuzzer.Progress(), count: workers)
    }

    /// The session's progress: the workers' added up.
    var combined: Fuzzer.Progress {
        var total = Fuzzer.Progress(runLimit: options.runLimit, timeLimit: options.timeLimit)
        for part in latest {
            total.runs += part.runs
            total.steps += part.steps
            total.edges += part.edges
            total.duplicates += part.duplicates
            total.elapsed = max(total.elapsed, part.elapsed)
            total.shrinkingSeconds += part.shrinkingSeconds / Double(latest.count)
            total.phase = total.phase ?? part.phase
        }
        total.duplicates += duplicates
        total.findings = reports.count
        return total
    }

    /// Hands one worker's event to the session's callbacks.
    mutating func handle(_ event: FuzzWorkers.Event, found: (Fuzzer.Report) -> Void,
                         progress: (Fuzzer.Progress) -> Void, played: (Fuzzer.PlayedRun) -> Void) {
        switch event {
        case .found(let report):
            guard !reports.contains(where: { $0.key == report.key }) else { duplicates += 1; return }
            reports.append(report)
            found(report)
        case .progress(let worker, let state):
            latest[worker] = state
            progress(combined)
        case .played(let run):
            played(run)
        }
    }

    /// Takes the workers' final counts.
    mutating func end(with finals: [Fuzzer.Progress]) {
        for (worker, state) in finals.enumerated() { latest[worker] = state }
    }
}
