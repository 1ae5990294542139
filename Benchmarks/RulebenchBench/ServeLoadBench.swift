import Foundation
import Rulebench

/// Row (13): `rulebench-serve` under load, over loopback. The bench starts
/// the real server (the release `rulebench-serve` next to this executable,
/// a fresh data folder, any free port) as a separate process, creates
/// `matches` desert matches of two seats through the lobby's HTTP API,
/// joins both seats of each, and opens one WebSocket per seat: 2 x
/// `matches` clients, all polled by one thread of this process.
///
/// The load is paced, not closed-loop: each match makes its next call
/// `matches / offered` seconds after its last call was sent (or at once
/// when its answers came later than that), so the server is offered
/// `offered` calls a second in all, and a call's time is the server's, not
/// a queue the bench built. A call is a legal call of a seat that has one
/// (from the `legal` the server sent with its last step), picked by a
/// fixed-seed generator. Its time runs from just before it is sent to the
/// moment both clients hold its step: the sender's `accepted` and the
/// other seat's `step`. A match whose game ended is replaced by a new one
/// (created, joined and connected by a second thread), so `matches` play
/// throughout. Memory per idle match: the server's resident memory
/// (/proc/PID/statm) once every match is created, joined, connected and
/// synced, less before the first, divided by `matches`; and again after
/// the run, over every match the server then holds.
/// Goals (issue 41): at least 500 calls/s in all, p99 under 50 ms, under 2 MB per idle match.
enum ServeLoadBench {
    static let matches = 200
    static let offered = 550.0
    static let seconds = 20.0

    static func rows() throws {
        let server = try ServeProcess.start(packs: ["desert"])
        defer { server.stop() }
        let base = server.residentBytes()
        var load = ServeLoad(server: server, matches: matches, offered: offered)
        try load.fill()
        let idle = server.residentBytes()
        let load1 = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first ?? "?"
        let cpuBefore = server.cpuSeconds(), clientBefore = ServerBench.cpuSeconds(), waitedBefore = server.waitedSeconds()
        let result = try load.run(seconds: seconds)
        let cpu = server.cpuSeconds() - cpuBefore, client = ServerBench.cpuSeconds() - clientBefore
        let waited = server.waitedSeconds() - waitedBefore
        let after = server.residentBytes()
        let latencies = result.latencies.sorted()
        func quantile(_ q: Double) -> Double {
            latencies.isEmpty ? .nan : latencies[min(latencies.count - 1, Int(Double(latencies.count) * q))] * 1000
        }
        row("(13) rulebench-serve: \(matches) desert matches x 2 clients, loopback WebSockets",
            String(format: "%.0f calls/s", Double(latencies.count) / result.elapsed),
            String(format: "%d calls in %.1f s (offered %.0f/s); call to every peer's step p50 %.1f ms, p99 %.1f ms, max %.1f ms; "
                   + "CPU per call: server %.2f ms, clients %.2f ms; the server's threads waited %.1f s in all for a core; "
                   + "%d refused or lost, %d in flight at the end; "
                   + "%d games ended and replaced; load average %@ at the start; goal: 500 calls/s, p99 under 50 ms",
                   latencies.count, result.elapsed, offered, quantile(0.5), quantile(0.99), (latencies.last ?? .nan) * 1000,
                   cpu * 1000 / Double(max(1, latencies.count)), client * 1000 / Double(max(1, latencies.count)), waited,
                   result.failures, result.inFlight, result.replaced, String(load1)))
        row("(13) rulebench-serve: memory per idle match (created, 2 seats joined and connected)",
            String(format: "%.2f MB resident", Double(idle - base) / Double(matches) / 1e6),
            String(format: "after the run %.2f MB per match over the %d the server holds; goal: under 2 MB",
                   Double(after - base) / Double(matches + result.replaced) / 1e6, matches + result.replaced))
    }
}
