// rulebench-bench: the project's speed figures, measured side by side in one
// run on the same action sequences. Run it in release mode: `make bench`.
// Usage: rulebench-bench [PACK ...]          (default: desert if present, cards, template)
//        rulebench-bench --profile PACK      Lua VM instructions per checked step, by function
//        rulebench-bench --profile-kernel PACK [noleaks]   the same per step of row (1k)'s fuzzer loop
//        rulebench-bench --profile-explore PACK DEPTH   the same per node of explore
//        rulebench-bench --loop PACK SECONDS   only checked steps, for `perf record`
//        rulebench-bench --scale               only row (5)
//        rulebench-bench --explore [N]         only rows (4) and (4b), N times
//        rulebench-bench --loop-kernel PACK SECONDS   the same in the fuzzer's kernel loop (row 1k)
//                                      (SECONDS < 0: exactly -SECONDS rounds of 3 passes, no budget, for callgrind;
//                                       a last argument `coverage`: with the coverage hook, as guided fuzzing runs;
//                                       `noleaks`: without the no-leak probes of a seated pack, as --no-leak-check)
//        rulebench-bench --profile-restart PACK   VM instructions of a restart, by function
//        rulebench-bench --crossings PACK     kernel calls per perform, failed perform, undo, redo, seek, undo last turn, restart, fuzz run
//        rulebench-bench --loop-plain PACK ROUNDS [PASSES]  only row (2), ROUNDS x PASSES (3) passes (for callgrind)
//        rulebench-bench --detect [NAME-SUBSTRING] [--seconds S] [--seeds N | --seed K] [--search S]   time to detect each planted bug (minutes)
//        rulebench-bench --solve               only row (8): solve against a plain-Lua breadth-first search
//        rulebench-bench --value               only row (14): solve --value against a plain-Lua negamax
//        rulebench-bench --seek                only row (10): the studio's History slider across 1,000 steps
//        rulebench-bench --server              only row (11): a hostile client's cost to the studio's server
//        rulebench-bench --match               only row (12): calls through Match + SQLite store, memory per idle match
//        rulebench-bench --serve-load          only row (13): rulebench-serve, 200 desert matches x 2 clients over loopback
//        rulebench-bench --serve-steps ROUNDS MATCHES [profile]   row (13)'s server work a call, in process, no budget (callgrind)
//        rulebench-bench --levels              only row (15): generate 100 pipes levels 5x5 (--jobs 1, 2), then run them
//        rulebench-bench --shrink [--rounds N] [--base BINARY] [--only in-process|processes] [--profile]   only row (S1): shrink candidates/s on the chess mutants' first lines
import Foundation
import Rulebench

