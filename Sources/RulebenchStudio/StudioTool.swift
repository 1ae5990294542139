import ArgumentParser
import FlyingFox
import FlyingSocks
import Foundation
import Rulebench
import RulebenchCommandLine

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
        let address: any SocketAddress
        let host = arguments.host, port = arguments.port
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
            let options = try PackOptions.setupOptionValues(arguments.setupOptions, pack: arguments.source)
            session = try StudioSession(source: StudioSource(argument: arguments.source), seed: arguments.seed,
                                        options: options, configuration: configuration)
        } catch let error as RulebenchError {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        try StudioServer(session: session, address: address, asked: host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
            .runUntilInterrupted()
    }
}
