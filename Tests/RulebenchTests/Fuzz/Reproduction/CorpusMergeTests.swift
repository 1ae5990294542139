import XCTest
@testable import Rulebench

/// `CorpusMerge` and `rulebench corpus merge`: one program per bug, fixed
/// programs dropped (or kept for their coverage), OUT left holding exactly
/// the merged corpus, bad input refused before anything is written.
final class CorpusMergeTests: XCTestCase {
    private var scratch: URL!
    /// A copy of the template pack whose step undo is off by one.
    private var pack: URL!
    private let original = "game.tokens[a.token].square = a.from\n"
    private let mutated = "game.tokens[a.token].square = a.from + 1\n"

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        pack = scratch.appendingPathComponent("planted")
        try FileManager.default.copyItem(at: EngineFixtures.repository.appendingPathComponent("rules/template"), to: pack)
        try plant(true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Plants the bug, or fixes it.
    private func plant(_ bug: Bool) throws {
        let file = pack.appendingPathComponent("actions/step.lua")
        let text = try String(contentsOf: file, encoding: .utf8)
        let fixed = text.replacingOccurrences(of: mutated, with: original)
        XCTAssertTrue(fixed.contains(original))
        try (bug ? fixed.replacingOccurrences(of: original, with: mutated) : fixed).write(to: file, atomically: true, encoding: .utf8)
    }

    private func step(_ name: String, _ token: String = "p1") -> FuzzStep {
        .perform(ActionCall(name, ["token": .string(token)]))
    }

    private func program(_ steps: [FuzzStep]) -> FuzzProgram {
        FuzzProgram(pack: pack.path, seed: 1, options: [:], steps: steps)
    }

    /// Saves programs into a new corpus folder `name`, as a shard's fuzz would.
    @discardableResult
    private func corpus(_ name: String, _ programs: [FuzzProgram], shard: String? = nil) throws -> URL {
        let folder = scratch.appendingPathComponent(name)
        for program in programs {
            try Reproduction.save(program, property: .undoRestores,
                                  origin: FindingOrigin(command: "rulebench fuzz planted --shard \(shard ?? "1/1")", shard: shard),
                                  in: folder)
        }
        return folder
    }

    private func merge(_ folders: [URL], keepFixed: Bool = false, workers: Int = 1) throws -> CorpusMerge.Result {
        var merge = CorpusMerge(inputs: folders)
        merge.keepFixed = keepFixed
        merge.pool = WorkerPool(workers: workers)
        merge.configuration.printHandler = { _ in }
        return try merge.run()
    }

    func testParallelReplaysGiveTheVerdictsOfOneWorker() throws {
        let short = program([step("step"), .undo(1)])
        let long = program([step("step"), step("step", "p2"), .undo(1)])
        let passes = program([])
        let viaDash = program([step("dash"), .undo(1)])
        let one = try corpus("shard-1", [long, short, passes], shard: "1/2")
        let two = try corpus("shard-2", [short, viaDash, program([step("step", "p2"), .undo(1)])], shard: "2/2")
        func verdicts(_ workers: Int) throws -> [String] {
            try merge([one, two], workers: workers).entries.map {
                "\(URL(fileURLWithPath: $0.file).lastPathComponent) \($0.verdict) \($0.finding?.description ?? "-") \($0.report?.finding.description ?? "-")"
            }
        }
        let alone = try verdicts(1)
        XCTAssertEqual(Set(alone.map { $0.split(separator: " ")[1] }).count, 4, "kept, duplicate, copy and fixed all occur: \(alone)")
        XCTAssertEqual(try verdicts(2), alone)
    }

    func testTheSameBugFromThreeShardsIsKeptOnceAsItsShortestProgram() throws {
        let short = program([step("step"), .undo(1)])
        let long = program([step("step"), step("step", "p2"), .undo(1)])
        let viaDash = program([step("dash"), .undo(1)])
        let one = try corpus("shard-1", [long, short], shard: "1/3")
        let two = try corpus("shard-2", [short], shard: "2/3")
        let three = try corpus("shard-3", [viaDash], shard: "3/3")

        let result = try merge([one, two, three])
        XCTAssertEqual(result.entries.count, 4)
        XCTAssertTrue(result.skipped.isEmpty)
        let kept = result.kept
        XCTAssertEqual(kept.map(\.program), [short, viaDash], "one program per blamed action path: \(result.entries.map(\.verdict))")
        XCTAssertEqual(kept.first?.origin?.shard, "1/3", "the copy read first (by file) keeps its origin")
        XCTAssertEqual(result.entries.filter { if case .copy = $0.verdict { return true } else { return false } }.count, 1)
        let longEntry = try XCTUnwrap(result.entries.first { $0.program == long })
        XCTAssertEqual(longEntry.verdict, .duplicate(of: kept[0].file))
        XCTAssertEqual(FindingKey(try XCTUnwrap(kept[0].finding)).location?.contains("actions/step.lua:"), true)
        XCTAssertNotNil(kept[0].report, "a kept bug has a report to write as a scenario")

        // Written: OUT holds exactly the kept programs, under fuzz's names, with their origins.
        let out = scratch.appendingPathComponent("merged")
        let written = try CorpusMerge(inputs: []).write(result, to: out)
        XCTAssertEqual(written.map(\.lastPathComponent), kept.map { Reproduction.fileName(of: $0.program, property: .undoRestores) })
        let again = Reproduction.load(from: out)
        XCTAssertEqual(Set(again.programs), Set([short, viaDash]))
        XCTAssertEqual(again.entries.compactMap(\.origin?.shard).sorted(), ["1/3", "3/3"])
    }

    func testMergingIntoAFolderRemovesWhatItDropsAndLeavesFilesItCannotRead() throws {
        let short = program([step("step"), .undo(1)])
        let long = program([step("step"), step("step"), .undo(1)])
        let out = try corpus("out", [long])
        let stray = out.appendingPathComponent("notes.json")
        try "not a program".write(to: stray, atomically: true, encoding: .utf8)
        let shard = try corpus("shard", [short])

        let result = try merge([out, shard])
        XCTAssertEqual(result.skipped.count, 1)
        XCTAssertTrue(result.skipped[0].description.contains("notes.json"), "\(result.skipped)")
        try CorpusMerge(inputs: []).write(result, to: out)
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        XCTAssertEqual(names, [Reproduction.fileName(of: short, property: .undoRestores), "notes.json"].sorted())
        // Merging again changes nothing.
        let second = try merge([out])
        XCTAssertEqual(second.kept.map(\.program), [short])
    }

    func testFixedProgramsAreDroppedOrKeptForTheLinesOnlyTheyReach() throws {
        let stepUndo = program([step("step"), .undo(1)])
        let stepTwice = program([step("step"), step("step"), .undo(2)])
        let dashUndo = program([step("dash"), .undo(1)])
        let folder = try corpus("corpus", [stepUndo, stepTwice, dashUndo])
        try plant(false)

        let fixed = try merge([folder])
        XCTAssertTrue(fixed.kept.isEmpty, "\(fixed.entries.map(\.verdict))")
        XCTAssertEqual(fixed.entries.map(\.verdict), [.fixed, .fixed, .fixed])

        let kept = try merge([folder], keepFixed: true)
        // The first step-and-undo reaches step's lines; dash reaches its own; stepping twice adds nothing.
        XCTAssertEqual(kept.entries.first { $0.program == stepUndo }?.verdict, .regression)
        XCTAssertEqual(kept.entries.first { $0.program == dashUndo }?.verdict, .regression)
        XCTAssertEqual(kept.entries.first { $0.program == stepTwice }?.verdict, .fixed)
        XCTAssertTrue(kept.bugs.isEmpty)
    }

    func testAProgramOfAPackThatDoesNotLoadIsBadInputAndNothingIsWritten() throws {
        var broken = program([step("step"), .undo(1)])
        broken.pack = scratch.appendingPathComponent("no-such-pack").path
        let folder = try corpus("corpus", [broken])
        XCTAssertThrowsError(try merge([folder])) { error in
            guard case RulebenchError.badInput(let problem) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(problem.description.contains("no-such-pack"), problem.description)
            XCTAssertTrue(problem.file?.hasSuffix(".json") == true, problem.description)
        }
    }

    func testTheCommandExitsOneWithABugTwoOnBadInputAndZeroWhenAllIsFixed() throws {
        try corpus("a", [program([step("step"), .undo(1)])], shard: "1/2")
        try corpus("b", [program([step("step"), .undo(1)]), program([step("step"), step("step"), .undo(1)])], shard: "2/2")
        let found = try RulebenchCommand.run(["corpus", "merge", "merged", "a", "b", "--findings", "findings", "--json"], in: scratch)
        XCTAssertEqual(found.status, 1, found.output)
        let report = try JSONValue.parse(found.stdout)
        XCTAssertEqual(report["bugs"], .int(1))
        XCTAssertEqual(report["duplicates"], .int(2))
        XCTAssertEqual(report["exitCode"], .int(1))
        let scenarios = try FileManager.default.contentsOfDirectory(atPath: scratch.appendingPathComponent("findings").path)
        XCTAssertEqual(scenarios.count, 1)
        let text = try String(contentsOf: scratch.appendingPathComponent("findings/\(scenarios[0])"), encoding: .utf8)
        XCTAssertTrue(text.contains("# Found by: rulebench fuzz planted --shard 1/2"), text)
        let run = try RulebenchCommand.run(["run", "findings/\(scenarios[0])"], in: scratch)
        XCTAssertEqual(run.status, 1, run.output)

        let bad = try RulebenchCommand.run(["corpus", "merge", "a/\(try FileManager.default.contentsOfDirectory(atPath: scratch.appendingPathComponent("a").path)[0])", "b"], in: scratch)
        XCTAssertEqual(bad.status, 2, "OUT is a file: \(bad.output)")
        for arguments in [["", "a"], ["merged", ""], ["merged", "a", "--findings", ""]] {
            let empty = try RulebenchCommand.run(["corpus", "merge"] + arguments, in: scratch)
            XCTAssertEqual(empty.status, 2, "\(arguments): \(empty.output)")
            XCTAssertTrue(empty.stderr.contains("is empty"), empty.stderr)
        }
        let fileInput = try RulebenchCommand.run(["corpus", "merge", "merged", "findings/\(scenarios[0])"], in: scratch)
        XCTAssertEqual(fileInput.status, 2, "a DIR that is a file: \(fileInput.output)")
        XCTAssertTrue(fileInput.stderr.contains("is a file, not a corpus folder"), fileInput.stderr)
        let missing = try RulebenchCommand.run(["corpus", "merge", "merged", "shards/*/corpus"], in: scratch)
        XCTAssertEqual(missing.status, 1, missing.output)
        XCTAssertTrue(missing.stderr.contains("shards/*/corpus does not exist; merged as an empty corpus"), missing.stderr)

        try plant(false)
        let clean = try RulebenchCommand.run(["corpus", "merge", "merged"], in: scratch)
        XCTAssertEqual(clean.status, 0, clean.output)
        XCTAssertTrue(clean.stdout.contains("0 bugs still failing"), clean.stdout)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.appendingPathComponent("merged").path), [])
    }
}