/// The median seconds of `repeats` runs of `body`.
func median(_ repeats: Int, _ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<repeats {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return times.sorted()[times.count / 2]
}

func configuration(budget: Int64 = 10_000_000, strict: Bool = true) -> Game.Configuration {
    var c = Game.Configuration()
    c.instructionBudget = budget
    c.strict = strict
    c.printHandler = { _ in }
    c.rulesDirectory = URL(fileURLWithPath: "rules")
    // As the fuzzer and explore run: plans are built and checked, but their
    // leaves carry no source lines (reports look those up when they need them).
    c.animationSources = false
    return c
}

/// Fixed games of legal actions (each from setup), chosen deterministically.
func games(pack: String, options: [String: StateValue], length: Int, budget: Int64 = 10_000_000) throws -> [[ActionCall]] {
    let game = try Game(pack: pack, options: options, seed: 3, configuration: configuration(budget: budget))
    var games: [[ActionCall]] = [[]]
    var total = 0, step = 0
    while total < length {
        let legal = try game.legalActions()
        if legal.isEmpty || games[games.count - 1].count >= 300 {
            try game.rewind()
            games.append([])
            step += 1
            continue
        }
        let call = legal[(step &* 7919 &+ games.count) % legal.count]
        try game.perform(call)
        games[games.count - 1].append(call)
        total += 1
        step += 1
    }
    return games.filter { !$0.isEmpty }
}

/// Seconds per checked step: perform (check, apply, subactions, invariants,
/// plan), strict undo verification, then redo (compared with the original).
func checkedStep(pack: String, options: [String: StateValue], games: [[ActionCall]], config: Game.Configuration) throws -> Double {
    let game = try Game(pack: pack, options: options, seed: 3, configuration: config)
    let steps = games.map(\.count).reduce(0, +)
    let seconds = try median(3) {
        for calls in games {
            try game.rewind()
            for call in calls {
                try game.perform(call)
                try game.undo()
                try game.redo()
            }
        }
    }
    return seconds / Double(steps)
}

/// Whether row (1k) collects coverage (`--loop-kernel PACK S coverage`), to
/// measure the line hook's cost as the guided search pays it.
nonisolated(unsafe) var kernelLoopCoverage = false
/// Whether `--loop` and `--loop-kernel` leave the no-leak probes out
/// (`--loop-kernel PACK S noleaks`): a seated pack's step without them,
/// as `fuzz --no-leak-check` plays it (the probes are 30-50x a desert step).
nonisolated(unsafe) var loopChecksLeaks = true

/// The fuzzer and the one program of row (1k)'s loop (kernelCheckedStep).
func kernelLoop(pack: String, options: [String: StateValue], games: [[ActionCall]],
                config: Game.Configuration) -> (Fuzzer, FuzzProgram) {
    var fuzzOptions = Fuzzer.Options(pack: pack)
    fuzzOptions.configuration = config
    fuzzOptions.setupOptions = options
    fuzzOptions.search = .uniform   // no coverage hook: the steps of row (1), nothing more
    fuzzOptions.coverage = kernelLoopCoverage
    let steps = games.flatMap { calls in calls.flatMap { [FuzzStep.perform($0), .undo(1), .redo(1)] } + [.undo(calls.count)] }
    return (Fuzzer(options: fuzzOptions), FuzzProgram(pack: pack, seed: 3, options: options, steps: steps))
}

/// `rulebench-bench --profile-kernel PACK [noleaks]`: Lua VM instructions
/// per checked step of row (1k)'s loop (the fuzzer's, as kernelCheckedStep
/// plays it), by function: where `--profile`'s Game calls differ from it.
func profileKernel(pack: String) throws {
    let sequence = try games(pack: pack, options: [:], length: 1500, budget: 0)
    let steps = sequence.map(\.count).reduce(0, +)
    var config = configuration(budget: 0)
    config.checksLeaks = loopChecksLeaks
    let (fuzzer, program) = kernelLoop(pack: pack, options: [:], games: sequence, config: config)
    _ = fuzzer.check(program, wholeHistory: false)   // loads the pack first
    let counts = try fuzzer.instructions(checking: program)
    let total = counts.values.reduce(0, +)
    print("\(pack): \(total / steps) VM instructions per checked step of the fuzzer's loop (\(steps) steps)")
    for (function, n) in counts.sorted(by: { $0.value > $1.value }).prefix(40) {
        print(String(format: "  %6d  %5.1f%%  %@", n / steps, Double(n) * 100 / Double(total), function))
    }
}

/// Seconds per checked step as the fuzzer runs it, inside the kernel: one
/// program of `do`, `undo 1`, `redo 1` per call, each game of `games`
/// followed by an `undo` of all its steps (the rewind of row (1)), played by
/// the fuzzer's step loop in one crossing after one restart.
func kernelCheckedStep(pack: String, options: [String: StateValue], games: [[ActionCall]], config: Game.Configuration) throws -> Double {
    let (fuzzer, program) = kernelLoop(pack: pack, options: options, games: games, config: config)
    var failure: FuzzFinding?
    let seconds = median(3) { failure = failure ?? fuzzer.check(program, wholeHistory: false) }
    if let failure { throw RulebenchError.badInput(InputProblem("the kernel's loop found: \(failure)")) }
    return seconds / Double(games.map(\.count).reduce(0, +))
}

func plain(_ pack: String, _ options: [String: StateValue], _ games: [[ActionCall]], _ mode: String, passes: Int = 3) throws -> Double {
    let folder = pack.contains("/") ? pack : "rules/" + pack
    return try PlainLua.run(pack: folder, options: options, games: games, mode: mode, repeats: passes) / Double(games.map(\.count).reduce(0, +))
}

func row(_ name: String, _ value: String, _ note: String = "") {
    print("| " + name + " | " + value + " | " + note + " |")
}

func us(_ seconds: Double) -> String { String(format: "%.1f µs", seconds * 1e6) }

/// `rulebench-bench --profile PACK`: Lua VM instructions per checked step,
/// by kernel file and by function. Deterministic, so it compares changes
/// exactly where timings on a shared machine cannot.
func profile(pack: String) throws {
    let sequence = try games(pack: pack, options: [:], length: 300)
    let steps = sequence.map(\.count).reduce(0, +)
    let game = try Game(pack: pack, seed: 3, configuration: configuration(budget: 0))
    let counts = try game.countInstructions {
        for calls in sequence {
            try game.rewind()
            for call in calls {
                try game.perform(call)
                try game.undo()
                try game.redo()
            }
        }
    }
    let total = counts.values.reduce(0, +)
    print("\(pack): \(total / steps) VM instructions per checked step (\(steps) steps)")
    let legal = try game.countInstructions {
        for calls in sequence {
            try game.rewind()
            for call in calls {
                _ = try game.legalActions()
                try game.perform(call)
            }
        }
    }.values.reduce(0, +)
    print("\(pack): \(legal / steps) VM instructions per legal enumeration + perform (what a fuzz step does)")
    var byFile: [String: Int] = [:]
    for (function, n) in counts {
        let file = function.split(separator: ":").first.map(String.init) ?? function
        byFile[file.hasPrefix("rulebench/Kernel/") ? file : "rule code (" + pack + ")", default: 0] += n
    }
    for (file, n) in byFile.sorted(by: { $0.value > $1.value }) {
        print(String(format: "  %6d  %5.1f%%  %@", n / steps, Double(n) * 100 / Double(total), file))
    }
    print("  top functions:")
    for (function, n) in counts.sorted(by: { $0.value > $1.value }).prefix(25) {
        print(String(format: "  %6d  %5.1f%%  %@", n / steps, Double(n) * 100 / Double(total), function))
    }
}

/// `rulebench-bench --detect [NAME-SUBSTRING] [--seconds S] [--seeds N | --seed K] [--search S]`: the planted
/// bugs' time to detect, uniform and guided search (TimeToDetect.swift).
/// `rulebench-bench --shrink ...`: row (S1), shrinking on the chess mutants' first lines (ShrinkBench.swift).
/// Each reads its own arguments and reports its errors.
let modesWithArguments: [(flag: String, run: ([String]) throws -> Void)] = [
    ("--detect", { try TimeToDetect.run(arguments: $0) }),
    ("--shrink", { try ShrinkBench.run(arguments: $0) }),
]
if CommandLine.arguments.count >= 2, let mode = modesWithArguments.first(where: { $0.flag == CommandLine.arguments[1] }) {
    do {
        try mode.run(Array(CommandLine.arguments.dropFirst(2)))
    } catch {
        FileHandle.standardError.write(Data("rulebench-bench \(mode.flag): \(error)\n".utf8))
        exit(2)
    }
    exit(0)
}

/// `rulebench-bench --profile-explore PACK DEPTH`: VM instructions per node of explore.
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "--profile-explore" {
    let depth = Int(CommandLine.arguments[3]) ?? 3
    let game = try Game(pack: CommandLine.arguments[2], seed: 1, configuration: configuration(budget: 0))
    var nodes = 0
    let counts = try game.countInstructions { nodes = try Explorer(game: game, depth: depth).run().total }
    let total = counts.values.reduce(0, +)
    print("\(total / max(nodes, 1)) VM instructions per explored node (\(nodes) nodes)")
    for (function, n) in counts.sorted(by: { $0.value > $1.value }).prefix(20) {
        print(String(format: "  %6d  %5.1f%%  %@", n / max(nodes, 1), Double(n) * 100 / Double(total), function))
    }
    exit(0)
}

/// `rulebench-bench --loop PACK SECONDS`: checked steps of row (1) and
/// nothing else, for about SECONDS, so that `perf record` sees only them.
if [4, 5].contains(CommandLine.arguments.count), ["--loop", "--loop-kernel"].contains(CommandLine.arguments[1]) {
    kernelLoopCoverage = CommandLine.arguments.count == 5 && CommandLine.arguments[4] == "coverage"
    loopChecksLeaks = !(CommandLine.arguments.count == 5 && CommandLine.arguments[4] == "noleaks")
    let pack = CommandLine.arguments[2]
    let limit = Double(CommandLine.arguments[3]) ?? 5
    // A negative SECONDS asks for exactly that many rounds, with no
    // instruction budget anywhere, the games' choice included: a fixed
    // amount of work for callgrind, whose instruction counts are exact
    // where times on this machine move 2x (under it every watched call would
    // look long to the watchdog and run again counted).
    let sequence = try games(pack: pack, options: [:], length: 1500, budget: limit < 0 ? 0 : 10_000_000)
    let steps = sequence.map(\.count).reduce(0, +)
    let measure = CommandLine.arguments[1] == "--loop" ? checkedStep : kernelCheckedStep
    var rounds = 0, spent = 0.0
    var config = configuration(budget: limit < 0 ? 0 : 10_000_000)
    config.checksLeaks = loopChecksLeaks
    while limit < 0 ? Double(rounds) < -limit : spent < limit {
        spent += try measure(pack, [:], sequence, config) * Double(steps) * 3
        rounds += 1
    }
    print("\(pack): \(us(spent / Double(rounds * steps * 3))) per checked step over \(rounds * 3) rounds of \(steps) steps")
    exit(0)
}

/// `rulebench-bench --loop-plain PACK ROUNDS [PASSES]`: only row (2), the
/// pure-Lua loop, ROUNDS times (each PASSES passes over the steps, 3 when
/// not given): its machine instructions under callgrind, beside those of
/// `--loop-kernel` on the same steps. PASSES 0 leaves the fixed cost only
/// (the Lua state, the pack's files, the games' text), to subtract.
if [4, 5].contains(CommandLine.arguments.count), CommandLine.arguments[1] == "--loop-plain" {
    let pack = CommandLine.arguments[2]
    let sequence = try games(pack: pack, options: [:], length: 1500, budget: 0)   // no re-runs under callgrind
    let steps = sequence.map(\.count).reduce(0, +)
    let rounds = max(1, Int(CommandLine.arguments[3]) ?? 1)
    let passes = CommandLine.arguments.count == 5 ? max(0, Int(CommandLine.arguments[4]) ?? 3) : 3
    var spent = 0.0
    for _ in 0..<rounds { spent += try plain(pack, [:], sequence, "pure", passes: passes) * Double(steps) }
    print("\(pack): \(us(spent / Double(rounds * steps))) per pure-Lua step over \(rounds * 3) rounds of \(steps) steps")
    exit(0)
}

/// `rulebench-bench --profile-restart PACK`: VM instructions of a restart.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--profile-restart" {
    let game = try Game(pack: CommandLine.arguments[2], seed: 1, configuration: configuration(budget: 0))
    let counts = try game.countInstructions { for seed in 0..<10 { try game.restart(seed: Int64(seed)) } }
    print("\(CommandLine.arguments[2]): \(counts.values.reduce(0, +) / 10) VM instructions per restart")
    for (function, n) in counts.sorted(by: { $0.value > $1.value }).prefix(20) { print(String(format: "  %7d  %@", n / 10, function)) }
    exit(0)
}

