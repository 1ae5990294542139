import Foundation
import XCTest
import Rulebench
@testable import RulebenchMatch

/// Nothing acknowledged is lost, nothing is performed twice: the crash
/// driver (Tests/RulebenchMatchCrashDriver) plays desert matches through
/// `Match` and a SQLite store, and is killed with SIGKILL at seeded random
/// moments 50 times (after a random number of its lines: while it replays,
/// between sending a call and acknowledging it, between two calls) and
/// started again on the same data folder each time.
///
/// Bounded: 50 kills in at most 120 starts (each of at most 40 lines read
/// before its kill), then one run of 30 more steps to its end; no timing is asserted (a kill lands whenever the driver is when the test
/// gets to it, which is the point).
final class MatchCrashTests: XCTestCase {
    /// One acknowledged step: the driver printed `ack MATCH VERSION CID HASH`.
    private struct Ack: Hashable {
        let clientCallID: String
        let hash: String
    }

    private struct Key: Hashable {
        let match: Int64
        let version: Int
    }

    func testADriverKilledAtRandomMomentsLosesNoAcknowledgedCallAndPerformsNoneTwice() throws {
        let driver = try crashDriver()
        let data = try scratchFolder("crash")
        let rules = EngineFixtures.repository.appendingPathComponent("rules").path
        // Killed runs play toward a total they never reach, so however far a run gets before its kill lands, it is killed.
        let common = ["--data", data.path, "--rules", rules, "--pack", "desert", "--players", "3", "--matches", "3", "--seed", "41"]
        let arguments = common + ["--steps", "1000000"]
        var random = FuzzRandom(seed: 41)
        var acked: [Key: Ack] = [:]
        var kills = 0, starts = 0, answeredAgain = 0
        while kills < 50, starts < 120 {
            starts += 1
            let run = try play(driver, arguments, killAfter: random.below(40))
            if run.killed { kills += 1 } else { XCTAssertEqual(run.status, 0, "start \(starts): \(run.lines.suffix(3)) \(run.stderr)") }
            answeredAgain += try take(run.lines, into: &acked, start: starts)
        }
        XCTAssertEqual(kills, 50, "every start was killed")
        let last = try play(driver, common + ["--more", "30"], killAfter: nil)
        XCTAssertEqual(last.status, 0, "\(last.lines.suffix(3)) \(last.stderr)")
        XCTAssertEqual(last.lines.last, "done")
        answeredAgain += try take(last.lines, into: &acked, start: starts + 1)
        XCTAssertGreaterThan(answeredAgain, 40, "restarts answered the last request again from the log")

        try checkStore(at: data, holds: acked)
        print("MatchCrashTests: \(kills) kills in \(starts) starts, \(acked.count) steps acknowledged, \(answeredAgain) answered again after a restart")
    }

    /// The store, opened again: every live match replays with every hash
    /// verified, every acknowledged step is in its log as acknowledged, and
    /// no seat's client call id is in a log twice.
    private func checkStore(at data: URL, holds acked: [Key: Ack]) throws {
        let store = try SQLiteMatchStore(folder: data)
        let engine = matchEngine()
        let recovery = try MatchRecovery.resumeLive(store: store, engine: engine) { _ in }
        XCTAssertTrue(recovery.refused.isEmpty, "\(recovery.refused)")
        var logs: [Int64: MatchLog] = [:]
        var id: Int64 = 1
        while let match = MatchID(id), let log = try? store.log(of: match) {
            logs[id] = log
            let ids = log.records.map { "\($0.seat) \($0.clientCallID)" }
            XCTAssertEqual(Set(ids).count, ids.count, "\(match): a client call id performed twice")
            id += 1
        }
        XCTAssertGreaterThanOrEqual(logs.values.reduce(0) { $0 + $1.version }, acked.count)
        XCTAssertGreaterThan(acked.count, 200, "the runs played")
        for (key, ack) in acked {
            guard let log = logs[key.match], key.version <= log.version else {
                XCTFail("acknowledged step \(key.version) of match \(key.match) is missing")
                continue
            }
            let record = log.records[key.version - 1]
            XCTAssertEqual(record.clientCallID.text, ack.clientCallID, "match \(key.match) version \(key.version)")
            XCTAssertEqual(record.hash.hex, ack.hash, "match \(key.match) version \(key.version)")
        }
        // A finished match is not replayed by recovery: replay each here, from its log.
        for log in logs.values where log.status != .live {
            let game = try engine.game(log.setup)
            XCTAssertNoThrow(try Match.replay(log.records, of: log.setup, into: game, seats: engine.seats,
                                              place: Match.Place(store: store.location, match: log.id)))
        }
    }

    /// Takes a run's `ack` lines into `acked`, failing on a step acknowledged
    /// twice or differently; returns how many `again` lines it printed.
    private func take(_ lines: [String], into acked: inout [Key: Ack], start: Int) throws -> Int {
        var again = 0
        for line in lines {
            let words = line.split(separator: " ").map(String.init)
            switch words.first {
            case "ack":
                guard words.count == 5, let match = Int64(words[1]), let version = Int(words[2]) else {
                    XCTFail("start \(start): malformed line \(line)")
                    continue
                }
                let key = Key(match: match, version: version)
                XCTAssertNil(acked[key], "start \(start): match \(match) version \(version) acknowledged twice")
                acked[key] = Ack(clientCallID: words[3], hash: words[4])
            case "again":
                again += 1
            case "error":
                XCTFail("start \(start): \(line)")
            default:
                break
            }
        }
        return again
    }

    /// What one start of the driver printed, and how it ended.
    private struct Run {
        var lines: [String]
        var killed: Bool
        var status: Int32
        var stderr: String
    }

    /// Starts the driver; after `killAfter` lines (when given and reached)
    /// kills it with SIGKILL; reads everything it printed and waits for it.
    private func play(_ driver: URL, _ arguments: [String], killAfter: Int?) throws -> Run {
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-crash-\(UUID().uuidString).err")
        XCTAssertTrue(FileManager.default.createFile(atPath: errors.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: errors) }
        let process = Process()
        process.executableURL = driver
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        var buffer = Data(), lines: [String] = [], killed = false
        if killAfter == 0 { killed = kill(process.processIdentifier, SIGKILL) == 0 }
        while true {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                buffer.removeSubrange(buffer.startIndex...newline)
            }
            if let killAfter, !killed, lines.count >= killAfter {
                killed = kill(process.processIdentifier, SIGKILL) == 0
            }
        }
        process.waitUntilExit()
        killed = killed && process.terminationReason == .uncaughtSignal
        let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        return Run(lines: lines, killed: killed, status: process.terminationStatus, stderr: stderr)
    }

    /// The driver, built beside the tests by `swift build --build-tests`.
    private func crashDriver() throws -> URL {
        let rulebench = try RulebenchCommand.binary()
        let driver = rulebench.deletingLastPathComponent().appendingPathComponent("RulebenchMatchCrashDriver")
        guard FileManager.default.isExecutableFile(atPath: driver.path) else {
            struct Missing: Error, CustomStringConvertible {
                let description = "RulebenchMatchCrashDriver is not built next to the tests: run `swift build --build-tests`"
            }
            throw Missing()
        }
        return driver
    }
}
