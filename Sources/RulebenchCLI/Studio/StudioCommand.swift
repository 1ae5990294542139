import ArgumentParser
import FlyingFox
import FlyingSocks
import Foundation
import Rulebench

/// `rulebench studio PACK | SCENARIO.yaml | HISTORY.json | FINDING.yaml`: a
/// local web page to play, scrub and watch a game (see docs/studio.md).
struct StudioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract: "Open a game in the browser: the board, legal calls, a verified history slider, animations.",
        discussion: """
            Serves a web page on 127.0.0.1 (unless --host says otherwise) and prints its address. The page \
            shows the pack's board, its legal calls as buttons, Undo, Redo and undo turn, a History slider \
            whose every move is a real verified undo or redo in the engine, the state hash and the state \
            with the slots the step changed, each step's animation, and Save. Every open tab shows the same \
            game. A call typed into the page is read as `play` reads one (name="a b" is one param). When a \
            file of the pack, or of a base pack it extends, changes, the pack is reloaded and the history \
            replayed with the new rules; the page names the first step that now differs or fails.

            What it opens:
              PACK            a new game (--seed, --option apply)
              HISTORY.json    a saved history, replayed and verified
              SCENARIO.yaml   a scenario played to its end, failures marked at their steps
              FINDING.yaml    a fuzz finding (fuzz --out), opened at its failing step:
                              property, differing slots, blamed file:line and its source

            Examples:
              rulebench studio desert
              rulebench studio scenarios/cards/deal-staggered-and-undone.yaml --port 8080
              rulebench studio findings/template-undoRestores-dash_step-step.lua-30.yaml

            Ctrl-C ends it (exit 0). Exit codes: 2 the file or pack cannot be used, or the port cannot be opened.
            """
    )

    @Argument(help: "A pack (a name under rules/ or a folder), a saved history (.json), a scenario or a fuzz finding (.yaml).")
    var source: String

    @Option(help: "The port to serve on (0: any free port; the address printed says which).")
    var port: UInt16 = 8040

    @Option(help: "The address to listen on. Anything other than 127.0.0.1 or ::1 lets other machines open the game.")
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "Seed of a new game's random generator (a pack only).",
            transform: NumberArgument.whole("--seed"))
    var seed: Int64 = PlayCommand.defaultSeed

    @Option(name: .customLong("option"), help: "A setup option of a new game, key=value (repeatable; a pack only).")
    var setupOptions: [String] = []

    func run() throws {
        let studioSource = StudioSource(argument: source)
        let session: StudioSession
        let address: any SocketAddress
        do {
            address = host.contains(":") ? try sockaddr_in6.inet6(ip6: host, port: port) as any SocketAddress
                                         : try sockaddr_in.inet(ip4: host, port: port)
        } catch {
            complain("--host \(host): not an IP address (give one such as 127.0.0.1 or ::1)")
            throw Outcome.badInput.exitCode
        }
        do {
            var configuration = Game.Configuration()
            configuration.printHandler = { text in FileHandle.standardError.write(Data(("print: " + text + "\n").utf8)) }
            let options = try PackOptions.setupOptionValues(setupOptions, pack: source)
            session = try StudioSession(source: studioSource, seed: seed, options: options, configuration: configuration)
        } catch let error as RulebenchError {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        try StudioServer(session: session, address: address, asked: host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
            .runUntilInterrupted()
    }
}