/// `rulebench-bench --explore [N]`: only rows (4) and (4b), N times.
if [2, 3].contains(CommandLine.arguments.count), CommandLine.arguments[1] == "--explore" {
    for _ in 0..<(CommandLine.arguments.count == 3 ? Int(CommandLine.arguments[2]) ?? 1 : 1) { try exploring() }
    exit(0)
}

/// `rulebench-bench --solve`: only row (8).
if (2...4).contains(CommandLine.arguments.count), CommandLine.arguments[1] == "--value" {
    print("| measurement | value | note |")
    print("|---|---|---|")
    let extra = CommandLine.arguments.dropFirst(2)
    try ValueBench.rows(rounds: extra.compactMap { Int($0) }.first ?? 5, budgeted: !extra.contains("unbudgeted"))
    exit(0)
}
if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "--solve" {
    print("| measurement | value | note |")
    print("|---|---|---|")
    try SolveBench.rows()
    exit(0)
}

/// `rulebench-bench --scaling [fuzz|explore|run|solve|sharing]`: only the
/// scaling row, --jobs 1 against --jobs 2 (only one command's part, when
/// named; "sharing": what guided workers gain by sharing their edges).
if (2...3).contains(CommandLine.arguments.count), CommandLine.arguments[1] == "--scaling" {
    print("| measurement | value | note |")
    print("|---|---|---|")
    try ScalingBench.rows(binary: URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rulebench"),
                          only: CommandLine.arguments.count == 3 ? CommandLine.arguments[2] : nil)
    exit(0)
}

