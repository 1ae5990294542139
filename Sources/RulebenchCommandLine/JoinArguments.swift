import ArgumentParser

/// What `rulebench join` takes, and its help (parsed by `rulebench join`,
/// which runs `rulebench-serve join` in its place, and by that program).
package struct JoinArguments: ParsableArguments {
    package static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Play or watch a match of `rulebench serve` from scripts: steps out as JSON lines, calls in from standard input.",
        discussion: """
            URL is the address `rulebench serve` printed (with its ?token=...). With --seat and --credential \
            (what joining the seat answered) it plays that seat; with --watch it watches. Every message the \
            server sends is printed as one JSON line. Each line read from standard input is sent: a JSON \
            message as docs/multiplayer.md describes it, or a call written as `play` reads one \
            (`move player=p1 to=b2`), sent with a new client call id and the last version seen, or \
            `takeback`, or `consent`. --since N (and --view-hash H, the view hash the client held at N) asks \
            for the steps after version N (after a reconnection); a client too far behind, or whose hash \
            differs, is sent its whole view. \
            It ends when standard input ends (after the server answered what was sent) or the server closes.

            Exit codes: 0 ended; 2 the address cannot be reached or refused the connection.
            """
    )

    @Argument(help: "The server's address, as it printed it (http://127.0.0.1:PORT/?token=...).")
    package var url: String

    @Option(help: "The match's number.")
    package var match: Int64

    @Option(help: "The seat to play.")
    package var seat: String?

    @Option(name: [.customLong("credential"), .customLong("token")], help: "The seat's credential (what joining the seat answered).")
    package var credential: String?

    @Flag(help: "Watch the match as a spectator.")
    package var watch = false

    @Option(help: "The last version this client holds: the server sends the steps after it.")
    package var since: Int = 0

    @Option(help: "The view hash this client holds at --since (the last viewHash it was sent): checked by the server.")
    package var viewHash: String?

    package init() {}

    package func validate() throws {
        guard watch != (seat != nil) else { throw ValidationError("give --seat S --credential C to play, or --watch to watch") }
        guard seat == nil || credential != nil else { throw ValidationError("--seat needs --credential (what joining the seat answered)") }
        guard since >= 0 else { throw ValidationError("--since is a version, 0 or more") }
    }

    /// These arguments written out again, as `rulebench-serve join` reads them.
    package var written: [String] {
        var out = ["--match", "\(match)", "--since", "\(since)"]
        if let seat { out += ["--seat", seat] }
        if let credential { out += ["--credential", credential] }
        if watch { out.append("--watch") }
        if let viewHash { out += ["--view-hash", viewHash] }
        return out + ["--", url]
    }
}
