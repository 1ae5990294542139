import Foundation
import Rulebench

/// Row (14): `solve --value` (GameValue) against a plain-Lua negamax with
/// alpha-beta and a transposition table over the same pack files
/// (PlainNegamax.swift), side by side in one run (`rulebench-bench
/// --value`): the time to prove tic-tac-toe a draw and the states searched
/// per second, each timed in CPU seconds of the process (the median of
/// three), each on a fresh game with an empty table. Goal: at most 2x
/// slower per state than the plain search.
enum ValueBench {
    static let pack = "rules/tictactoe"

    static func rows() throws {
        var result: GameValue.Result?
        let seconds = try cpuMedian(3) {
            let game = try Game(pack: pack, seed: 0, configuration: configuration())
            result = try GameValue(game: game, maxDepth: 9).run()
        }
        guard let result, result.verdict == .draw else { throw BenchError("solve --value tictactoe: \(String(describing: result?.outcome))") }
        let s = result.statistics
        let perSecond = Double(s.nodes) / seconds
        row("(14) solve --value tictactoe: a draw, proven", String(format: "%.3f s CPU", seconds),
            "\(s.nodes) states searched, \(s.hits) table hits, \(s.performs) actions performed and undone (verified); "
            + String(format: "%.0f states/s", perSecond))
        let plain = try PlainNegamax.value(pack: pack, options: [:], repeats: 3)
        guard plain.value == 0 else { throw BenchError("plain negamax: tic-tac-toe valued \(plain.value), not a draw") }
        let plainPerSecond = Double(plain.nodes) / plain.seconds
        row("(14) plain-Lua negamax, same files", String(format: "%.3f s CPU", plain.seconds),
            "\(plain.nodes) states searched, plain tables, no checks; " + String(format: "%.0f states/s", plainPerSecond))
        row("(14) --value relative to plain negamax", String(format: "%.2fx slower per state", plainPerSecond / perSecond),
            String(format: "%.2fx its time; goal: at most 2x slower per state", seconds / plain.seconds))
    }
}