/// How `--shard K/N` splits a session: shards are disjoint, and with
/// uniform search their union is the unsharded session, run for run; a
/// finding names its shard and the command that finds it again.
final class FuzzShardTests: XCTestCase {
    private func played(_ search: SearchStrategy, shard: (Int, Int), runs: Int = 12) -> [Int: FuzzProgram] {
        var options = Fuzzer.Options(pack: EngineFixtures.repository.appendingPathComponent("rules/template").path)
        options.search = search
        options.runs = runs
        options.depth = 20
        options.shard = shard
        options.configuration.printHandler = { _ in }
        var runs: [Int: FuzzProgram] = [:]
        _ = Fuzzer(options: options).run(played: { runs[$0.index] = $0.program })
        return runs
    }

    func testUniformShardsAreDisjointAndTogetherPlayTheUnshardedSession() {
        let whole = played(.uniform, shard: (1, 1))
        XCTAssertEqual(Set(whole.keys), Set(0..<12))
        var union: [Int: FuzzProgram] = [:]
        for k in 1...3 {
            let shard = played(.uniform, shard: (k, 3))
            XCTAssertEqual(Set(shard.keys), Set(stride(from: k - 1, to: 12, by: 3)), "shard \(k)/3")
            XCTAssertTrue(Set(shard.keys).isDisjoint(with: union.keys))
            union.merge(shard) { first, _ in first }
        }
        XCTAssertEqual(union, whole, "the same runs: the same seeds, game seeds and steps")
    }

