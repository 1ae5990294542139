import Foundation
import Rulebench

/// A `rulebench-serve` the bench started: the release executable next to
/// the bench's own, on 127.0.0.1 and any free port, with a data folder of
/// its own under .build (removed when it stops). Its lobby is reached by
/// `post`; its memory and CPU are read from /proc.
final class ServeProcess: @unchecked Sendable {
    let process: Process
    let port: UInt16
    let token: String
    let folder: URL

    private init(process: Process, port: UInt16, token: String, folder: URL) {
        self.process = process
        self.port = port
        self.token = token
        self.folder = folder
    }

    /// Starts the server and waits (at most 60 s) for the address it prints.
    static func start(packs: [String]) throws -> ServeProcess {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rulebench-serve")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw LoadSocket.Failure(description: "\(executable.path) is missing: swift build -c release --static-swift-stdlib --product rulebench-serve")
        }
        let folder = URL(fileURLWithPath: ".build/bench-serve-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve"] + packs + ["--port", "0", "--host", "127.0.0.1", "--data", folder.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        var printed = ""
        while Date() < deadline, process.isRunning {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed += String(decoding: chunk, as: UTF8.self)
            guard let line = printed.split(separator: "\n").first(where: { $0.hasPrefix("Rulebench matches: ") }) else { continue }
            guard let url = URLComponents(string: String(line.dropFirst("Rulebench matches: ".count)).components(separatedBy: "  ")[0]),
                  let port = url.port.flatMap(UInt16.init(exactly:)),
                  let token = url.queryItems?.first(where: { $0.name == "token" })?.value else { break }
            return ServeProcess(process: process, port: port, token: token, folder: folder)
        }
        process.terminate()
        throw LoadSocket.Failure(description: "rulebench-serve did not print its address: \(printed.prefix(300))")
    }

    /// Ends the server with SIGTERM (as Ctrl-C would) and removes its data folder.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// POSTs `body` to the lobby at `path`; the JSON answered, or a failure naming the status.
    func post(_ path: String, _ body: JSONValue) throws -> JSONValue {
        let descriptor = try LoadSocket.connected(port)
        defer { close(descriptor) }
        let content = Array(body.serialized(pretty: false).utf8)
        let head = "POST \(path)?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(content.count)\r\nConnection: close\r\n\r\n"
        guard LoadSocket.writeAll(descriptor, Array(head.utf8) + content) else { throw LoadSocket.Failure(description: "POST \(path): not sent") }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while answer.count < 1 << 20 {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            guard count > 0 else { break }
            answer += chunk[..<count]
        }
        let text = String(decoding: answer, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n"), text.hasPrefix("HTTP/1.1 2"), let json = try? JSONValue.parse(String(text[split.upperBound...])) else {
            throw LoadSocket.Failure(description: "POST \(path): \(text.prefix(200))")
        }
        return json
    }

    /// The server's resident bytes (/proc/PID/statm's second field, in pages).
    func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// How long the server's threads have waited, runnable, for a core (the second field of each
    /// /proc/PID/task/TID/schedstat, in nanoseconds): time a loaded machine adds, not work the server does.
    func waitedSeconds() -> Double {
        let tasks = "/proc/\(process.processIdentifier)/task"
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
        return threads.reduce(0.0) { total, thread in
            guard let text = try? String(contentsOfFile: "\(tasks)/\(thread)/schedstat", encoding: .utf8) else { return total }
            let fields = text.split(separator: " ")
            return total + (fields.count > 1 ? (Double(fields[1]) ?? 0) / 1e9 : 0)
        }
    }

    /// The server's CPU time so far, user and system (/proc/PID/stat's 14th and 15th fields, in clock ticks).
    func cpuSeconds() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
