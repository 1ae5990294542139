// What a fuzz session is asked to do: its pack, seeds, budget (runs, time,
// depth), shard, search and shrinking budget. Plain settings: every default
// lives here, and `runLimit` is the one place that says when runs stop.

import Foundation

extension Fuzzer {
    /// What to fuzz and for how long.
    ///
    /// The budget: with `timeLimit`, runs go on until that many seconds are
    /// spent, or until `runs` when it is given too (whichever comes first).
    /// Without `timeLimit`, `runs` runs are made, `Options.defaultRuns` when
    /// it is nil. The session stops at the first finding unless `keepGoing`.
    public struct Options: Sendable {
        /// The run count when neither `runs` nor `timeLimit` is given.
        public static let defaultRuns = 100
        /// The most seconds one shrink takes without a session time limit.
        public static let defaultShrinkSeconds = MinimizerBudget.defaultShrinkSeconds
        /// The most candidate programs one shrink runs, by default.
        public static let defaultShrinkBudget = Shrinker.defaultBudget
        /// The most seconds a timed session spends, after its first finding,
        /// on other instances of the same bug (at most half of its time
        /// limit; `ShorterInstance`).
        public static let refinementSeconds = MinimizerBudget.instanceSearchSeconds

        /// The pack: a name under rules/ or a path to a pack folder.
        public var pack: String
        /// The session's seed; each run derives its game seed and choices from it.
        public var seed: UInt64 = 1
        /// The most runs to make (nil: `defaultRuns` without a time limit, no limit with one).
        public var runs: Int?
        /// The most steps a run takes.
        public var depth = 100
        /// Keep starting runs until this many seconds are spent (nil: no time limit).
        public var timeLimit: Double?
        /// Go on after the first finding, collecting one report per distinct bug (see `FindingKey`).
        public var keepGoing = false
        /// This machine's share: runs whose index % count == index - 1
        /// (see `owns(run:)`; the guided search's sweep is shard 1's).
        public var shard: (index: Int, count: Int) = (1, 1)
        /// The most shards a session is split in: the workers' shard numbers
        /// are `count` times the workers (`FuzzWorkers`), which must not wrap.
        public static let maximumShards = 1_000_000
        /// Setup options of every game.
        public var setupOptions: [String: StateValue] = [:]
        /// How games are made (strict mode is always on for fuzzing).
        public var configuration = Game.Configuration()
        /// Folder a relative pack path is resolved against.
        public var base: URL?
        /// The most candidate programs the shrinker runs for one finding.
        public var shrinkBudget = Shrinker.defaultBudget
        /// Count the lines of the pack's Lua that runs reach (see `coverage()`);
        /// a line hook slows every line of rule code while on.
        public var coverage = false
        /// How runs are chosen (see `SearchStrategy`).
        public var search = SearchStrategy.guided
        /// What this session shares with the other workers of a parallel
        /// session (`FuzzWorkers`); nil when it is the whole session.
        var link: FuzzWorkerLink?

        /// Options for fuzzing `pack`, every other setting at its default.
        public init(pack: String) { self.pack = pack }

        /// "K/N" when the session is one shard of several, nil when it is the whole session.
        public var shardName: String? {
            shard.count > 1 ? "\(shard.index)/\(shard.count)" : nil
        }

        /// The run count the session stops at, nil when only time limits it.
        public var runLimit: Int? {
            runs ?? (timeLimit == nil ? Self.defaultRuns : nil)
        }
    }
}
