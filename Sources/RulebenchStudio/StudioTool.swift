import ArgumentParser
import Foundation
import Rulebench
import RulebenchCommandLine
import RulebenchServer

/// `rulebench-studio PACK | SCENARIO.yaml | HISTORY.json | FINDING.yaml`:
/// a local web page to play, scrub and watch a game (see docs/studio.md).
/// `rulebench studio` runs this program in its place (`StudioLauncher`);
/// it is a program of its own so that the web server, and the libraries it
/// loads, stay out of every other command's start.
@main
struct StudioTool: ParsableCommand {
    static let configuration: CommandConfiguration = {
        var configuration = StudioArguments.configuration
        configuration.commandName = "rulebench studio"
        return configuration
    }()

    @OptionGroup var arguments: StudioArguments

    static func main() { runAsMain() }

    func run() throws {
        let session: StudioSession
        guard let endpoint = ServerEndpoint(host: arguments.host, port: arguments.port) else {
            complain("--host \(arguments.host): not an IP address (give one such as 127.0.0.1 or ::1)")
            throw Outcome.badInput.exitCode
        }
        do {
            var configuration = Game.Configuration()
            configuration.printHandler = { text in FileHandle.standardError.write(Data(("print: " + text + "\n").utf8)) }
            let options = try PackOptions.setupOptionValues(arguments.setupOptions, pack: arguments.source)
            session = try StudioSession(source: StudioSource(argument: arguments.source), seed: arguments.seedOption.seed,
                                        options: options, configuration: configuration, preview: arguments.sequence)
        } catch let error as RulebenchError {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        try StudioServer(session: session, endpoint: endpoint).runUntilInterrupted()
    }
}