/// `rulebench-bench --scaling-in-process`: only the in-process part of the
/// scaling row (run and solve timed inside, with CPU and busy time).
if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "--scaling-in-process" {
    print("| measurement | value | note |")
    print("|---|---|---|")
    try ScalingBench.inProcess()
    exit(0)
}

/// `rulebench-bench --seek`: only row (10), the studio's seek.
if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "--seek" {
    try SeekBench.rows()
    exit(0)
}

/// `rulebench-bench --server`: only row (11).
if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "--server" {
    try ServerBench.rows()
    exit(0)
}

/// `rulebench-bench --match`: only row (12), matches through `Match` and the SQLite store.
if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "--match" {
    try MatchBench.rows()
    exit(0)
}

/// `rulebench-bench --serve-load`: only row (13), `rulebench-serve` under load over loopback.
if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "--serve-load" {
    try ServeLoadBench.rows()
    exit(0)
}

/// `rulebench-bench --serve-steps ROUNDS MATCHES [profile]`: row (13)'s server work a call, in process (ServeStepBench).
if CommandLine.arguments.count >= 4, CommandLine.arguments[1] == "--serve-steps",
   let rounds = Int(CommandLine.arguments[2]), let matches = Int(CommandLine.arguments[3]) {
    try ServeStepBench.run(rounds: rounds, matches: matches, profile: CommandLine.arguments.dropFirst(4).first == "profile")
    exit(0)
}

