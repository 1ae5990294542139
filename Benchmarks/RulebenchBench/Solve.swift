import Foundation
import Rulebench

/// Row (8): `solve` against a plain-Lua breadth-first search over the same
/// pack files (PlainSearch.swift), side by side in one run, each on a
/// fresh game (`rulebench-bench --solve`). Both are timed in CPU seconds of
/// the process (C's clock(), which the plain search reads as os.clock()),
/// so that other work on a busy machine weighs on neither; the median of
/// `repeats`. Goals: breadth-first at most 2x the plain search's time; the
/// hardest 8-puzzle with the Manhattan estimate in under 1 s; an
/// unsolvable level proven.
enum SolveBench {
    /// A position to solve: a pack, its options (as text), the goal, and how.
    struct Position {
        let label: String
        let pack: String
        let options: [String: String]
        let goal: String
        var maxDepth = 40
        /// Use the goal's estimate (best-first); false: breadth-first.
        var estimate = false
        /// Measure the plain search beside it.
        var plain = true
        /// Runs of each, for the median (1 for the searches of many seconds).
        var repeats = 1
    }

    static let eight = "Benchmarks/packs/eight", pipes = "Benchmarks/packs/pipes"
    static let positions = [
        Position(label: "8-puzzle 867/254/3_1 (31 moves, the hardest), breadth-first", pack: eight,
                 options: ["tiles": "867/254/3_1"], goal: "solved"),
        Position(label: "8-puzzle 213/456/78_ (unsolvable), breadth-first", pack: eight,
                 options: ["tiles": "213/456/78_"], goal: "solved"),
        Position(label: "8-puzzle 867/254/3_1 with the Manhattan estimate (A*)", pack: eight,
                 options: ["tiles": "867/254/3_1"], goal: "solved", estimate: true, plain: false, repeats: 3),
        Position(label: "pipes 3x3 c59/e5b/612 (23 turns), breadth-first", pack: pipes,
                 options: ["grid": "c59/e5b/612"], goal: "connected"),
        Position(label: "pipes 2x2 77/77 (unsolvable), breadth-first", pack: pipes,
                 options: ["grid": "77/77"], goal: "connected", repeats: 3),
        // Pseudo-legal chess from the start: fool's mate, 4 plies (no plain
        // search beside it: it would keep a copy of every position 4 plies deep).
        Position(label: "chess from the start, goal mated: fool's mate", pack: "Benchmarks/packs/chess", options: [:],
                 goal: "mated", maxDepth: 4, plain: false),
    ]

    /// Solves `position` on a fresh game each time; returns the result and the median seconds.
    static func solve(_ position: Position) throws -> (Solver.Result, Double) {
        var config = configuration()
        config.memoryCap += Solver.Options.defaultMaxStates * Solver.Options.bytesPerState * 2
        var options = Solver.Options(goal: position.goal)
        options.maxDepth = position.maxDepth
        options.usesEstimate = position.estimate
        var result: Solver.Result?
        let seconds = try cpuMedian(position.repeats) {
            let game = try Game(pack: position.pack, options: position.options.mapValues { .string($0) }, seed: 0, configuration: config)
            result = try Solver(game: game, options: options).run()
        }
        return (result!, seconds)
    }

    static func rows() throws {
        for position in positions {
            let (result, seconds) = try solve(position)
            let s = result.statistics
            let moves: Int?
            switch result.outcome {
            case .solved(let line): moves = line.count
            case .unreachable: moves = nil
            default: throw BenchError("solve \(position.label): \(result.outcome)")
            }
            let found = moves.map { "\($0) moves" } ?? "unreachable: all \(s.distinctStates) reachable states searched"
            row("(8) solve \(position.label)", String(format: "%.3f s CPU", seconds),
                "\(found); \(s.distinctStates) states reached, \(s.nodes) expanded, \(s.performs) actions performed and undone (verified)")
            guard position.plain else { continue }
            let plain = try PlainSearch.solve(pack: position.pack, options: position.options, goal: position.goal, repeats: position.repeats)
            guard plain.moves == moves else {
                throw BenchError("solve \(position.label): \(String(describing: moves)) moves, the plain search \(String(describing: plain.moves))")
            }
            row("(8) plain-Lua breadth-first search, same files", String(format: "%.3f s CPU", plain.seconds),
                "\(plain.states) states, plain tables, no checks")
            row("(8) solve relative to the plain search", String(format: "%.2fx its time", seconds / plain.seconds), "goal: at most 2x")
        }
    }
}

/// The median CPU seconds of the process over `repeats` runs of `body`.
func cpuMedian(_ repeats: Int, _ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<repeats {
        let start = clock()
        try body()
        times.append(Double(clock() - start) / Double(CLOCKS_PER_SEC))
    }
    return times.sorted()[times.count / 2]
}
