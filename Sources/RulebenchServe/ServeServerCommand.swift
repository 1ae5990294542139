import ArgumentParser
import Foundation
import Rulebench
import RulebenchCommandLine
import RulebenchMatch
import RulebenchServer

/// `rulebench serve`: opens the data folder, resumes every live match by
/// verified replay (a log that no longer replays is reported and left
/// alone), then serves the lobby and the matches until SIGINT or SIGTERM,
/// and exits 0. Every step is written and synced before it is
/// acknowledged, so nothing acknowledged is left to write when it stops.
struct ServeServerCommand: ParsableCommand {
    static let configuration: CommandConfiguration = {
        var configuration = ServeArguments.configuration
        configuration.commandName = "serve"
        return configuration
    }()

    @OptionGroup var arguments: ServeArguments

    /// The server's bounds: the studio's, but room for two clients of each of
    /// `Lobby.maximumMatches` (the studio's 64 connections are two clients of 32 matches).
    static let limits: ServerLimits = {
        var limits = ServerLimits()
        limits.connections = 2 * Lobby.maximumMatches
        return limits
    }()

    func run() throws {
        catchInterrupts()
        guard let endpoint = ServerEndpoint(host: arguments.host, port: arguments.port) else {
            complain("--host \(arguments.host): not an IP address (give one such as 127.0.0.1 or ::1)")
            throw Outcome.badInput.exitCode
        }
        let folder = URL(fileURLWithPath: arguments.data)
        let store: SQLiteMatchStore, credentials: SeatCredentials
        do {
            store = try SQLiteMatchStore(folder: folder)
            credentials = try SeatCredentials(folder: folder)
        } catch {
            complain("cannot open the matches in \(arguments.data): \(error)")
            throw Outcome.badInput.exitCode
        }
        var configuration = Game.Configuration()
        configuration.printHandler = { text in FileHandle.standardError.write(Data(("print: " + text + "\n").utf8)) }
        let engine = MatchEngine(configuration: configuration)
        var bots: [String: MatchBot] = [:]
        for given in arguments.bots {
            let parts = given.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, MatchSetup.problem(seats: [parts[0]]) == nil, let bot = MatchBot(rawValue: parts[1]) else {
                complain("--bot \(given.prefix(60)): write SEAT=KIND, KIND one of \(MatchBot.forms) (--bot p2=random)")
                throw Outcome.badInput.exitCode
            }
            bots[parts[0]] = bot
        }
        let lobby: Lobby
        do {
            lobby = try Lobby(store: store, engine: engine, credentials: credentials, packs: arguments.packs, bots: bots)
        } catch {
            complain("cannot read the matches in \(arguments.data): \(error)")
            throw Outcome.badInput.exitCode
        }
        for (match, version) in lobby.resumedVersions { print("resumed match \(match.value) at version \(version)") }
        for refusal in lobby.recovery.refused { complain("not resumed: \(refusal)") }
        let server: LocalServer
        do {
            server = try LocalServer(endpoint: endpoint, limits: Self.limits)
        } catch {
            complain("cannot serve on \(endpoint.asked): \(error) (another port with --port, or --port 0 for any free one)")
            throw Outcome.badInput.exitCode
        }
        if let warning = endpoint.exposureWarning { complain(warning) }
        print("Rulebench matches: \(server.access.address)  (Ctrl-C ends it)")
        fflush(nil)
        if let failure = serve(server, lobby: lobby) {
            complain("cannot serve on \(endpoint.asked): \(failure)")
            throw Outcome.badInput.exitCode
        }
    }

    /// Serves until SIGINT or SIGTERM; the server's failure, or nil.
    private func serve(_ server: LocalServer, lobby: Lobby) -> String? {
        server.runBlocking(ServeRoutes(lobby: lobby)) {
            await lobby.startBots()
            while !wasInterrupted, !Task.isCancelled { try? await Task.sleep(for: .milliseconds(100)) }
            await lobby.closeAll()
        }
    }
}