/// `rulebench-bench --levels`: only row (15), `rulebench generate` and `run` of its levels.
if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "--levels" {
    print("| measurement | value | note |")
    print("|---|---|---|")
    try LevelsBench.rows(binary: URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rulebench"))
    exit(0)
}

/// `rulebench-bench --scale`: only row (5).
if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "--scale" {
    try scaling()
    exit(0)
}

/// `rulebench-bench --crossings PACK`: kernel calls (crossings of the
/// bridge) per perform, failed perform, undo, redo, restart and fuzz run.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--crossings" {
    let pack = CommandLine.arguments[2]
    let calls = try games(pack: pack, options: [:], length: 200)[0]
    let game = try Game(pack: pack, seed: 3, configuration: configuration())
    func crossings(_ times: Int, _ body: () throws -> Void) rethrows -> String {
        let before = KernelCrossings.total
        try body()
        return String(format: "%.2f", Double(KernelCrossings.total - before) / Double(times))
    }
    row("\(pack): crossings per perform", try crossings(calls.count) { for call in calls { try game.perform(call) } })
    row("\(pack): crossings per undo", try crossings(calls.count) { for _ in calls { try game.undo() } })
    row("\(pack): crossings per redo", try crossings(calls.count) { for _ in calls { try game.redo() } })
    // Seeking to the start and back: 2 x 200 undos and redos, each checked.
    row("\(pack): crossings per seek (across the history)", try crossings(2) {
        try game.seek(to: 0)
        try game.seek(to: calls.count)
    })
    // Taking back every turn to the start: one undoLastTurn per turn.
    let undos = game.history.cursor, before = KernelCrossings.total
    var takeBacks = 0
    while !game.history.isAtStart { try game.undoLastTurn(); takeBacks += 1 }
    row("\(pack): crossings per undo last turn",
        String(format: "%.2f", Double(KernelCrossings.total - before) / Double(takeBacks)),
        "\(takeBacks) take-backs, \(undos) undos in all")
    row("\(pack): crossings per failed perform", crossings(10) {
        for _ in 0..<10 { _ = try? game.perform(ActionCall("no such action", [:])) }
    })
    row("\(pack): crossings per restart", try crossings(10) { for _ in 0..<10 { try game.restart(seed: 3) } })
    var fuzzOptions = Fuzzer.Options(pack: pack)
    fuzzOptions.configuration = configuration()
    fuzzOptions.search = .uniform
    let fuzzer = Fuzzer(options: fuzzOptions)
    let program = FuzzProgram(pack: pack, seed: 3, options: [:], steps: calls.prefix(20).flatMap { [FuzzStep.perform($0), .undo(1), .redo(1)] })
    _ = fuzzer.check(program, wholeHistory: false)   // the fuzzer's game is made once: not a run's cost
    row("\(pack): crossings per fuzz run (60 steps)", crossings(10) { for _ in 0..<10 { _ = fuzzer.check(program, wholeHistory: false) } })
    exit(0)
}

