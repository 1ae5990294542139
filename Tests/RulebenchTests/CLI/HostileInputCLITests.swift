import Foundation
import XCTest
@testable import Rulebench

/// Hostile or careless command-line input, corpora and output paths
/// (RELIABILITY.md, "Command line, corpora and output paths"): each ends in
/// a one-line error naming the file or option (exit 1 or 2), never a crash,
/// and never loses or damages data. The commands run the built `rulebench`
/// binary in a scratch copy of `Fixtures/hostile-cli` (packs `steady`, sound
/// and finite; `broken`, whose undo is wrong; `traversal`, whose name climbs
/// out of folders), so nothing outside the scratch folder is touched.
final class HostileInputCLITests: XCTestCase {
    static let fixtures = TestPaths.fixtures.appendingPathComponent("hostile-cli")

    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-hostile-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        for item in try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path) {
            try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent(item), to: scratch.appendingPathComponent(item))
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    // MARK: Helpers

    private func run(_ arguments: [String], in folder: URL? = nil) throws -> RulebenchCommand.Result {
        try RulebenchCommand.run(arguments, in: folder ?? scratch)
    }

    private func path(_ relative: String) -> String { scratch.appendingPathComponent(relative).path }

    private func exists(_ relative: String) -> Bool {
        var status = stat()
        return lstat(path(relative), &status) == 0
    }

    /// The file type bits of what is at `relative`, without following a link.
    private func fileType(_ relative: String) -> mode_t? {
        var status = stat()
        guard lstat(path(relative), &status) == 0 else { return nil }
        return status.st_mode & S_IFMT
    }

    /// The command ended with `status` and a one-line message naming each of `names`, without crashing.
    private func assertOneLineError(_ result: RulebenchCommand.Result, status: Int32, naming names: [String],
                                    file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, status, result.output, file: file, line: line)
        let message = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(message.isEmpty, "no message", file: file, line: line)
        XCTAssertFalse(message.contains("\n"), "not one line:\n\(message)", file: file, line: line)
        for name in names {
            XCTAssertTrue(message.contains(name), "'\(name)' not named in: \(message)", file: file, line: line)
        }
        assertNoCrash(result, file: file, line: line)
    }

    private func assertNoCrash(_ result: RulebenchCommand.Result, file: StaticString = #filePath, line: UInt = #line) {
        for noise in ["Program crashed", "Fatal error", "Backtracing", "NSCocoaErrorDomain"] {
            XCTAssertFalse(result.output.contains(noise), "'\(noise)' in: \(result.output)", file: file, line: line)
        }
    }

    // MARK: Terminal escapes

    /// A rule's error that holds escape sequences is shown, not obeyed: no
    /// control character but newline and tab reaches the terminal.
    func testEscapeSequencesInRuleErrorsAreShownNotObeyed() throws {
        for arguments in [["explore", "rules/escapes", "--depth", "1"], ["fuzz", "rules/escapes", "--runs", "1", "--depth", "2"]] {
            let result = try run(arguments)
            XCTAssertNotEqual(result.status, 0, result.output)
            XCTAssertTrue(result.output.contains("\\u{1B}[2J"), "\(arguments[0]): \(result.output)")
            let controls = result.output.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" }
            XCTAssertTrue(controls.isEmpty, "\(arguments[0]): raw control characters \(controls.map(\.value))")
            assertNoCrash(result)
        }
    }

    /// What fuzzing `pack` into `found/` wrote, and what `run` made of it.
    private struct Reproduced {
        let fuzz: RulebenchCommand.Result
        let scenario: String
        let replay: RulebenchCommand.Result
    }

    /// Fuzzes `pack` until its first finding, then runs the one reproduction
    /// it wrote; both must end in a failure (exit 1), never bad input.
    private func fuzzAndReplay(_ pack: String, runs: Int, depth: Int,
                               file: StaticString = #filePath, line: UInt = #line) throws -> Reproduced {
        let fuzz = try run(["fuzz", pack, "--runs", "\(runs)", "--depth", "\(depth)", "--out", "found"])
        XCTAssertEqual(fuzz.status, 1, fuzz.output, file: file, line: line)
        let files = try FileManager.default.contentsOfDirectory(atPath: path("found")).filter { $0.hasSuffix(".yaml") }
        XCTAssertEqual(files.count, 1, fuzz.output, file: file, line: line)
        let name = "found/" + (files.first ?? "")
        let scenario = try String(contentsOfFile: path(name), encoding: .utf8)
        let replay = try run(["run", name])
        XCTAssertEqual(replay.status, 1, "the reproduction must fail, not be bad input: \(replay.output)", file: file, line: line)
        assertNoCrash(replay, file: file, line: line)
        return Reproduced(fuzz: fuzz, scenario: scenario, replay: replay)
    }

    /// A finding about a state key that holds a line break gives a
    /// reproduction that `run` reads and fails on (exit 1), not bad input.
    func testAReproductionNamingAKeyWithALineBreakStillRuns() throws {
        _ = try fuzzAndReplay("rules/newline_key", runs: 5, depth: 4)
    }

    /// `legal` failing on the first state gives a reproduction with no
    /// action, which ends by listing the legal actions: `run` fails on it.
    func testAReproductionOfALegalThatFailsAtOnceStillFails() throws {
        let found = try fuzzAndReplay("rules/legal_raises", runs: 2, depth: 4)
        XCTAssertTrue(found.replay.output.contains("legal broke"), found.replay.output)
        XCTAssertFalse(found.fuzz.output.contains("did not fail again"),
                       "the shrinker re-ran it without listing legal actions: \(found.fuzz.output)")
    }

    /// `legal` failing after two actions: the shrinker keeps exactly those
    /// two (each candidate lists the legal actions after its last step);
    /// the report counts the file's three steps, the listing included.
    func testALegalThatFailsLaterShrinksToTheStepsBeforeIt() throws {
        let found = try fuzzAndReplay("rules/legal_raises_later", runs: 2, depth: 20)
        XCTAssertTrue(found.fuzz.output.contains("to 3 steps"), found.fuzz.output)
        XCTAssertFalse(found.fuzz.output.contains("did not fail again"), found.fuzz.output)
        XCTAssertTrue(found.scenario.hasSuffix("  - do: \"tick\"\n  - do: \"tick\"\n  - expect: { legal: { contains: [] } }\n"), found.scenario)
        XCTAssertTrue(found.replay.output.contains("legal broke after two ticks"), found.replay.output)
    }

    // MARK: 1. Corpus entries

    func testCorpusEntriesWithAbsurdCountsAreSkippedNamingTheFile() throws {
        let result = try run(["fuzz", "steady", "--runs", "2", "--depth", "5", "--corpus", "corpus/bad-counts", "--out", "out"])
        XCTAssertEqual(result.status, 0, result.output)
        assertNoCrash(result)
        for name in ["negative-undo", "zero-redo", "huge-redo", "float-undo", "word-undo"] {
            let line = result.stderr.split(separator: "\n").first { $0.contains("corpus/bad-counts/\(name).json") }
            XCTAssertNotNil(line, "\(name) not named: \(result.stderr)")
            XCTAssertTrue(line?.contains("must be a whole number from 1 to \(FuzzStep.maximumCount)") == true, "\(line ?? "")")
        }
        XCTAssertTrue(result.stderr.contains("skipping corpus/bad-counts/cut-short.json:1:"), result.stderr)
        XCTAssertFalse(result.stdout.contains("known findings replayed"), result.stdout)
    }

    func testReadingACorpusEntryRefusesCountsOutOfRange() throws {
        let folder = scratch.appendingPathComponent("corpus/bad-counts")
        for name in ["negative-undo", "zero-redo", "huge-redo", "float-undo"] {
            XCTAssertThrowsError(try Reproduction.read(contentsOf: folder.appendingPathComponent("\(name).json"))) { error in
                guard case .badInput(let problem) = error as? RulebenchError else { return XCTFail("\(error)") }
                XCTAssertTrue(problem.file?.hasSuffix("\(name).json") == true, "\(problem)")
            }
        }
        let good = try Reproduction.read(contentsOf: scratch.appendingPathComponent("corpus/other-pack/steady-by-path.json"))
        XCTAssertEqual(good.steps, [.perform(ActionCall("bump", ["side": .string("b")])), .undo(1)])
        // A FIFO in the corpus would block a read for ever: it is skipped.
        XCTAssertEqual(mkfifo(folder.appendingPathComponent("fifo.json").path, 0o644), 0)
        let corpus = Reproduction.load(from: folder)
        XCTAssertTrue(corpus.entries.isEmpty)
        XCTAssertTrue(corpus.skipped.contains { $0.file?.hasSuffix("fifo.json") == true && $0.message.contains("not a regular file") },
                      "\(corpus.skipped)")
    }

    func testACorpusEntryOfAnotherPackIsNotReplayed() throws {
        let steady = try run(["fuzz", "steady", "--runs", "2", "--depth", "5", "--corpus", "corpus/other-pack", "--out", "out"])
        XCTAssertEqual(steady.status, 0, steady.output)
        XCTAssertFalse(steady.stdout.contains("FINDING"), steady.stdout)
        XCTAssertTrue(steady.stderr.contains("skipping corpus/other-pack/broken-finding.json: a finding of pack 'broken', not of steady"),
                      steady.stderr)
        // The same pack named by a path is still replayed.
        XCTAssertTrue(steady.stdout.contains("corpus: 1 known findings replayed, 0 still fail"), steady.stdout)

        let broken = try run(["fuzz", "broken", "--runs", "2", "--depth", "5", "--corpus", "corpus/other-pack", "--out", "out"])
        XCTAssertEqual(broken.status, 1, broken.output)
        XCTAssertTrue(broken.stdout.contains("corpus: 1 known findings replayed, 1 still fail"), broken.stdout)
        XCTAssertTrue(broken.stderr.contains("steady-by-path.json: a finding of pack './rules/steady'"), broken.stderr)
    }

    // MARK: 2. Explore's depth

    func testExploreDepthIsBounded() throws {
        for depth in ["9223372036854775807", "65", "0", "-1"] {
            let result = try run(["explore", "steady", "--depth=\(depth)"])
            assertOneLineError(result, status: 2, naming: ["--depth must be from 1 to 64", "got \(depth)"])
        }
        let deepest = try run(["explore", "steady", "--depth", "64"])
        XCTAssertEqual(deepest.status, 0, deepest.output)
        XCTAssertTrue(deepest.stdout.hasPrefix("depth 1: 2\ndepth 2: 4\ndepth 3: 8\ndepth 4: 0\ntotal 14 nodes"), deepest.stdout)
    }

    func testExplorerDoesNotAllocateByDepth() throws {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        let game = try Game(pack: path("rules/steady"), seed: 1, configuration: configuration)
        let before = try game.liveStateHash()
        XCTAssertEqual(try Explorer(game: game, depth: Int.max).run().nodes, [2, 4, 8, 0])
        XCTAssertEqual(try Explorer(game: game, depth: 0).run().nodes, [])
        XCTAssertEqual(try game.liveStateHash(), before)
        XCTAssertEqual(game.history.cursor, 0)
    }

    // MARK: 3. Pack names in paths

    func testAPackNameCannotPlaceTheCorpusOutsideItsFolder() throws {
        let work = scratch.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        // Its name is "../../../escaped/PWNED": from work/.rulebench/corpus/ that is scratch/escaped.
        let result = try run(["fuzz", "../rules/traversal", "--runs", "2", "--depth", "5"], in: work)
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertFalse(exists("escaped"), "the corpus was written outside its folder")
        let corpus = work.appendingPathComponent(".rulebench/corpus")
        let folders = try FileManager.default.contentsOfDirectory(atPath: corpus.path)
        XCTAssertEqual(folders.count, 1, "\(folders)")
        let folder = try XCTUnwrap(folders.first)
        XCTAssertFalse(folder.contains("/") || folder.contains("..") || folder.hasPrefix("."), folder)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent(folder).path).count, 1)
    }

    func testPackFileNamesAreOneSafeComponent() {
        for name in ["template", "my-pack_2", "v1.2"] { XCTAssertEqual(PackInfo.fileName(for: name), name) }
        for name in ["../../../tmp/x", "..", ".", "", "/etc/passwd", "a/../b", ".hidden", "spa ce", "désert", String(repeating: "x", count: 300)] {
            let safe = PackInfo.fileName(for: name)
            XCTAssertFalse(safe.isEmpty || safe.contains("/") || safe.contains("..") || safe.hasPrefix("."), "\(name) -> \(safe)")
            XCTAssertLessThanOrEqual(safe.count, 100)
        }
    }

    // MARK: 4. Output paths are written, not replaced

    func testJUnitReportWritesThroughASymlinkAndKeepsIt() throws {
        try "old".write(toFile: path("real.xml"), atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: path("link.xml"), withDestinationPath: "real.xml")
        let result = try run(["run", "scenarios", "--junit", "link.xml"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(fileType("link.xml"), S_IFLNK, "the link was replaced")
        XCTAssertTrue(try String(contentsOfFile: path("real.xml"), encoding: .utf8).contains("<testsuites"))
    }

    func testJUnitReportToAFIFOIsWrittenInPlace() throws {
        XCTAssertEqual(mkfifo(path("report.xml"), 0o644), 0)
        // Held open for reading and writing, so the command's open never
        // blocks and what it writes waits in the pipe.
        let fd = open(path("report.xml"), O_RDWR | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        let result = try run(["run", "scenarios", "--junit", "report.xml"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(fileType("report.xml"), S_IFIFO, "the FIFO was replaced")
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let count = read(fd, &buffer, buffer.count)
        XCTAssertTrue(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self).contains("</testsuites>"))
    }

    func testJUnitReportToStandardOutputThroughALink() throws {
        // What `--junit /dev/stdout` does, through a link of our own (so a
        // failure replaces the link, never the machine's /dev/stdout).
        try FileManager.default.createSymbolicLink(atPath: path("stdout.xml"), withDestinationPath: "/dev/stdout")
        let result = try run(["run", "scenarios", "--junit", "stdout.xml"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.stdout.contains("<testsuites"), result.stdout)
        XCTAssertEqual(fileType("stdout.xml"), S_IFLNK)
    }

    func testJUnitReportToAFolderSaysSo() throws {
        try FileManager.default.createDirectory(atPath: path("out.xml"), withIntermediateDirectories: false)
        let result = try run(["run", "scenarios", "--junit", "out.xml"])
        assertOneLineError(result, status: 2, naming: ["out.xml", "is a folder; give a file path"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("out.xml")), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.contains("rulebench-") }, [],
                       "a temporary file was left behind")
    }

    func testAnEmptyOutputPathIsRefusedBeforeAnythingRuns() throws {
        let result = try run(["run", "scenarios", "--junit", ""])
        assertOneLineError(result, status: 2, naming: ["cannot write the JUnit report: the path is empty; give a file path"])
        XCTAssertFalse(result.stdout.contains("PASS"), "nothing ran: \(result.stdout)")
    }

    func testTimelineSVGThroughALinkToANewFile() throws {
        try FileManager.default.createSymbolicLink(atPath: path("chart-link.svg"), withDestinationPath: "chart.svg")
        let result = try run(["timeline", "scenarios/steady/one.yaml", "--step", "1", "--svg", "chart-link.svg"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(fileType("chart-link.svg"), S_IFLNK)
        XCTAssertTrue(try String(contentsOfFile: path("chart.svg"), encoding: .utf8).contains("<svg"))
    }

    func testSavedHistoryThroughALinkKeepsTheLink() throws {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        let game = try Game(pack: path("rules/steady"), seed: 1, configuration: configuration)
        try game.perform("bump", ["side": .string("a")])
        try "{}".write(toFile: path("saved.json"), atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: path("game.json"), withDestinationPath: "saved.json")
        try game.save(to: URL(fileURLWithPath: path("game.json")))
        XCTAssertEqual(fileType("game.json"), S_IFLNK)
        XCTAssertEqual(try SavedHistory(contentsOf: URL(fileURLWithPath: path("saved.json"))).steps.count, 1)
    }

    func testARegularFileIsReplacedWholeAndKeepsItsMode() throws {
        try "old".write(toFile: path("report.txt"), atomically: false, encoding: .utf8)
        XCTAssertEqual(chmod(path("report.txt"), 0o640), 0)
        try OutputFile(path: path("report.txt"), purpose: "the report").write("new")
        XCTAssertEqual(try String(contentsOfFile: path("report.txt"), encoding: .utf8), "new")
        var status = stat()
        XCTAssertEqual(stat(path("report.txt"), &status), 0)
        XCTAssertEqual(status.st_mode & 0o777, 0o640)
        XCTAssertThrowsError(try OutputFile(path: path("missing/report.txt"), purpose: "the report").write("x")) { error in
            XCTAssertTrue("\(error)".contains("the folder \(path("missing")) does not exist"), "\(error)")
        }
    }

    // MARK: 5. Fuzz's output folders

    func testFuzzRefusesAnUnusableOutOrCorpusBeforeFuzzing() throws {
        try "not a folder".write(toFile: path("taken"), atomically: false, encoding: .utf8)
        let out = try run(["fuzz", "broken", "--runs", "2", "--depth", "5", "--out", "taken", "--corpus", "kept"])
        assertOneLineError(out, status: 2, naming: ["taken", "--out", "not a folder"])
        XCTAssertFalse(out.stdout.contains("FINDING"), out.stdout)
        XCTAssertFalse(exists("kept"))

        let corpus = try run(["fuzz", "broken", "--runs", "2", "--depth", "5", "--out", "found", "--corpus", "taken/sub"])
        assertOneLineError(corpus, status: 2, naming: ["taken", "--corpus"])
        XCTAssertFalse(exists("found"))

        try FileManager.default.createDirectory(atPath: path("lcov"), withIntermediateDirectories: false)
        let coverage = try run(["fuzz", "broken", "--runs", "2", "--depth", "5", "--out", "found", "--corpus", "kept", "--coverage", "lcov"])
        assertOneLineError(coverage, status: 2, naming: ["lcov", "--coverage", "is a folder"])
        XCTAssertFalse(exists("found") || exists("kept"))
    }

    func testAReproductionNeverReplacesWhatIsInTheWay() throws {
        // The reproduction's file name is the bug's; a folder already has it:
        // the folder stays, and the reproduction takes the next free name.
        let name = "broken-undoRestores-bump-bump.lua-5"
        try FileManager.default.createDirectory(atPath: path("out/\(name).yaml"), withIntermediateDirectories: true)
        let result = try run(["fuzz", "broken", "--runs", "2", "--depth", "5", "--out", "out", "--corpus", "kept"])
        XCTAssertEqual(result.status, 1, result.output)
        assertNoCrash(result)
        XCTAssertTrue(result.stdout.contains("FINDING"), result.stdout)
        var isFolder: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("out/\(name).yaml"), isDirectory: &isFolder) && isFolder.boolValue)
        XCTAssertTrue(result.stdout.contains("/out/\(name)-2.yaml"), result.stdout)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("kept")).count, 1)
    }

    // MARK: 6. SIGTERM

    func testSIGTERMStopsFuzzCleanlyWithFindingsWritten() throws {
        let (process, stdout, stderr) = try RulebenchCommand.start(
            ["fuzz", "broken", "--runs", "100000000", "--depth", "20", "--keep-going", "--out", "out", "--corpus", "kept"], in: scratch)
        Thread.sleep(forTimeInterval: 3)
        XCTAssertTrue(process.isRunning, "the fuzz ended before it was stopped")
        kill(process.processIdentifier, SIGTERM)
        let result = RulebenchCommand.finish(process, stdout, stderr)
        XCTAssertEqual(result.status, 143, result.output)
        XCTAssertEqual(process.terminationReason, .exit, "killed by the signal instead of stopping")
        XCTAssertTrue(result.stdout.contains("FINDING"), result.stdout)
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: path("out")).isEmpty)
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: path("kept")).isEmpty)
    }

    // MARK: 7. Arguments

    func testFuzzArgumentsOutOfRangeAreRefused() throws {
        let cases: [([String], String)] = [
            (["--shard", "1//2"], "--shard"), (["--shard", "1/2/"], "--shard"), (["--shard", "+1/2"], "--shard"),
            (["--shard", "0/2"], "--shard"), (["--shard", "3/2"], "--shard"),
            (["--time", "nan"], "--time"), (["--time", "inf"], "--time"), (["--time=-1"], "--time"),
            (["--runs", "0"], "--runs"), (["--runs=-5"], "--runs"),
            (["--depth", "0"], "--depth"), (["--depth=-1"], "--depth"), (["--depth", "10001"], "--depth"),
            (["--depth", "9223372036854775807"], "--depth"),
        ]
        for (arguments, option) in cases {
            let result = try run(["fuzz", "steady", "--out", "out", "--corpus", "kept"] + arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.output)")
            XCTAssertTrue(result.stderr.contains(option), "\(arguments): \(result.stderr)")
            assertNoCrash(result)
        }
        XCTAssertFalse(exists("out") || exists("kept"))
        for depth in ["10001", "9223372036854775807", "-1"] {
            let check = try run(["check", "steady", "--depth=\(depth)"])
            assertOneLineError(check, status: 2, naming: ["--depth must be from 0 to 10000", "got \(depth)"])
        }
    }

    // MARK: 8. new over a link

    func testNewRefusesADanglingLinkAndKeepsIt() throws {
        try FileManager.default.createSymbolicLink(atPath: path("rules/ghost"), withDestinationPath: "nowhere")
        let pack = try run(["new", "ghost"])
        assertOneLineError(pack, status: 2, naming: ["rules/ghost already exists", "symbolic link to nowhere"])
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path("rules/ghost")), "nowhere")
        XCTAssertFalse(exists("scenarios/ghost"))

        try FileManager.default.createSymbolicLink(atPath: path("scenarios/shade"), withDestinationPath: "nowhere")
        let scenario = try run(["new", "shade"])
        assertOneLineError(scenario, status: 2, naming: ["scenarios/shade already exists"])
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path("scenarios/shade")), "nowhere")
        XCTAssertFalse(exists("rules/shade"))
    }
}
