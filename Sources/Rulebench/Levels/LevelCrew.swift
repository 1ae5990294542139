import Foundation

/// What the workers of `generate --jobs N` share (`LevelGenerator.run(workers:)`):
/// the candidates' seeds, handed out in order, the candidates finished but
/// not yet decided, the setup hashes seen so far, and the result.
///
/// The invariant: candidates are decided one at a time, in the order of
/// their seeds, by `LevelGenerator.decide`, as one worker decides them; a
/// worker only tries a candidate ahead of that order. So the levels kept,
/// their names and the tally are those of `--jobs 1` for the same options,
/// and the workers differ only in how soon they are done. Every member is
/// read and written under `lock`.
final class LevelCrew: @unchecked Sendable {
    private let lock = NSLock()
    private let count: Int
    private var seeds: AnyIterator<Int64>
    private var claimed = 0
    /// Candidates finished ahead of the next to decide, by index.
    private var finished: [Int: (seed: Int64, attempt: Swift.Result<LevelGenerator.Attempt, any Error>)] = [:]
    private var decided = 0
    /// The first candidate that set up to each hash: a later one with it is a duplicate.
    private var firstWithHash: [StateHash: Int] = [:]
    private var seen: Set<StateHash> = []
    private var result: LevelGenerator.Result
    /// Why no more candidates were handed out (nil: not stopped).
    private var stoppedBy: LevelGenerator.Stop?
    private var failure: (any Error)?
    private var over = false
    private let event: @Sendable (LevelGenerator.Event, LevelGenerator.Progress) -> Void

    init(options: LevelGenerator.Options, result: LevelGenerator.Result, event: @escaping @Sendable (LevelGenerator.Event, LevelGenerator.Progress) -> Void) {
        count = options.count
        seeds = LevelGenerator.candidateSeeds(options.seed).makeIterator()
        self.result = result
        self.event = event
    }

    /// Whether the run is over: enough levels, a failure, or every candidate handed out decided after a stop.
    var isOver: Bool { lock.withLock { over } }

    /// The next candidate (its index and seed), or nil when the run is over
    /// or stopped (`stop`: why, checked before each).
    func claim(stop: LevelGenerator.Stop?) -> (index: Int, seed: Int64)? {
        lock.withLock {
            if over || stoppedBy != nil { return nil }
            if let stop {
                stoppedBy = stop
                if decided == claimed { over = true }
                return nil
            }
            guard let seed = seeds.next() else { return nil }
            claimed += 1
            return (claimed - 1, seed)
        }
    }

    /// Whether a candidate before `index` set up to `hash` (then `index` is a duplicate: no need to solve it).
    func isDuplicate(_ hash: StateHash, index: Int) -> Bool {
        lock.withLock {
            if let first = firstWithHash[hash], first < index { return true }
            firstWithHash[hash] = index
            return false
        }
    }

    /// Hands in candidate `index`'s attempt (or the error its rules threw),
    /// and decides on every candidate now next in order.
    func finish(_ index: Int, seed: Int64, _ attempt: Swift.Result<LevelGenerator.Attempt, any Error>, stop: LevelGenerator.Stop) {
        lock.withLock {
            finished[index] = (seed, attempt)
            while !over, let next = finished.removeValue(forKey: decided) {
                decided += 1
                switch next.attempt {
                case .failure(let error):
                    failure = error
                    over = true
                case .success(let attempt):
                    if let event = LevelGenerator.decide(attempt, seed: next.seed, in: &result, seen: &seen, stop: stop) {
                        self.event(event, result.progress)
                        if result.file.levels.count >= count { over = true }
                    } else {
                        over = true
                    }
                }
                if stoppedBy != nil && decided == claimed { over = true }
            }
        }
    }

    /// The result once every worker is done: the error a rule threw, or the
    /// levels decided, stopped by what stopped the hand-out when it fell short.
    func outcome(seconds: Double) throws -> LevelGenerator.Result {
        try lock.withLock {
            if let failure { throw failure }
            var done = result
            if done.stop == .done, done.file.levels.count < count, let stoppedBy { done.stop = stoppedBy }
            done.seconds = seconds
            return done
        }
    }
}