if [3, 4].contains(CommandLine.arguments.count), CommandLine.arguments[1] == "--profile-kernel" {
    loopChecksLeaks = !(CommandLine.arguments.count == 4 && CommandLine.arguments[3] == "noleaks")
    try profileKernel(pack: CommandLine.arguments[2])
    exit(0)
}
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--profile" {
    try profile(pack: CommandLine.arguments[2])
    exit(0)
}

var packs = Array(CommandLine.arguments.dropFirst())
/// Seconds per step of the pure-Lua loop, by pack (for ratios in later rows).
var pureSeconds: [String: Double] = [:]
if packs.isEmpty {
    packs = ["cards", "template"]
    if FileManager.default.fileExists(atPath: "rules/desert/pack.lua") { packs.insert("desert", at: 0) }
}

print("Rulebench benchmarks: release build, medians of 3; \(ProcessInfo.processInfo.processorCount) cores")
print("")
print("| measurement | value | note |")
print("|---|---|---|")
for pack in packs {
    let sequence = try games(pack: pack, options: [:], length: 1500)
    let steps = sequence.map(\.count).reduce(0, +)
    let checked = try checkedStep(pack: pack, options: [:], games: sequence, config: configuration())
    let pure = try plain(pack, [:], sequence, "pure")
    pureSeconds[pack] = pure
    let snapshot = try plain(pack, [:], sequence, "snapshot")
    row("\(pack): (1) Rulebench checked step (perform + strict undo + redo)", us(checked), "\(steps) steps in \(sequence.count) games")
    row("\(pack): (2) pure Lua apply + undo + apply, plain tables", us(pure), "bare lua_State, no checks")
    row("\(pack): (3) snapshot + deep compare around each step", us(snapshot), "bare lua_State")
    row("\(pack): speed of (1) relative to (2)", String(format: "%.3fx", pure / checked), "goal: at least 0.4x")
    let inKernel = try kernelCheckedStep(pack: pack, options: [:], games: sequence, config: configuration())
    row("\(pack): (1k) the same checked steps in the fuzzer's kernel loop", us(inKernel), "one crossing in all")
    row("\(pack): speed of (1k) relative to (2)", String(format: "%.3fx", pure / inKernel), "goal: at least 0.4x")
    row("\(pack): speed of (1) relative to (3)", String(format: "%.3fx", snapshot / checked), "")
    let noHook = try checkedStep(pack: pack, options: [:], games: sequence, config: configuration(budget: 0))
    row("\(pack): (1) with the instruction hook off", us(noHook), String(format: "the hook costs %+.1f%%", (checked / noHook - 1) * 100))
    let loose = try checkedStep(pack: pack, options: [:], games: sequence, config: configuration(strict: false))
    row("\(pack): (1) without strict verification", us(loose), String(format: "verification costs %+.1f%%", (checked / loose - 1) * 100))
    let pairs = try Game(pack: pack, seed: 3, configuration: configuration())
    let pairSeconds = try median(3) {
        for calls in sequence {
            for call in calls { try pairs.perform(call) }
            try pairs.rewind()
        }
    }
    row("\(pack): perform, then strict undo of every action", String(format: "%.0f actions/s", Double(steps) / pairSeconds),
        "each action performed once and undone once")
    let start = try median(9) {
        let game = try Game(pack: pack, seed: 3, configuration: configuration())
        try game.perform(sequence[0][0])
    }
    row("\(pack): load pack + setup + first action", String(format: "%.2f ms", start * 1000), "in process")
    let restart = try median(9) {
        for seed in 0..<20 { try pairs.restart(seed: Int64(seed)) }
    } / 20
    row("\(pack): restart (pack files run again from compiled chunks, setup)", String(format: "%.3f ms", restart * 1000),
        "what each fuzz run starts with")
}

