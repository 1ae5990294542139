// The crash test's player (Tests/RulebenchTests/Match/MatchCrashTests.swift):
// plays several matches of a pack through `Match` and a `SQLiteMatchStore`
// in a data folder, printing one line per event, so that the test can kill
// it with SIGKILL at any moment and start it again on the same folder.
//
// Invariant it makes visible: an `ack` line is printed only after `handle`
// returned `.accepted`, that is after the step was written and synced. Each
// request is a pure function of the match's state at its version (which
// call, which seat, the client call id `m<match>-v<version>`), so after a
// restart the driver sends exactly what it would have sent: the last
// accepted request again (which must be answered from the log, `again`),
// and then the next one, performed once. It keeps `--matches` matches
// playing (one whose game is over is finished, and another created) until
// the store holds `--steps` steps in all (or `--more` steps more than it
// held when this start began), then prints `done`.
//
//   RulebenchMatchCrashDriver --data DIR --rules DIR [--pack desert] [--players 3]
//                             [--matches 3] [--steps 120 | --more N] [--seed 1]
//
// Lines: `resumed ID VERSION`, `created ID`, `again ID VERSION CID`,
// `send ID VERSION CID`, `ack ID VERSION CID HASH`, `finished ID`, `done`;
// on anything unexpected `error ...` and a non-zero exit.
import Foundation
import Rulebench
import RulebenchMatch

/// One line on standard output, written at once (no buffer a SIGKILL could lose).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ line: String, _ status: Int32) -> Never {
    say("error " + line)
    exit(status)
}

/// The arguments: `--name value` pairs.
struct DriverArguments {
    var data = "", rules = "", pack = "desert"
    var players = 3, matches = 3, steps = 120
    /// Play this many steps more than the store holds, instead of up to `steps`.
    var more: Int?
    var seed: Int64 = 1

    init(_ arguments: [String]) {
        var index = 0
        func value() -> String {
            index += 1
            guard index < arguments.count else { fail("\(arguments[index - 1]) needs a value", 2) }
            return arguments[index]
        }
        func number(_ text: String, _ range: ClosedRange<Int>) -> Int {
            guard let n = Int(text), range.contains(n) else { fail("\(text) is not a number in \(range)", 2) }
            return n
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--data": data = value()
            case "--rules": rules = value()
            case "--pack": pack = value()
            case "--players": players = number(value(), 1...MatchSetup.maximumSeats)
            case "--matches": matches = number(value(), 1...50)
            case "--steps": steps = number(value(), 1...1_000_000)
            case "--more": more = number(value(), 0...100_000)
            case "--seed": seed = Int64(number(value(), 0...Int(Int32.max)))
            case let other: fail("unknown argument \(other)", 2)
            }
            index += 1
        }
        guard !data.isEmpty, !rules.isEmpty else { fail("--data and --rules are required", 2) }
    }
}

/// The request a match's client sends at its current version, or nil when
/// no seat has a call to make (the game is over).
func request(in match: Match) throws -> MatchRequest? {
    var random = FuzzRandom(seed: UInt64(bitPattern: match.setup.seed) &* 1_000_003 &+ UInt64(match.version))
    let id = ClientCallID("m\(match.id.value)-v\(match.version)")!
    let game = match.game
    // Now and then the seat of the last step, a call (so in effect), takes it back, unless it finished a turn
    // or is an undo barrier (it drew or revealed).
    if let last = match.records.last, case .call = last.step, game.history.cursor > 0, match.barrier(of: last.version) == nil,
       !game.history.entries[game.history.cursor - 1].isCheckpoint, random.below(6) == 0 {
        return MatchRequest(seat: last.seat, clientCallID: id, expectedVersion: match.version, action: .takeBack(consent: []))
    }
    let calls = try game.legalActions().filter { call in
        if case .string(let seat)? = call.params["player"] { return match.setup.seats.contains(seat) }
        return false
    }
    guard !calls.isEmpty else { return nil }
    let call = calls[random.below(calls.count)]
    guard case .string(let seat)? = call.params["player"] else { return nil }
    return MatchRequest(seat: seat, clientCallID: id, expectedVersion: match.version, action: .perform(call))
}

/// The request that made `record`, as its client sent it.
func resent(_ record: MatchRecord) -> MatchRequest {
    let action: MatchRequest.Action
    switch record.step {
    case .call(let call): action = .perform(call)
    case .takeback: action = .takeBack(consent: [])
    }
    return MatchRequest(seat: record.seat, clientCallID: record.clientCallID, expectedVersion: record.version - 1, action: action)
}

func run() throws {
    let arguments = DriverArguments(Array(CommandLine.arguments.dropFirst()))
    let store = try SQLiteMatchStore(folder: URL(fileURLWithPath: arguments.data))
    var configuration = Game.Configuration()
    configuration.rulesDirectory = URL(fileURLWithPath: arguments.rules)
    configuration.printHandler = { _ in }
    let engine = MatchEngine(configuration: configuration)

    var matches: [Match] = []
    let recovery = try MatchRecovery.resumeLive(store: store, engine: engine) { matches.append($0) }
    if let refused = recovery.refused.first { fail("refused \(refused)", 3) }
    for match in matches {
        say("resumed \(match.id.value) \(match.version)")
        // The last request may have been acknowledged or not before the kill: send it again.
        guard let last = match.records.last else { continue }
        guard case .answeredAgain(let record, _) = match.handle(resent(last)), record == last else {
            fail("\(match.id) answered its last request again with something else than its record", 4)
        }
        say("again \(match.id.value) \(record.version) \(record.clientCallID)")
    }
    try play(matches, store: store, engine: engine, arguments: arguments)
    say("done")
}

/// Every step of every match the store holds, finished ones included (ids count from 1).
func stepsTaken(in store: SQLiteMatchStore) throws -> (steps: Int, matches: Int) {
    var steps = 0, count = 0
    while let id = MatchID(Int64(count + 1)) {
        do { steps += try store.log(of: id).version } catch {
            guard error.kind == .unknownMatch else { throw error }
            return (steps, count)
        }
        count += 1
    }
    return (steps, count)
}

/// Plays the live matches in turn, one request each, keeping `--matches`
/// of them playing (a match whose game is over is finished and a new one
/// created), until the store holds `--steps` steps in all (or `--more` steps more than it held).
func play(_ resumed: [Match], store: SQLiteMatchStore, engine: MatchEngine, arguments: DriverArguments) throws {
    var playing = resumed
    var (total, created) = try stepsTaken(in: store)
    let target = arguments.more.map { total + $0 } ?? arguments.steps
    while total < target {
        while playing.count < arguments.matches {
            created += 1
            let match = try Match.create(pack: arguments.pack, options: ["players": .int(Int64(arguments.players))],
                                         seed: arguments.seed + Int64(created), seats: (1...arguments.players).map { "p\($0)" },
                                         store: store, engine: engine)
            say("created \(match.id.value)")
            playing.append(match)
        }
        for match in playing where total < target {
            guard let request = try request(in: match) else {
                try match.finish(result: "no call left")
                say("finished \(match.id.value)")
                continue
            }
            say("send \(match.id.value) \(match.version) \(request.clientCallID)")
            switch match.handle(request) {
            case .accepted(let record, _):
                say("ack \(match.id.value) \(record.version) \(record.clientCallID) \(record.hash)")
                total += 1
            case let other:
                fail("\(match.id) did not accept \(request.clientCallID): \(other)", 5)
            }
        }
        playing.removeAll(where: \.isFinished)
    }
}

do {
    try run()
} catch {
    fail("\(error)", 1)
}
