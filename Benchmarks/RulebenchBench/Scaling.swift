import Foundation
import Rulebench

/// Row (9): what `--jobs 2` gives over `--jobs 1`, each command as a child
/// process of the `rulebench` binary beside this one, the two job counts
/// alternated in one run (so a load that comes and goes weighs on both);
/// medians of `repeats` (`rulebench-bench --scaling`). Goals: at least 1.8x
/// for fuzz and explore, 1.6x for run and solve. Also the per-worker
/// overheads: a Lua state with the pack loaded and set up, in process.
enum ScalingBench {
    /// One command measured with both job counts.
    struct Command {
        let label: String
        let arguments: [String]
        let goal: Double
        /// Reads the work done (steps) and its rate from the command's
        /// standard output (nil: the work is the same for both job counts,
        /// one unit, and the rate is 1 / time).
        var work: ((String) -> (units: Double, rate: Double)?)? = nil
        let unit: String
    }

    static let repeats = 3

    /// The steps a `fuzz --json` report counts, and their rate.
    static func fuzzSteps(_ output: String) -> (units: Double, rate: Double)? {
        guard let data = output.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let steps = object["steps"] as? Int, let seconds = object["fuzzingSeconds"] as? Double, seconds > 0
        else { return nil }
        return (Double(steps), Double(steps) / seconds)
    }

    static func commands(scratch: String) -> [Command] {
        let fuzz = ["fuzz", "desert", "--seed", "1", "--depth", "60", "--out", scratch + "/findings", "--corpus", scratch + "/corpus", "--json"]
        return [
            Command(label: "fuzz desert --search uniform --runs 200", arguments: fuzz + ["--search", "uniform", "--runs", "200"],
                    goal: 1.8, work: fuzzSteps, unit: "steps/s"),
            Command(label: "fuzz desert --search guided --time 8", arguments: fuzz + ["--search", "guided", "--time", "8"],
                    goal: 1.8, work: fuzzSteps, unit: "steps/s"),
            Command(label: "explore Benchmarks/packs/chess --depth 4", arguments: ["explore", "Benchmarks/packs/chess", "--depth", "4"],
                    goal: 1.8, unit: "runs/s"),
            Command(label: "run scenarios", arguments: ["run", "scenarios"], goal: 1.6, unit: "runs/s"),
            // Five presses deep: 22,606 states, 3,761 expanded (breadth-first, no estimate).
            Command(label: "solve Benchmarks/packs/lights (5 presses)",
                    arguments: ["solve", "Benchmarks/packs/lights", "--goal", "dark", "--option", "pressed=[1,7,13,19,25]"],
                    goal: 1.6, unit: "runs/s"),
        ]
    }

