import ArgumentParser

/// What `rulebench serve` takes, and its help. Both `rulebench serve` (which
/// checks them, then runs `rulebench-serve serve` in its place) and
/// `rulebench-serve` parse these, so both refuse the same arguments the same way.
package struct ServeArguments: ParsableArguments {
    package static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve matches that several people play together, each from their own seat.",
        discussion: """
            Listens on 127.0.0.1 (unless --host says otherwise) and prints its address, which ends in this \
            run's secret token (?token=...). The lobby is an HTTP JSON API under /api (docs/multiplayer.md): \
            create a match, list matches, join a seat (the answer is the seat's credential), and a WebSocket \
            per match to play or watch. Every accepted call is written and synced to the data folder before \
            it is acknowledged; on start every live match is resumed by replaying its log, every hash verified.

            Examples:
              rulebench serve desert --port 8050
              rulebench join 'http://127.0.0.1:8050/?token=...' --match 1 --seat p1 --credential ...

            Ctrl-C or SIGTERM ends it (exit 0). Exit codes: 2 the port or the data folder cannot be used, \
            or rulebench-serve is not beside rulebench.
            """
    )

    @Argument(help: "The packs matches may be created of (names under rules/ or folders); none: any.")
    package var packs: [String] = []

    @Option(help: "The port to serve on (0: any free port; the address printed says which).")
    package var port: UInt16 = 8050

    @Option(help: "The address to listen on. Anything other than 127.0.0.1 or ::1 lets other machines connect (a warning is printed).")
    package var host = "127.0.0.1"

    @Option(help: "The folder the matches live in (created, readable by its owner only).")
    package var data = ".rulebench/matches"

    @Option(name: .customLong("bot"), help: ArgumentHelp(
        "A seat the server plays in every match created without \"bots\" (random or greedy), such as p2=random; repeat for more seats.",
        valueName: "SEAT=KIND"))
    package var bots: [String] = []

    package init() {}

    /// These arguments written out again, as `rulebench-serve serve` reads them.
    package var written: [String] {
        ["--port", "\(port)", "--host", host, "--data", data] + bots.flatMap { ["--bot", $0] } + ["--"] + packs
    }
}
