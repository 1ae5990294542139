import ArgumentParser
import Foundation
import RulebenchCommandLine
import XCTest

/// `rulebench studio` hands its arguments to `rulebench-studio`, the program
/// beside it, and runs it in its place. Each test ends before a server
/// would start: the studio's own refusals show what reached it.
final class StudioLauncherTests: XCTestCase {
    private var scratch: URL!
    private var repository: URL { EngineFixtures.repository }

    override func setUpWithError() throws {
        scratch = try scratchFolder("studio-launch")
    }

    func testTheStudioReadsWhatRulebenchStudioWasGiven() throws {
        let host = try RulebenchCommand.run(["studio", "desert", "--host", "nowhere", "--port", "0"], in: repository)
        XCTAssertEqual(host.status, 2, host.output)
        XCTAssertEqual(host.stderr, "rulebench: --host nowhere: not an IP address (give one such as 127.0.0.1 or ::1)\n")

        let option = try RulebenchCommand.run(["studio", "desert", "--option", "nosuch=1", "--seed", "-3", "--port", "0"], in: repository)
        XCTAssertEqual(option.status, 2, option.output)
        XCTAssertTrue(option.stderr.contains("option 'nosuch' is not an option of pack 'desert'"), option.stderr)

        // A source that begins with a dash stays the source on its way over.
        let dashed = try RulebenchCommand.run(["studio", "--port", "0", "--", "-odd"], in: repository)
        XCTAssertEqual(dashed.status, 2, dashed.output)
        XCTAssertTrue(dashed.stderr.contains("unknown rule pack '-odd'"), dashed.stderr)
    }

    func testBadArgumentsAreRefusedBeforeTheStudioStarts() throws {
        let refused = try RulebenchCommand.run(["studio", "desert", "--seed", "x"], in: repository)
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.hasPrefix("rulebench: The value 'x' is invalid for '--seed <seed>'"), refused.stderr)
    }

    func testALinkToRulebenchFindsTheStudioBesideTheRealOne() throws {
        let link = scratch.appendingPathComponent("rulebench")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: try RulebenchCommand.binary())
        let (process, out, err) = try RulebenchCommand.start(link, ["studio", "desert", "--host", "nowhere"], in: repository)
        let result = RulebenchCommand.finish(process, out, err)
        XCTAssertEqual(result.stderr, "rulebench: --host nowhere: not an IP address (give one such as 127.0.0.1 or ::1)\n")
    }

    func testWithoutTheStudioBesideItRulebenchSaysHowToBuildIt() throws {
        let alone = scratch.appendingPathComponent("rulebench")
        try FileManager.default.copyItem(at: try RulebenchCommand.binary(), to: alone)
        let (process, out, err) = try RulebenchCommand.start(alone, ["studio", "desert"], in: repository)
        let result = RulebenchCommand.finish(process, out, err)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("runs \(scratch.resolvingSymlinksInPath().path)/rulebench-studio, which is not there"), result.stderr)
        XCTAssertTrue(result.stderr.contains("swift build --product rulebench-studio"), result.stderr)
    }

    /// What `rulebench studio` writes out is read back as the same arguments.
    func testTheArgumentsWrittenOutReadBackTheSame() throws {
        let given = try StudioArguments.parse(["--seed", "-5", "--option", "roles=a b", "--option", "players=3",
                                                "--port", "0", "--host", "::1", "--", "-odd"])
        let read = try StudioArguments.parse(given.written)
        XCTAssertEqual(read.source, "-odd")
        XCTAssertEqual(read.seedOption.seed, -5)
        XCTAssertEqual(read.setupOptions, ["roles=a b", "players=3"])
        XCTAssertEqual(read.port, 0)
        XCTAssertEqual(read.host, "::1")
        XCTAssertEqual(try StudioArguments.parse(["desert"]).written, ["--port", "8040", "--host", "127.0.0.1", "--seed", "1", "--", "desert"])
    }
}
