import Foundation
import XCTest

/// Runs the built `rulebench` executable, as a user or CI would.
enum RulebenchCommand {
    /// What a run printed and how it exited.
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        var output: String { stdout + stderr }
    }

    /// The executable built beside the test bundle (same build folder).
    static func binary() throws -> URL {
        var folders: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        if let first = CommandLine.arguments.first { folders.append(URL(fileURLWithPath: first).deletingLastPathComponent()) }
        for folder in folders {
            let candidate = folder.appendingPathComponent("rulebench")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw XCTSkip("the rulebench executable is not built next to the tests (run `swift build` first); looked in \(folders.map(\.path))")
    }

    /// Starts the command; the caller waits for it (or signals it).
    static func start(_ arguments: [String], in directory: URL) throws -> (Process, Pipe, Pipe) {
        try start(try binary(), arguments, in: directory)
    }

    /// Starts any executable with its output piped; the caller waits for it.
    static func start(_ executable: URL, _ arguments: [String], in directory: URL? = nil) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return (process, out, err)
    }

    /// Runs the command to its end.
    static func run(_ arguments: [String], in directory: URL) throws -> Result {
        let (process, out, err) = try start(arguments, in: directory)
        return finish(process, out, err)
    }

    /// Runs the command to its end with `input` on its standard input (then closed).
    static func run(_ arguments: [String], input: String, in directory: URL) throws -> Result {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let stdin = Pipe(), out = Pipe(), err = Pipe()
        process.standardInput = stdin
        process.standardOutput = out
        process.standardError = err
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        return finish(process, out, err)
    }

    /// Reads everything a started command prints and waits for its exit.
    static func finish(_ process: Process, _ out: Pipe, _ err: Pipe) -> Result {
        let group = DispatchGroup()
        nonisolated(unsafe) var stderr = Data()
        group.enter()
        DispatchQueue.global().async {
            stderr = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}
