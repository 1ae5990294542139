import Foundation
import XCTest
import Rulebench

/// A process of the match server's tests (`rulebench serve`, `rulebench
/// join`): its output read line by line on a thread of its own, so the test
/// waits for the line it expects, a bounded wait that fails the test and
/// never hangs it. Lines are JSON for `join`, text for `serve`.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    private let input = Pipe()
    private let condition = NSCondition()
    private var lines: [String] = []
    private var ended = false
    /// Lines already handed to the test by `next`.
    private var read = 0
    /// The longest a test waits for one line (a bound, not a timing assertion).
    static let wait: TimeInterval = 60

    init(_ arguments: [String], in directory: URL) throws {
        process.executableURL = try RulebenchCommand.binary()
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = input
        process.standardError = FileHandle.standardError
        try process.run()
        Thread.detachNewThread { [self] in
            var buffer = Data()
            while true {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    condition.withLock { lines.append(line); condition.broadcast() }
                }
            }
            condition.withLock { ended = true; condition.broadcast() }
        }
    }

    /// Ends the process if it still runs (a test that failed half way): SIGKILL, then waits.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The next line not yet read that `matches`, skipping the others; fails the test after `wait`.
    @discardableResult
    func next(_ what: String, file: StaticString = #filePath, line: UInt = #line, where matches: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(Self.wait)
        return try condition.withLock {
            while true {
                while read < lines.count {
                    read += 1
                    if matches(lines[read - 1]) { return lines[read - 1] }
                }
                if ended || !condition.wait(until: deadline) {
                    XCTFail("no \(what) from \(process.arguments?.first ?? "") (lines: \(lines.suffix(5)))", file: file, line: line)
                    throw CancellationError()
                }
            }
        }
    }

    /// The next JSON message of `type` (a `join` client's line).
    @discardableResult
    func message(_ type: String, file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        let text = try next("a \(type) message", file: file, line: line) { ($0.contains("\"type\":\"\(type)\"")) }
        return try JSONValue.parse(text)
    }

    /// Every line the process wrote so far, handed out or not.
    func allLines() -> [String] {
        condition.withLock { lines }
    }

    /// Every line read so far that was not yet handed out, without waiting.
    func pending() -> [String] {
        condition.withLock { Array(lines[read...]) }
    }

    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Ends standard input, then waits for the exit; its status.
    func finish() -> Int32 {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Sends SIGTERM and waits for the exit; its status.
    func terminate() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
