import Foundation
import Rulebench

/// Row (8): `solve`'s speed in states searched per second, and what its
/// transposition table saves, measured by solving the same positions with
/// and without it in one run (`rulebench-bench --solve`).
enum SolveBench {
    /// A position to solve: a pack, its setup, the goal, and the deepest line searched.
    struct Position {
        let label: String
        let pack: String
        let options: [String: StateValue]
        let state: [(StatePath, StateValue)]
        let goal: String
        let maxDepth: Int
    }

    static let positions = [
        // Presses commute: the d! orders of d presses reach one state.
        Position(label: "lights 5x5, 4 presses from dark", pack: "Benchmarks/packs/lights",
                 options: ["pressed": .table([.int(1): .int(13), .int(2): .int(19), .int(3): .int(21), .int(4): .int(25)])],
                 state: [], goal: "dark", maxDepth: 4),
        // The near-win of scenarios/desert/solve-near-win-shortest-line-to-launch.yaml.
        Position(label: "desert near-win, 5 moves to launch", pack: "desert", options: ["shuffle": .bool(false)],
                 state: [("players.p1.cell", .string("e1")), ("players.p2.cell", .string("d1")),
                         ("parts.propeller.holder", .string("p1")), ("parts.engine.holder", .string("p1")),
                         ("parts.crystal.holder", .string("p2")), ("parts.compass.cell", .string("e1"))],
                 goal: "won", maxDepth: 5),
    ]

    /// Solves `position` once; returns the result and its seconds.
    static func solve(_ position: Position, table: Bool) throws -> (Solver.Result, Double) {
        var config = configuration()
        config.memoryCap += Solver.Options.defaultMaxStates * 64
        let game = try Game(pack: position.pack, options: position.options, seed: 0, configuration: config)
        for (path, value) in position.state { try game.setState(value, at: path) }
        var options = Solver.Options(goal: position.goal)
        options.maxDepth = position.maxDepth
        options.usesTranspositionTable = table
        var result: Solver.Result?
        let seconds = try median(3) { result = try Solver(game: game, options: options).run() }
        return (result!, seconds)
    }

    static func rows() throws {
        for position in positions {
            let (with, seconds) = try solve(position, table: true)
            let (without, plainSeconds) = try solve(position, table: false)
            guard case .solved(let line) = with.outcome, case .solved(let plainLine) = without.outcome, line.count == plainLine.count else {
                throw RulebenchError.badInput(InputProblem("solve \(position.label): \(with.outcome) with the table, \(without.outcome) without"))
            }
            let s = with.statistics, p = without.statistics
            row("(8) solve \(position.label)", String(format: "%.0f states/s", Double(s.nodes) / seconds),
                "\(line.count) moves; \(s.nodes) states searched, \(s.performs) actions performed and undone (verified), \(String(format: "%.3f", seconds)) s")
            row("(8) the same without the transposition table", String(format: "%.0f states/s", Double(p.nodes) / plainSeconds),
                "\(p.nodes) states searched, \(String(format: "%.3f", plainSeconds)) s")
            row("(8) what the table saves", String(format: "%.1fx fewer states, %.1fx less time", Double(p.nodes) / Double(max(1, s.nodes)),
                                                   plainSeconds / seconds),
                "\(s.transpositions) transpositions and cycles not searched again")
        }
    }
}
