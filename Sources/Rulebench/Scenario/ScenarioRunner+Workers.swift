/// Scenario files run on a `WorkerPool`: each worker plays its scenarios
/// one after another in games of its own (`ScenarioGames`: a pack loaded
/// once per worker, restarted for each scenario), so the workers share
/// nothing but the list of files.
extension ScenarioRunner {
    /// Runs every file of `items`, `pool.workers` at a time; the reports come
    /// back in the order of `items`, and `completed` hears each in that order
    /// as soon as it and every one before it have run, as one worker gives
    /// them. Only the durations depend on the number of workers.
    public func run(_ items: [ScenarioFiles.Item], on pool: WorkerPool,
                    completed: @escaping @Sendable (ScenarioReport) -> Void = { _ in }) -> [ScenarioReport] {
        pool.map(count: items.count, makeWorker: { _ in reusesGames ? ScenarioGames(configuration: configuration) : nil },
                 completed: { _, report in completed(report) },
                 body: { games, index in run(fileAt: items[index].url, displayPath: items[index].display, games: games) })
    }
}
