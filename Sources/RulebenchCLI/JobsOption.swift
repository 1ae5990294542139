import ArgumentParser
import Rulebench
import RulebenchCommandLine

/// `--jobs N`, as every command that can use several cores takes it: how
/// many workers (`WorkerPool`) share the work. The default is the number of
/// cores; `--jobs 1` runs on one thread exactly as the command did before it
/// had workers. Each worker plays in Lua states of its own, so N workers
/// hold N times the Lua states of one job, each under the per-game memory cap.
struct JobsOption: ParsableArguments {
    /// The most workers a command accepts: more threads than that cannot
    /// be a machine's cores, only a typo.
    static let largest = 256

    @Option(name: .long, parsing: .unconditional,
            help: ArgumentHelp("Workers, one per core: each plays in Lua states of its own (one per game; fuzz keeps a few per worker), each under the per-game memory cap of \(Game.Configuration().memoryCap >> 20) MB, so N workers use up to N times the memory of one. 1 runs on one thread as before. (default: the number of cores)", valueName: "n"),
            transform: NumberArgument.whole("--jobs"))
    var jobs: Int = WorkerPool.defaultWorkers

    func validate() throws {
        guard (1...Self.largest).contains(jobs) else {
            throw ValidationError("--jobs must be from 1 to \(Self.largest), got \(jobs)")
        }
    }

    /// The pool the command's work runs on.
    var pool: WorkerPool { WorkerPool(workers: jobs) }
}
