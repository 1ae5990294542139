import Foundation
import Rulebench
import RulebenchMatch

/// Row (13)'s server work a call, in process and exact: what `rulebench
/// serve` does for one accepted call of a two-seat desert match, without
/// the sockets: the call's message read (`JSONValue.parse`), `Match.handle`
/// (perform as the seat with every seat's view, append to the SQLite store,
/// sync, acknowledge), `Match.views(of:)`, every seat's legal calls
/// (`legalCallsBySeat`) and each connection's text (`StepWire`, as
/// `MatchRoom.accepted` writes them). Fixed matches, fixed calls, games
/// made without an instruction budget: under callgrind the difference
/// between two round counts is exact (`--serve-steps 2 4` minus
/// `--serve-steps 1 4`); `profile` prints Lua VM instructions per call by
/// function instead.
enum ServeStepBench {
    static func run(rounds: Int, matches: Int, profile: Bool) throws {
        let folder = URL(fileURLWithPath: ".build/bench-serve-steps-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteMatchStore(folder: folder)
        let engine = MatchEngine(configuration: configuration(budget: 0))
        var played: [Match] = []
        for number in 0..<matches {
            played.append(try Match.create(pack: "desert", options: ["players": .int(2)], seed: Int64(number), seats: ["p1", "p2"],
                                           store: store, engine: engine))
        }
        var legal = try played.map { try $0.legalCallsBySeat() }
        var calls = 0, bytes = 0
        let cpuStart = ServerBench.cpuSeconds()
        var counts: [String: Int] = [:]
        for _ in 0..<rounds {
            for (index, match) in played.enumerated() {
                let step = {
                    guard let sent = try served(match, legal[index]) else { return }
                    legal[index] = sent.legal
                    calls += 1
                    bytes += sent.bytes
                }
                if profile {
                    for (function, n) in try match.game.countInstructions(step) { counts[function, default: 0] += n }
                } else {
                    try step()
                }
            }
        }
        let cpu = ServerBench.cpuSeconds() - cpuStart
        print(String(format: "serve steps: %d calls over %d matches, %.3f ms of CPU a call, %d bytes sent a call",
                     calls, matches, cpu * 1000 / Double(max(1, calls)), bytes / max(1, calls)))
        guard profile, calls > 0 else { return }
        let total = counts.values.reduce(0, +)
        print("\(total / calls) Lua VM instructions a call; top functions:")
        for (function, n) in counts.sorted(by: { $0.value > $1.value }).prefix(30) {
            print(String(format: "  %7d  %5.1f%%  %@", n / calls, Double(n) * 100 / Double(total), function))
        }
    }

    /// One call of `match` as the server serves it: a seat with legal calls
    /// (the first, else the second) makes one picked from its `legal` by the
    /// version; nil when neither seat has one (the game ended).
    private static func served(_ match: Match, _ legal: [String: [ActionCall]]) throws -> (legal: [String: [ActionCall]], bytes: Int)? {
        guard let seat = match.setup.seats.first(where: { !(legal[$0] ?? []).isEmpty }), let mine = legal[seat] else { return nil }
        let call = mine[(match.version &* 7919) % mine.count]
        let message = "{\"type\":\"call\",\"id\":\"c\(match.version)\",\"version\":\(match.version),\"call\":"
            + StepWire.text([call]).dropFirst().dropLast() + "}"
        guard case .object? = try? JSONValue.parse(message), let id = ClientCallID("c\(match.version)") else { return nil }
        let request = MatchRequest(seat: seat, clientCallID: id, expectedVersion: match.version, action: .perform(call))
        guard case .accepted(let record, let detail) = match.handle(request) else {
            throw RulebenchError.badInput(InputProblem("a bench call was refused"))
        }
        let views = try match.views(of: detail, spectators: false)
        let next = try match.legalCallsBySeat()
        var wire = StepWire(record)
        var bytes = 0
        for other in match.setup.seats {
            let text = "{\"type\":\"step\",\"step\":" + wire.text(views[.seat(other)]) + ",\"legal\":" + StepWire.text(next[other] ?? []) + "}"
            bytes += text.utf8.count
        }
        return (next, bytes)
    }
}