    func testGuidedShardsAreDisjointCoverEveryRunAndSearchApart() {
        var union: Set<Int> = []
        var programs: [[FuzzProgram]] = []
        for k in 1...3 {
            let shard = played(.guided, shard: (k, 3))
            XCTAssertTrue(union.isDisjoint(with: shard.keys))
            union.formUnion(shard.keys)
            programs.append(shard.keys.sorted().map { shard[$0]! })
        }
        XCTAssertEqual(union, Set(0..<12))
        // Each shard's own choices: they do not make the same runs in step.
        XCTAssertNotEqual(programs[1], programs[2])
    }

    /// The command a finding names reads back, through a shell, as the
    /// session's arguments: a pack path with a space, options of each type.
    func testTheOriginCommandQuotesWhatAShellWouldSplit() throws {
        var options = Fuzzer.Options(pack: "my packs/it's")
        options.seed = 7
        options.shard = (3, 4)
        options.setupOptions = ["players": .int(3), "title": .string("a b"), "count": .string("12"), "fast": .bool(true)]
        options.keepGoing = true
        let fuzzer = Fuzzer(options: options)
        let report = Fuzzer.Report(finding: FuzzFinding(property: .undoRestores, stepIndex: 0, message: "", differences: [], blame: nil),
                                   original: FuzzProgram(pack: "x", seed: 0, options: [:], steps: []),
                                   shrunk: FuzzProgram(pack: "x", seed: 0, options: [:], steps: []), outcomes: [],
                                   shrinkSeconds: 0, shrinkAttempts: 0, stepsToDetection: 0, run: 10)
        let origin = fuzzer.origin(of: report)
        XCTAssertEqual(origin.shard, "3/4")
        let words = try Shell.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "printf '%s\\n' " + origin.command]).stdout
            .split(separator: "\n").map(String.init)
        XCTAssertEqual(words, ["rulebench", "fuzz", "my packs/it's", "--seed", "7", "--search", "guided", "--depth", "100",
                               "--option", "count=\"12\"", "--option", "fast=true", "--option", "players=3",
                               "--option", "title=a b", "--shard", "3/4", "--runs", "11", "--keep-going"])
        // Each option reads back as the value it was.
        XCTAssertEqual(StateValue(argument: "\"12\""), .string("12"))
    }

    func testAShardsFindingNamesItsShardAndTheCommandThatFindsItAgain() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-shard-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let pack = scratch.appendingPathComponent("planted")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: EngineFixtures.repository.appendingPathComponent("rules/template"), to: pack)
        let file = pack.appendingPathComponent("actions/step.lua")
        try String(contentsOf: file, encoding: .utf8)
            .replacingOccurrences(of: "game.tokens[a.token].square = a.from\n", with: "game.tokens[a.token].square = a.from + 1\n")
            .write(to: file, atomically: true, encoding: .utf8)

        let first = try RulebenchCommand.run(["fuzz", "planted", "--search", "uniform", "--shard", "2/3", "--runs", "30",
                                             "--depth", "20", "--corpus", "c1", "--out", "f1", "--json"], in: scratch)
        XCTAssertEqual(first.status, 1, first.output)
        let report = try JSONValue.parse(first.stdout)
        guard case .array(let findings)? = report["findings"], let finding = findings.first,
              case .string(let command)? = finding["foundBy"], case .int(let run)? = finding["run"] else {
            return XCTFail(first.stdout)
        }
        XCTAssertEqual(finding["shard"], .string("2/3"))
        XCTAssertEqual(report["shard"], .string("2/3"))
        XCTAssertEqual(run % 3, 1, "run \(run) is shard 2's")
        XCTAssertEqual(command, "rulebench fuzz planted --seed 1 --search uniform --depth 20 --shard 2/3 --runs \(run + 1)")
        guard case .string(let scenario)? = finding["scenario"] else { return XCTFail(first.stdout) }
        // Named after the bug, not the shard: shards sharing a folder keep every file (FindingWriter).
        XCTAssertTrue(scenario.hasSuffix("/planted-undoRestores-dash_step-step.lua-30.yaml"), scenario)
        let text = try String(contentsOfFile: scenario, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("# Found by: \(command)\n# Shard: 2/3\n"), text)

        // The command, run as written (with empty folders), finds the same bug at the same run.
        let words = command.split(separator: " ").map(String.init).dropFirst()
        let again = try RulebenchCommand.run(Array(words) + ["--corpus", "c2", "--out", "f2", "--json"], in: scratch)
        XCTAssertEqual(again.status, 1, again.output)
        let second = try JSONValue.parse(again.stdout)
        guard case .array(let refound)? = second["findings"], let same = refound.first else { return XCTFail(again.stdout) }
        XCTAssertEqual(same["run"], .int(run))
        XCTAssertEqual(same["blame"], finding["blame"])
        XCTAssertEqual(same["shrunkSteps"], finding["shrunkSteps"])
    }
}
