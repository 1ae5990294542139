import Foundation

/// Scenario files run on a `WorkerPool`: each worker plays its scenarios
/// one after another in games of its own (`ScenarioGames`: a pack loaded
/// once, restarted for each next scenario of it), so the workers share
/// nothing but the list of files. The pool hands a worker the scenarios
/// of the folder it is on first (`ItemClaims`' groups), so a small pack's
/// few scenarios are loaded by one worker, a big pack's split.
extension ScenarioRunner {
    /// Runs every file of `items`, `pool.workers` at a time; the reports come
    /// back in the order of `items`, and `completed` hears each in that order
    /// as soon as it and every one before it have run, as one worker gives
    /// them. Only the durations depend on the number of workers.
    public func run(_ items: [ScenarioFiles.Item], on pool: WorkerPool,
                    completed: @escaping @Sendable (ScenarioReport) -> Void = { _ in }) -> [ScenarioReport] {
        pool.map(count: items.count, groups: Self.folders(of: items),
                 makeWorker: { _ in reusesGames ? ScenarioGames(configuration: configuration, made: gameMade) : nil },
                 completed: { _, report in completed(report) },
                 body: { games, index in run(fileAt: items[index].url, displayPath: items[index].display, games: games) })
    }

    /// Each file's group for the pool: its folder, as the likely pack.
    ///
    /// The folder, not the pack its `rules:` names: that needs each file
    /// read before the workers start, on the one thread the run waits for
    /// (the serial part `--jobs` cannot cut), where the folder is free; and
    /// the group is only a preference. `ScenarioGames` still compares the
    /// pack a scenario names with its kept game's, so a folder that mixes
    /// packs costs loads, never a wrong report. Scenarios are commonly kept
    /// a folder per pack (as in scenarios/).
    static func folders(of items: [ScenarioFiles.Item]) -> [Int] {
        var numbers: [String: Int] = [:]
        return items.map { item in
            let folder = item.url.deletingLastPathComponent().standardizedFileURL.path
            if let number = numbers[folder] { return number }
            numbers[folder] = numbers.count
            return numbers.count - 1
        }
    }
}
