// rulebench-bench: the figures of DESIGN §7 and of the engine-core issue,
// measured side by side in one run. Run it in release mode: `make bench`.
import Foundation
import Rulebench

/// Seconds taken by `body`, best of `repeats` (the least disturbed run).
func best(_ repeats: Int = 5, _ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<repeats {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return times.sorted()[times.count / 2]   // the median
}

func configuration(budget: Int64 = 10_000_000, strict: Bool = true) -> Game.Configuration {
    var c = Game.Configuration()
    c.instructionBudget = budget
    c.strict = strict
    c.printHandler = { _ in }
    return c
}

/// Fixed games of legal actions (each from setup): the same for every variant measured.
func sequence(pack: String, length: Int, seed: Int64) throws -> [[ActionCall]] {
    let game = try Game(pack: pack, seed: seed, configuration: configuration())
    var games: [[ActionCall]] = [[]]
    var total = 0
    var step = 0
    while total < length {
        let legal = try game.legalActions()
        if legal.isEmpty || games[games.count - 1].count >= 200 {
            try game.rewind()
            games.append([])
            step += 1
            continue
        }
        let call = legal[(step * 7919 + games.count) % legal.count]
        try game.perform(call)
        games[games.count - 1].append(call)
        total += 1
        step += 1
    }
    return games
}

/// Perform + undo of each action of the sequence, from the state it was recorded in.
func performUndoRate(pack: String, games: [[ActionCall]], seed: Int64, config: Game.Configuration) throws -> Double {
    let game = try Game(pack: pack, seed: seed, configuration: config)
    let seconds = try best(3) {
        for calls in games {
            try game.rewind()
            for call in calls {
                // perform, undo (verified in strict mode), then redo to move on
                try game.perform(call)
                try game.undo()
                try game.redo()
            }
        }
    }
    return Double(games.map(\.count).reduce(0, +)) / seconds
}

func row(_ name: String, _ value: String) { print(name.padding(toLength: 58, withPad: " ", startingAt: 0) + value) }

let packs = CommandLine.arguments.dropFirst().isEmpty ? ["template"] : Array(CommandLine.arguments.dropFirst())
print("Rulebench benchmarks (release build, medians); machine: \(ProcessInfo.processInfo.processorCount) cores")
for pack in packs {
    let games = try sequence(pack: pack, length: 2000, seed: 3)
    let strictRate = try performUndoRate(pack: pack, games: games, seed: 3, config: configuration())
    let looseRate = try performUndoRate(pack: pack, games: games, seed: 3, config: configuration(strict: false))
    let noHookRate = try performUndoRate(pack: pack, games: games, seed: 3, config: configuration(budget: 0))
    row("\(pack): perform+undo+redo, strict (actions/s)", String(format: "%.0f", strictRate))
    row("\(pack): perform+undo+redo, not strict (actions/s)", String(format: "%.0f", looseRate))
    row("\(pack): strict, instruction hook off (actions/s)", String(format: "%.0f", noHookRate))
    row("\(pack): cost of the instruction hook", String(format: "%+.1f%%", (noHookRate / strictRate - 1) * 100))

    let firstAction = try best(9) {
        let game = try Game(pack: pack, seed: 3, configuration: configuration())
        try game.perform(games[0][0])
    }
    row("\(pack): load pack + setup + first action (ms)", String(format: "%.2f", firstAction * 1000))
}
