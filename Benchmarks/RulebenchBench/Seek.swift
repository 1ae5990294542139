import Foundation
import Rulebench

/// Row (10): the studio's History slider across a long game. A seek is real
/// verified undos and redos in the engine (`Game.seek`), then what the page
/// is sent about the new position: its state and the view's scene.
/// Goal: from either end of a 1,000-step history to the other within 0.5 s.
enum SeekBench {
    static let length = 1_000

    /// A game of up to `length` actions of `pack`, each a deterministic pick among the legal ones.
    static func game(_ pack: String) throws -> Game {
        let game = try Game(pack: pack, seed: 3, configuration: configuration())
        var step = 0
        while game.history.cursor < length {
            let legal = try game.legalActions()
            if legal.isEmpty { break }
            try game.perform(legal[(step &* 7919 &+ 13) % legal.count])
            step += 1
        }
        return game
    }

    /// The lights puzzle plays on for 1,000 steps; a desert game ends sooner
    /// (the storm or the launch), so its row is its whole game, per 1,000 steps too.
    static func rows() throws {
        for pack in ["Benchmarks/packs/lights", "desert"] {
            let game = try game(pack)
            let end = game.history.cursor
            func seek(_ position: Int) throws {
                let checks = try game.seek(to: position)
                guard checks.allSatisfy(\.verified) else { throw RulebenchError.badInput(InputProblem("a seek step was not verified")) }
                _ = try game.state()
                _ = try game.scene()
            }
            let backward = try timed(from: { try seek(end) }) { try seek(0) }
            let forward = try timed(from: { try seek(0) }) { try seek(end) }
            let perThousand = end == length ? "" : String(format: " (%.3f s / %.3f s per 1,000 steps)",
                                                          backward * Double(length) / Double(end), forward * Double(length) / Double(end))
            row("(10) studio seek across \(end) steps: back to 0 / forward to \(end)", String(format: "%.3f s / %.3f s", backward, forward),
                "\(pack), verified undos and redos, then state and scene\(perThousand); goal: within 0.5 s for 1,000")
        }
    }

    /// The median seconds of 3 runs of `body`, each after `setup` (not timed).
    private static func timed(from setup: () throws -> Void, _ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<3 {
            try setup()
            times.append(try median(1, body))
        }
        return times.sorted()[1]
    }
}
