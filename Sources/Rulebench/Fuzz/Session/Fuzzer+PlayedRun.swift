// A run as a shard played it, told to the caller (`run`'s `played`) so that
// the runs of several shards can be put side by side.

extension Fuzzer {
    /// A run as a shard played it (see `run`'s `played`).
    public struct PlayedRun: Sendable {
        /// The run's index, counted over all shards.
        public var index: Int
        /// The program as played (its game seed, options and steps).
        public var program: FuzzProgram
    }
}
