import Foundation
import XCTest

/// SIGTERM and SIGINT reach a command while a rule runs long work that no
/// charge of the budget sees (comparing two long equal strings, one VM
/// instruction of C work each): the running Lua call is stopped and the
/// command ends as interrupted (exit 143 / 130), through the built binary.
/// A liveness check, not a timing goal: the bound (6 s) is generous.
final class HostileSignalCLITests: XCTestCase {
    /// An action whose every step compares two 8 MiB strings, for ever.
    static let spin = """
        return {
          legal = function(game, emit) emit({}) end,
          apply = function(game)
            local a, b = string.rep(string.rep("x", 1024), 8192), string.rep(string.rep("x", 1024), 8192)
            local n = 0
            while true do if a == b then n = n + 1 end end
          end,
        }
        """

    private func stopWhileSpinning(_ arguments: [String], signal: Int32) throws -> (RulebenchCommand.Result, Double) {
        let pack = try temporaryPack(["spin": Self.spin], manifest: "return { name = 'spin', version = '1' }")
        let folder = try scratchFolder("signal")
        let (process, stdout, stderr) = try RulebenchCommand.start(arguments + [pack.path] , in: folder)
        Thread.sleep(forTimeInterval: 2)   // well inside the spin (its backstop is 10 s)
        XCTAssertTrue(process.isRunning, "the command ended before it was stopped")
        let sent = Date()
        kill(process.processIdentifier, signal)
        // Generous against the measured 20-50 ms, yet short of the wall-clock
        // backstop (10 s into the operation, 8 s after the signal), which
        // would otherwise end the spin by itself.
        let deadline = Date().addingTimeInterval(6)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let seconds = Date().timeIntervalSince(sent)
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        let result = RulebenchCommand.finish(process, stdout, stderr)
        XCTAssertEqual(process.terminationReason, .exit, "killed instead of stopping: \(result.output)")
        print("\(arguments.first ?? "") stopped \(String(format: "%.3f", seconds)) s after the signal")
        return (result, seconds)
    }

    func testSIGTERMStopsFuzzWhileARuleRunsLongCWork() throws {
        let (result, _) = try stopWhileSpinning(["fuzz", "--runs", "1000", "--depth", "3", "--out", "out", "--corpus", "kept"],
                                                signal: SIGTERM)
        XCTAssertEqual(result.status, 143, result.output)
        XCTAssertFalse(result.output.contains("FINDING"), "the stop is not a finding: \(result.output)")
    }

    func testSIGINTStopsExploreWhileARuleRunsLongCWork() throws {
        let (result, _) = try stopWhileSpinning(["explore", "--depth", "2"], signal: SIGINT)
        XCTAssertEqual(result.status, 130, result.output)
        XCTAssertTrue(result.stderr.contains("interrupted"), result.stderr)
    }
}
