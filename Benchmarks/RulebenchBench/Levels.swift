import Foundation

/// Row (15): `rulebench generate` of 100 pipes levels 5 by 5 with --seed 1,
/// twice, with --jobs 1 and with --jobs 2 (the two files must be the same
/// bytes), then `rulebench run` of the file (every stored solution replayed,
/// every undo verified). Whole processes, as a user runs them. Goal: the
/// generate under a minute.
enum LevelsBench {
    static let arguments = ["generate", "Benchmarks/packs/pipes", "--count", "100", "--seed", "1",
                            "--param", "rows=5", "--param", "columns=5", "--goal", "solved"]

    static func rows(binary: URL) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-bench-levels-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("a.yaml"), second = folder.appendingPathComponent("b.yaml")
        let (status, seconds) = try timed(binary, arguments + ["--jobs", "1", "--out", first.path])
        let (again, twoSeconds) = try timed(binary, arguments + ["--jobs", "2", "--out", second.path])
        let same = status == 0 && again == 0 && (try? Data(contentsOf: first)) == (try? Data(contentsOf: second))
        row("(15) generate 100 pipes levels 5x5 --seed 1, whole process, --jobs 1", String(format: "%.1f s", seconds),
            "exit \(status); goal: under 60 s (\(seconds < 60 ? "met" : "missed"))")
        row("(15) the same, --jobs 2", String(format: "%.1f s", twoSeconds),
            "exit \(again); the same file as --jobs 1: \(same ? "yes" : "NO")")
        let (replayed, replaySeconds) = try timed(binary, ["run", first.path])
        row("(15) run of those 100 levels (every solution replayed, every undo verified)", String(format: "%.2f s", replaySeconds),
            "exit \(replayed) (0: every level still reaches its goal)")
    }

    /// Runs `binary` with `arguments` to its exit: the status and the seconds it took.
    private static func timed(_ binary: URL, _ arguments: [String]) throws -> (Int32, Double) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = Date()
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, Date().timeIntervalSince(start))
    }
}
