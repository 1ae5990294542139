import Foundation
import Rulebench

/// Row (14): `solve --value` (GameValue) against a plain-Lua negamax with
/// alpha-beta and a transposition table over the same pack files
/// (PlainNegamax.swift), side by side in one run (`rulebench-bench --value
/// [ROUNDS] [unbudgeted]`): the time to prove tic-tac-toe a draw and the
/// states searched per second, each timed in CPU seconds of the process,
/// each on a fresh game with an empty table. The two searches alternate,
/// ROUNDS times (default 5), and the best time of each is compared, so
/// that a load that comes and goes weighs on both alike. `unbudgeted` makes
/// the game without an instruction budget (for callgrind: a watched call
/// slowed by valgrind is never run again counted). Goal: at most 2x slower
/// per state than the plain search.
enum ValueBench {
    static let pack = "rules/tictactoe"

    static func rows(rounds: Int = 5, budgeted: Bool = true) throws {
        var result: GameValue.Result?
        var best = Double.infinity, plainBest = Double.infinity
        var plain: PlainNegamax.Result?
        for _ in 0..<max(rounds, 1) {
            let seconds = try cpuMedian(1) {
                let game = try Game(pack: pack, seed: 0, configuration: configuration(budget: budgeted ? 10_000_000 : 0))
                result = try GameValue(game: game, maxDepth: 9).run()
            }
            best = min(best, seconds)
            let round = try PlainNegamax.value(pack: pack, options: [:], repeats: 1)
            plainBest = min(plainBest, round.seconds)
            plain = round
        }
        guard let result, result.verdict == .draw else { throw BenchError("solve --value tictactoe: \(String(describing: result?.outcome))") }
        guard let plain, plain.value == 0 else { throw BenchError("plain negamax: tic-tac-toe not valued a draw") }
        let s = result.statistics
        let perSecond = Double(s.nodes) / best
        row("(14) solve --value tictactoe: a draw, proven", String(format: "%.3f s CPU", best),
            "\(s.nodes) states searched, \(s.hits) table hits, \(s.performs) actions performed and undone (verified); "
            + String(format: "%.0f states/s; best of %d rounds", perSecond, rounds))
        let plainPerSecond = Double(plain.nodes) / plainBest
        row("(14) plain-Lua negamax, same files", String(format: "%.3f s CPU", plainBest),
            "\(plain.nodes) states searched, plain tables, no checks; " + String(format: "%.0f states/s; best of %d rounds", plainPerSecond, rounds))
        row("(14) --value relative to plain negamax", String(format: "%.2fx slower per state", plainPerSecond / perSecond),
            String(format: "%.2fx its time; goal: at most 2x slower per state", best / plainBest))
    }
}
