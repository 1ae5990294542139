import Foundation
import Rulebench
import RulebenchMatch

/// Row (12): matches played together, without the network (the server that
/// serves them over WebSocket is not built yet): calls per second through
/// `Match` and the SQLite store, each call performed, written, fsynced
/// (`synchronous=FULL`) and only then acknowledged; and memory per idle
/// match. Goal (issue 41): under 2 MB per idle match.
enum MatchBench {
    /// Matches played at once, and steps each plays at most (desert games end sooner when the storm wins).
    static let matches = 50
    static let steps = 40

    static func rows() throws {
        let folder = URL(fileURLWithPath: ".build/bench-matches-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteMatchStore(folder: folder)
        let engine = MatchEngine(configuration: configuration())
        let before = residentBytes()
        var played: [Match] = []
        for number in 0..<matches {
            played.append(try Match.create(pack: "desert", options: ["players": .int(3)], seed: Int64(number), seats: ["p1", "p2", "p3"],
                                           store: store, engine: engine))
        }
        var calls = 0
        let start = DispatchTime.now().uptimeNanoseconds, cpuStart = cpuSeconds()
        for step in 0..<steps {
            for match in played {
                guard let request = try request(in: match, step: step) else { continue }
                guard case .accepted = match.handle(request) else { throw RulebenchError.badInput(InputProblem("a bench call was refused")) }
                calls += 1
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let cpu = cpuSeconds() - cpuStart
        let perMatch = Double(residentBytes() - before) / Double(matches)
        let lua = Double(played.map(\.game.memoryUsed).reduce(0, +)) / Double(matches)
        row("(12) match calls through Match + SQLite store (desert, 3 seats)", String(format: "%.0f calls/s", Double(calls) / seconds),
            String(format: "%d calls over %d matches, %.2f ms each (%.2f ms of CPU): perform, append, fsync, then acknowledge",
                   calls, matches, seconds * 1000 / Double(calls), cpu * 1000 / Double(calls)))
        row("(12) memory per idle match (desert, after its calls)", String(format: "%.2f MB resident", perMatch / 1e6),
            String(format: "of which the Lua state %.2f MB; goal: under 2 MB", lua / 1e6))
    }

    /// The call a seat makes in `match` at `step`: a deterministic pick among the seats' legal calls.
    private static func request(in match: Match, step: Int) throws -> MatchRequest? {
        let calls = try match.game.legalActions().filter { $0.params["player"] != nil }
        guard !calls.isEmpty else { return nil }
        let call = calls[(step &* 7919 &+ Int(match.id.value)) % calls.count]
        guard case .string(let seat)? = call.params["player"], let id = ClientCallID("b\(match.version)") else { return nil }
        return MatchRequest(seat: seat, clientCallID: id, expectedVersion: match.version, action: .perform(call))
    }

    /// The CPU time the process has used, all threads (a figure a loaded machine does not inflate as it does wall time).
    private static func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The process's resident bytes (Linux: /proc/self/statm's second field, in pages).
    private static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