// (4) and (4b): explore
func exploring() throws {
    // (4) explore on cards
    let cards = try Game(pack: "cards", seed: 3, configuration: configuration())
    var cardNodes = 0
    let cardSeconds = try median(3) { cardNodes = try Explorer(game: cards, depth: 5).run().total }
    row("(4) explore cards --depth 5", String(format: "%.0f nodes/s", Double(cardNodes) / cardSeconds), "\(cardNodes) nodes, every undo verified")

    // (4b) explore on a read-heavy pack against a plain-Lua perft over the same files
    let chess = "Benchmarks/packs/chess"
    let depth = 3
    let game = try Game(pack: chess, seed: 1, configuration: configuration())
    var nodes = 0
    let seconds = try median(3) { nodes = try Explorer(game: game, depth: depth).run().total }
    let plain = try PlainPerft.nodesPerSecond(pack: chess, depth: depth, repeats: 3)
    let explored = Double(nodes) / seconds
    row("(4b) explore chess --depth \(depth)", String(format: "%.0f nodes/s", explored), "\(nodes) nodes, every undo verified")
    row("(4b) plain-Lua perft, same files", String(format: "%.0f nodes/s", plain.perSecond), "\(plain.nodes) nodes, no checks")
    row("(4b) explore relative to plain perft", String(format: "%.3fx", explored / plain.perSecond), "goal: at least 0.3x")
}
try exploring()

// (8) solve against a plain-Lua breadth-first search over the same files
try SolveBench.rows()

// (14) solve --value against a plain-Lua negamax over the same files
try ValueBench.rows()

// (10) the studio's History slider across a 1,000-step history
try SeekBench.rows()

// (11) what a hostile client costs the studio's server
try ServerBench.rows()

// (12) matches played together: calls through Match and its store, memory per idle match
try MatchBench.rows()

// (13) rulebench-serve under load: 200 desert matches x 2 clients over loopback
try ServeLoadBench.rows()

