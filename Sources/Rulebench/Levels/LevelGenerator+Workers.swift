import Foundation

extension LevelGenerator {
    /// Makes levels as `run(packReference:clock:shouldStop:event:)` does, on
    /// `workers` threads (`generate --jobs N`): each worker tries candidates
    /// ahead in a game of its own (`makeGame`, called on its thread), and
    /// `LevelCrew` decides on them in their order, so the file is the one
    /// `--jobs 1` writes. A candidate past the last level needed is
    /// abandoned (its search stopped). `event` hears every candidate decided,
    /// in order, on the thread that decided it. One worker runs the plain
    /// `run` on the caller's thread with `makeGame`'s game.
    ///
    /// - Throws: what `makeGame` throws, and the first failure of the rules in the order of the candidates.
    public static func run(options: Options, workers: Int, packReference: String,
                           makeGame: @escaping @Sendable () throws -> Game,
                           clock: @escaping @Sendable () -> Double = MonotonicClock.seconds,
                           shouldStop: @escaping @Sendable () -> Bool = { false },
                           event: @escaping @Sendable (Event, Progress) -> Void = { _, _ in }) throws -> Result {
        if workers <= 1 {
            return try LevelGenerator(game: try makeGame(), options: options)
                .run(packReference: packReference, clock: clock, shouldStop: shouldStop, event: event)
        }
        let start = clock()
        let deadline = options.seconds.map { start + $0 }
        let timeUp: @Sendable () -> Bool = { deadline.map { clock() >= $0 } ?? false }
        let crew = LevelCrew(options: options, result: Result(file: LevelFile(packReference: packReference, goal: options.goal,
                                                                              gameSeed: options.gameSeed, params: options.params)),
                             event: event)
        let stop: @Sendable () -> Stop? = { shouldStop() ? .interrupted : timeUp() ? .time : nil }
        let made = WorkerPool(workers: workers).run { _ -> (any Error)? in
            let generator: LevelGenerator
            do {
                generator = LevelGenerator(game: try makeGame(), options: options)
            } catch {
                _ = crew.claim(stop: .interrupted)   // no candidate more for anyone: the run ends with this error
                return error
            }
            while let claim = crew.claim(stop: stop()) {
                let (index, seed) = claim
                let attempt: Swift.Result<Attempt, any Error>
                do {
                    attempt = .success(try generator.attempt(seed, isDuplicate: { crew.isDuplicate($0, index: index) },
                                                             shouldStop: { stop() != nil || crew.isOver }))
                } catch where shouldStop() || crew.isOver {
                    attempt = .success(Attempt())   // stopped mid-call: dropped (or not needed)
                } catch {
                    attempt = .failure(error)
                }
                crew.finish(index, seed: seed, attempt, stop: shouldStop() ? .interrupted : .time)
            }
            return nil
        }
        if let error = made.compactMap({ $0 }).first { throw error }
        return try crew.outcome(seconds: clock() - start)
    }
}