    /// The rows; with `only` ("fuzz", "explore", ...), only the commands
    /// whose label starts with it (and, for "fuzz", the in-process fuzz
    /// rows; "sharing": only the guided workers' sharing).
    static func rows(binary: URL, only: String? = nil) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-bench-jobs-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        for command in commands(scratch: scratch) where only.map({ command.label.hasPrefix($0) }) ?? true {
            var rates: [Int: [Double]] = [1: [], 2: []], cpu: [Int: [Double]] = [1: [], 2: []]
            for _ in 0..<repeats {
                for jobs in [1, 2] {
                    let start = MonotonicClock.seconds()
                    let (output, processor) = try capture(binary, command.arguments + ["--jobs", "\(jobs)"])
                    let seconds = MonotonicClock.seconds() - start
                    let work: (units: Double, rate: Double) = command.work.map { $0(output) ?? (1, 0) } ?? (1, 1 / seconds)
                    rates[jobs]!.append(work.rate)
                    cpu[jobs]!.append(processor / work.units)
                }
            }
            let one = middle(rates[1]!), two = middle(rates[2]!)
            let ratio = two / max(one, 1e-12)
            let shown = command.work == nil ? String(format: "%.2f s / %.2f s", 1 / one, 1 / two) : String(format: "%.0f / %.0f %@", one, two, command.unit)
            row("(9) \(command.label): --jobs 1 / --jobs 2", shown,
                String(format: "%.2fx (goal: at least %.1fx)%@", ratio, command.goal, ratio >= command.goal ? "" : " MISSED"))
            // The work itself: CPU seconds of the process, which the machine's load does not stretch.
            let perUnit = command.work == nil ? String(format: "%.2f s / %.2f s", middle(cpu[1]!), middle(cpu[2]!))
                : String(format: "%.0f µs / %.0f µs per step", middle(cpu[1]!) * 1e6, middle(cpu[2]!) * 1e6)
            row("(9) \(command.label): CPU time, --jobs 1 / --jobs 2", perUnit,
                String(format: "two workers spend %.0f%% of one's CPU on the same work", middle(cpu[2]!) / middle(cpu[1]!) * 100))
        }
        if only == nil || only == "run" || only == "solve" { try inProcess() }
        if only == nil || only == "fuzz" { overheads() }
        if only == nil || only == "fuzz" || only == "sharing" { guidedSharing() }
    }

    /// One moment of a session: the process's CPU seconds and the wall
    /// seconds since it began, and the edges reached by then.
    struct Sighting {
        var cpu: Double, wall: Double, edges: Int
    }

    /// What the guided workers' sharing gives: the edges of desert's Lua a
    /// one-worker guided session reaches in 600 runs (fixed seed), and the
    /// CPU and wall time one worker and two workers (who tell each other
    /// what they reached) take to reach 90%, 99% and all of them; the two
    /// workers may play up to 1,200 runs.
    static func guidedSharing() {
        var options = Fuzzer.Options(pack: "desert")
        options.runs = 600
        options.depth = 60
        options.search = .guided
        options.configuration.printHandler = { _ in }
        var one: [Sighting] = []
        let alone = sightings(into: &one) { tell in _ = Fuzzer(options: options).run(progress: { tell($0.edges) }).progress }
        options.runs = 1_200
        var two: [Sighting] = []
        let together = sightings(into: &two) { tell in
            _ = FuzzWorkers(options: options, pool: WorkerPool(workers: 2)).run(progress: { tell($0.edges) })
        }
        row("(9) guided desert --runs 600, one worker: edges reached", String(format: "%d edges, %.2f CPU s, %.2f s", alone.edges, alone.cpu, alone.wall),
            "fixed seed, in process; two workers' session: " + String(format: "%d edges in 1,200 runs", together.edges))
        for fraction in [0.9, 0.99, 1.0] {
            let target = Int((Double(alone.edges) * fraction).rounded(.up))
            func first(_ curve: [Sighting]) -> String {
                curve.first { $0.edges >= target }.map { String(format: "%.2f CPU s, %.2f s", $0.cpu, $0.wall) } ?? "not reached"
            }
            row(String(format: "(9) guided desert: time to %.0f%% of one worker's edges (%d), one / two workers", fraction * 100, target),
                "\(first(one)) / \(first(two))", "CPU: every thread of the process; wall: under the machine's load")
        }
    }

    /// Runs `session`, which reports its edges through the function it is
    /// given; keeps each report as a sighting, and returns the last.
    static func sightings(into curve: inout [Sighting], _ session: (_ tell: @escaping (Int) -> Void) -> Void) -> Sighting {
        let cpu = processSeconds(), wall = MonotonicClock.seconds()
        func now(_ edges: Int) -> Sighting { Sighting(cpu: processSeconds() - cpu, wall: MonotonicClock.seconds() - wall, edges: edges) }
        var seen: [Sighting] = []
        session { seen.append(now($0)) }
        curve = seen
        return seen.last ?? now(0)
    }

    /// The CPU seconds (user + system) this process has used, every thread's.
    static func processSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// A worker's fixed cost (a Lua state made, the pack loaded and set
    /// up), and the cost of sharing: the same fuzz session alone and as the
    /// one worker of a `FuzzWorkers` (its thread, the claims, the shared
    /// guided search behind a lock, every run's events handed to the caller).
    static func overheads() {
        for pack in ["desert", "Benchmarks/packs/chess"] {
            let seconds = (try? median(9) { _ = try Game(pack: pack, seed: 1, configuration: configuration()) }) ?? .nan
            row("(9) per worker: Lua state + \(pack) loaded and set up", String(format: "%.2f ms", seconds * 1000), "paid once per worker")
        }
        for search in [SearchStrategy.uniform, .guided] {
            var options = Fuzzer.Options(pack: "desert")
            options.runs = 60
            options.depth = 60
            options.search = search
            options.configuration.printHandler = { _ in }
            var alone: [Double] = [], shared: [Double] = []
            for _ in 0..<repeats {
                var steps = 0
                let one = time { steps = Fuzzer(options: options).run().progress.steps }
                alone.append(Double(steps) / one)
                let worker = time { steps = FuzzWorkers(options: options, pool: WorkerPool(workers: 1)).run().progress.steps }
                shared.append(Double(steps) / worker)
            }
            let cost = middle(alone) / middle(shared) - 1
            row("(9) sharing: fuzz desert --search \(search.rawValue) as the one worker of FuzzWorkers", String(format: "%+.1f%%", cost * 100),
                "time per step against the session alone (noise on this machine is a few %)")
        }
    }

    /// Seconds `body` takes.
    static func time(_ body: () -> Void) -> Double {
        let start = MonotonicClock.seconds()
        body()
        return MonotonicClock.seconds() - start
    }

    static func middle(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// Runs `binary ARGUMENTS` to its exit; returns its standard output
    /// (standard error discarded) and the CPU seconds it used (user + system).
    static func capture(_ binary: URL, _ arguments: [String]) throws -> (String, Double) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-bench-out-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        var pid: pid_t = 0
        var argv = ([binary.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        defer { posix_spawn_file_actions_destroy(&actions) }
        guard posix_spawn(&pid, binary.path, &actions, nil, &argv, environ) == 0 else { throw BenchError("cannot start \(binary.path)") }
        var status: Int32 = 0
        var usage = rusage()
        wait4(pid, &status, 0, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "", seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }
}