// (5) scaling: the same writes, a state 1x, 10x, 100x larger
func scaling() throws {
    let scale = "Benchmarks/packs/scale"
    var base: (Double, Double, Double)?
    for size in [100, 1000, 10000] {
        let options: [String: StateValue] = ["size": .int(Int64(size))]
        let sequence = try games(pack: scale, options: options, length: 1500, budget: 500_000_000)
        // Setting up 10,000 tables takes more than the default 10M-instruction budget.
        let checked = try checkedStep(pack: scale, options: options, games: sequence, config: configuration(budget: 500_000_000))
        let pure = try plain(scale, options, sequence, "pure")
        let snapshot = try plain(scale, options, sequence, "snapshot")
        let b = base ?? (checked, pure, snapshot)
        base = b
        row("(5) scale, state of \(size) tables: (1) / (2) / (3)", "\(us(checked)) / \(us(pure)) / \(us(snapshot))",
            String(format: "vs 1x: %.2fx / %.2fx / %.2fx (goal for (1): within 1.2x)", checked / b.0, pure / b.1, snapshot / b.2))
    }
}
try scaling()

/// The `rulebench` binary beside this one.
let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rulebench")

/// Runs `rulebench ARGUMENTS` to its exit, output discarded. posix_spawn and
/// waitpid: Foundation's Process polls for the exit and adds tens of ms.
func spawn(_ arguments: [String]) throws {
    var pid: pid_t = 0
    var argv = ([binary.path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    defer { posix_spawn_file_actions_destroy(&actions) }
    guard posix_spawn(&pid, binary.path, &actions, nil, &argv, environ) == 0 else { throw BenchError("cannot start \(binary.path)") }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
}

// (7) fuzz throughput, as `make run` fuzzes desert: process start, setup,
// legal enumeration, every step checked, end-of-run rewind and replay
if FileManager.default.isExecutableFile(atPath: binary.path), let pure = pureSeconds["desert"] {
    let steps = 20 * 60
    let seconds = try median(3) { try spawn(["fuzz", "desert", "--seed", "1", "--runs", "20", "--depth", "60"]) }
    let rate = Double(steps) / seconds
    row("(7) fuzz desert --runs 20 --depth 60, whole process", String(format: "%.0f steps/s", rate), "\(steps) steps")
    row("(7) fuzz steps/s relative to the pure-Lua loop's steps/s", String(format: "%.3fx", rate * pure),
        String(format: "pure loop: %.0f steps/s; first release: about 0.032x (1,200 against 37k)", 1 / pure))
}

// (9) --jobs 2 against --jobs 1
if FileManager.default.isExecutableFile(atPath: binary.path) { try ScalingBench.rows(binary: binary) }

// (15) levels: generate 100 pipes levels with --jobs 1 and 2 (the same file), then run them
if FileManager.default.isExecutableFile(atPath: binary.path) { try LevelsBench.rows(binary: binary) }

// (6) process start to the end of one scenario, and history size
do {
    let scenarios = (try? FileManager.default.contentsOfDirectory(atPath: "scenarios/template"))?.filter { $0.hasSuffix(".yaml") }.sorted() ?? []
    if let first = scenarios.first, FileManager.default.isExecutableFile(atPath: binary.path) {
        let seconds = try median(11) { try spawn(["run", "scenarios/template/" + first]) }
        row("(6) rulebench run of one scenario, process start to exit", String(format: "%.1f ms", seconds * 1000), "scenarios/template/\(first); goal: within 30 ms")
    } else {
        row("(6) rulebench run of one scenario", "not measured", "no rulebench binary or scenario")
    }
    let game = try Game(pack: "Benchmarks/packs/scale", seed: 3, configuration: configuration(strict: false))
    let count = 100_000
    for i in 0..<count { try game.perform("bump", ["cell": .int(Int64(i % 8 + 1))]) }
    let bytes = SavedHistory(of: game).json.utf8.count
    row("(6) saved history of a \(count)-action game", String(format: "%.1f bytes/action", Double(bytes) / Double(count)), "goal: within 300")
}
