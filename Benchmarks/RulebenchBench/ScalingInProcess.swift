import Foundation
import Rulebench

/// Row (9), in process: `run scenarios` and the solve of lights with one
/// and two workers, timed from inside (no process start), with the CPU
/// the process spent and, for solve, each worker's busy time (its thread's
/// CPU time expanding states) and what the caller's thread spent besides
/// (the merge): what a loaded machine does not stretch
/// (`rulebench-bench --scaling-in-process`).
extension ScalingBench {
    static func inProcess() throws {
        let items = ScenarioFiles.collect(["scenarios"]).items
        try compare("run scenarios (\(items.count) files)") { workers in
            _ = ScenarioRunner().run(items, on: WorkerPool(workers: workers))
            return nil
        }
        var options = Solver.Options(goal: "dark")
        options.usesEstimate = false
        var game = Game.Configuration()
        game.printHandler = { _ in }
        let makeGame = { @Sendable [game] () throws(RulebenchError) -> Game in
            try Game(pack: "Benchmarks/packs/lights", options: ["pressed": .table([.int(1): .int(1), .int(2): .int(7), .int(3): .int(13),
                                                                                   .int(4): .int(19), .int(5): .int(25)])],
                     configuration: game)
        }
        try compare("solve lights (5 presses)") { workers in
            let solver = ParallelSolver(solver: Solver(game: try makeGame(), options: options), pool: WorkerPool(workers: workers),
                                        makeGame: makeGame)
            let before = threadProcessorSeconds()
            let busy = try solver.run().statistics.workerSeconds
            return busy + [threadProcessorSeconds() - before - (busy.first ?? 0)]
        }
    }

    /// `body` with one worker and with two, alternated `repeats` times:
    /// medians of the wall and CPU seconds, and the workers' busy seconds
    /// then the caller's other seconds, of the median run (when `body`
    /// returns them).
    private static func compare(_ label: String, _ body: (Int) throws -> [Double]?) throws {
        var wall: [Int: [Double]] = [1: [], 2: []], cpu: [Int: [Double]] = [1: [], 2: []], busy: [[Double]] = []
        for _ in 0..<repeats {
            for workers in [1, 2] {
                let (start, used) = (MonotonicClock.seconds(), processorSeconds())
                let seconds = try body(workers)
                wall[workers]!.append(MonotonicClock.seconds() - start)
                cpu[workers]!.append(processorSeconds() - used)
                if workers == 2, let seconds { busy.append(seconds) }
            }
        }
        let one = middle(wall[1]!), two = middle(wall[2]!)
        let workers = busy.sorted { $0.reduce(0, +) < $1.reduce(0, +) }.dropFirst(busy.count / 2).first
        row("(9) in process: \(label), --jobs 1 / --jobs 2", String(format: "%.3f s / %.3f s wall (%.2fx)", one, two, one / two),
            String(format: "CPU %.3f s / %.3f s", middle(cpu[1]!), middle(cpu[2]!))
                + (workers.map { " ; each worker busy (its thread's CPU expanding) "
                    + $0.dropLast().map { String(format: "%.3f s", $0) }.joined(separator: ", ")
                    + String(format: "; the caller's thread besides (the merge) %.3f s", $0.last ?? 0) } ?? ""))
    }

    /// CPU seconds the calling thread has used so far.
    private static func threadProcessorSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// CPU seconds (user + system) the process has used so far.
    private static func processorSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
