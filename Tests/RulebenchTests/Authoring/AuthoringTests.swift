import Foundation
import XCTest
@testable import Rulebench

/// The authoring tools: `check` (PackChecker), `new` (PackScaffold), `play`
/// (PlaySession), their commands as a user runs them, and the README's
/// "Your first rule" tutorial run exactly as written.
final class AuthoringTests: XCTestCase {
    private static let repository = TestPaths.repository
    private static let fixtures = TestPaths.fixtures.appendingPathComponent("authoring")

    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-authoring-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    // MARK: check

    private func check(_ fixture: String) throws -> [PackProblem] {
        try PackChecker(pack: AuthoringTests.fixtures.appendingPathComponent(fixture).path).check()
    }

    private func assertProblem(_ problem: PackProblem?, _ severity: PackProblem.Severity, file suffix: String, line: Int?,
                               containing text: String, file: StaticString = #filePath, testLine: UInt = #line) {
        guard let problem else { return XCTFail("no problem found", file: file, line: testLine) }
        XCTAssertEqual(problem.severity, severity, "\(problem)", file: file, line: testLine)
        XCTAssertTrue(problem.file.hasSuffix("Fixtures/authoring/" + suffix), "\(problem)", file: file, line: testLine)
        XCTAssertEqual(problem.line, line, "\(problem)", file: file, line: testLine)
        XCTAssertTrue(problem.message.contains(text), "\(problem)", file: file, line: testLine)
    }

    func testCleanPacksHaveNoProblems() throws {
        XCTAssertEqual(try check("clean").map(\.description), [])
        let template = try PackChecker(pack: AuthoringTests.repository.appendingPathComponent("rules/template").path).check()
        XCTAssertEqual(template.map(\.description), [])
        let desert = try PackChecker(pack: AuthoringTests.repository.appendingPathComponent("rules/desert").path).check()
        XCTAssertEqual(desert.filter { $0.severity == .error }.map(\.description), [])
    }

    func testASyntaxErrorIsReportedWithFileAndLineAndStopsTheCheck() throws {
        let problems = try check("syntax")
        XCTAssertEqual(problems.count, 1, problems.map(\.description).joined(separator: "\n"))
        assertProblem(problems.first, .error, file: "syntax/actions/add.lua", line: 4, containing: "unexpected symbol near 'end'")
        XCTAssertTrue(problems.first?.message.contains("fix this first") == true)
    }

    func testAnActionNothingReachesIsAWarning() throws {
        let problems = try check("unreachable")
        XCTAssertEqual(problems.count, 1, "inc has no legal but twice queues it: \(problems)")
        assertProblem(problems.first, .warning, file: "unreachable/actions/reset.lua", line: nil, containing: "'reset' has no legal function")
    }

    func testParamsDeclaredButUnusedAndUsedButUndeclared() throws {
        let problems = try check("params")
        XCTAssertEqual(problems.count, 2, problems.map(\.description).joined(separator: "\n"))
        assertProblem(problems.first, .warning, file: "params/actions/add.lua", line: 5, containing: "param 'why' of 'add' is declared but never used")
        assertProblem(problems.last, .warning, file: "params/actions/add.lua", line: 10, containing: "a.step is used but 'step' is not a declared param")
    }

    func testLegalEmittingParamsThatCheckRejectsIsAnError() throws {
        let problems = try check("disagree")
        XCTAssertEqual(problems.count, 1, problems.map(\.description).joined(separator: "\n"))
        assertProblem(problems.first, .error, file: "disagree/actions/add.lua", line: 4,
                      containing: "legal emits `add n=4` but check rejects it: at most 3 at a time")
    }

    func testSetupFailingForTheDeclaredOptionsIsAnError() throws {
        let problems = try check("badsetup")
        XCTAssertEqual(problems.count, 1, problems.map(\.description).joined(separator: "\n"))
        assertProblem(problems.first, .error, file: "badsetup/pack.lua", line: 6, containing: "setup fails (seed 1, default options): start must not exceed limit")
        // The same pack with options that suit it is clean.
        var options = PackChecker.Options()
        options.setupOptions = ["start": 5]
        let fixed = try PackChecker(pack: AuthoringTests.fixtures.appendingPathComponent("badsetup").path, options: options).check()
        XCTAssertEqual(fixed.map(\.description), [])
    }

    func testAnInvariantFailingOnTheInitialStateIsAnError() throws {
        let problems = try check("badinvariant")
        XCTAssertEqual(problems.count, 1, problems.map(\.description).joined(separator: "\n"))
        assertProblem(problems.first, .error, file: "badinvariant/pack.lua", line: 9, containing: "count must be positive")
    }

    func testAnUndoThatDoesNotRestoreTheStateIsAnError() throws {
        let problems = try check("badundo")
        XCTAssertEqual(problems.count, 1, problems.map(\.description).joined(separator: "\n"))
        assertProblem(problems.first, .error, file: "badundo/actions/add.lua", line: 8, containing: "count: before 0, after undo 1")
    }

    func testAMissingPackIsBadInput() {
        XCTAssertThrowsError(try PackChecker(pack: scratch.appendingPathComponent("nothing").path).check()) { error in
            guard case RulebenchError.badInput(let problem) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(problem.message.contains("unknown rule pack"), problem.message)
        }
    }

    func testProblemsPrintLikeCompilerMessages() {
        XCTAssertEqual(PackProblem(.error, file: "rules/x/actions/a.lua", line: 3, "boom").description, "rules/x/actions/a.lua:3: error: boom")
        XCTAssertEqual(PackProblem(.warning, file: "rules/x/actions/a.lua", "hm").description, "rules/x/actions/a.lua: warning: hm")
    }

    func testTheParamsScanIgnoresCommentsAndStringsAndSeesMultipleAssignments() {
        let lint = ActionSourceLint(name: "move", file: "move.lua", source: """
            -- move: a.ghost in a comment is not a use
            --[[ nor a.phantom
                 in a long comment ]]
            return {
              params = { who = "string", to = "string", via = { nested = "string" } },
              check = function(g, act)
                if act.to == "a.fake" then return [[ act.spirit ]] end
              end,
              apply = function(g, act)
                act.from, act.note = g.at[act.who], "x"
                g.log = "moved " .. act.who .. " to "..act.to
              end,
              undo = function(g, act) g.at[act.who] = act.from end,
            }
            """)
        XCTAssertEqual(lint.actionObjectNames, ["a", "act"])
        XCTAssertEqual(lint.declaredParams?.map(\.name), ["who", "to", "via"])
        let uses = lint.fieldUses
        XCTAssertEqual(Set(uses.map(\.field)), ["to", "from", "note", "who"])
        XCTAssertEqual(Set(uses.filter(\.assigned).map(\.field)), ["from", "note"])
        XCTAssertEqual(lint.paramProblems(declared: nil).map(\.message).count, 1)
        XCTAssertTrue(lint.paramProblems(declared: nil).first?.message.contains("param 'via'") == true)
        XCTAssertEqual(lint.paramProblems(declared: nil).first?.line, 5)
    }

    // MARK: new

    func testANewPackPassesCheckItsScenarioAndAShortFuzz() throws {
        let scaffold = PackScaffold(name: "race", rulesDirectory: scratch.appendingPathComponent("rules"),
                                    scenariosDirectory: scratch.appendingPathComponent("scenarios"))
        let written = try scaffold.create().map { $0.path.replacingOccurrences(of: scratch.standardizedFileURL.path + "/", with: "") }
        XCTAssertEqual(written, ["rules/race/pack.lua", "rules/race/track.lua", "rules/race/actions/step.lua",
                                 "rules/race/actions/dash.lua", "rules/race/sequences/start.yaml", "scenarios/race/first.yaml",
                                 // the editor files, as none were there (ConsumerTests checks them)
                                 "scenarios/scenario.schema.json", ".vscode/settings.json", ".luarc.json", "lua/rulebench.d.lua"])
        let pack = scaffold.packDirectory.path
        let game = try Game(pack: pack)
        XCTAssertEqual(game.pack.name, "race")
        XCTAssertTrue(game.pack.actions["dash"]?.hasAnimate == true, "the action with subactions has an animation")
        XCTAssertEqual(try PackChecker(pack: pack).check().map(\.description), [])

        let scenario = ScenarioRunner().run(fileAt: scaffold.scenarioDirectory.appendingPathComponent("first.yaml"))
        XCTAssertEqual(scenario.status, .passed, "\(String(describing: scenario.failure?.summary)) \(String(describing: scenario.problem))")

        var options = Fuzzer.Options(pack: pack)
        options.runs = 10
        options.depth = 40
        options.configuration.printHandler = { _ in }
        let (reports, progress) = Fuzzer(options: options).run()
        XCTAssertEqual(reports.map(\.finding.description), [])
        XCTAssertEqual(progress.runs, 10)
    }

    func testANewPackInOtherFoldersNamesItsPackByPath() throws {
        let scaffold = PackScaffold(name: "duel", rulesDirectory: scratch.appendingPathComponent("games/rules"),
                                    scenariosDirectory: scratch.appendingPathComponent("qa/scenarios"))
        try scaffold.create()
        let yaml = try String(contentsOf: scaffold.scenarioDirectory.appendingPathComponent("first.yaml"), encoding: .utf8)
        XCTAssertTrue(yaml.contains("rules: ../../../games/rules/duel\n"), yaml)
        let report = ScenarioRunner().run(fileAt: scaffold.scenarioDirectory.appendingPathComponent("first.yaml"))
        XCTAssertEqual(report.status, .passed, "\(String(describing: report.problem))")
    }

    func testNewRefusesBadNamesAndExistingFolders() throws {
        for name in ["", "9lives", "my-game", "two words", "end", "../escape", String(repeating: "x", count: 65)] {
            XCTAssertNotNil(PackScaffold.problem(withName: name), name)
            XCTAssertThrowsError(try PackScaffold(name: name, rulesDirectory: scratch, scenariosDirectory: scratch).create(), name)
        }
        XCTAssertNil(PackScaffold.problem(withName: "my_game2"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path), [], "nothing was written")

        let rules = scratch.appendingPathComponent("rules"), scenarios = scratch.appendingPathComponent("scenarios")
        let existing = scenarios.appendingPathComponent("race/mine.yaml")
        try FileManager.default.createDirectory(at: existing.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: existing)
        XCTAssertThrowsError(try PackScaffold(name: "race", rulesDirectory: rules, scenariosDirectory: scenarios).create()) { error in
            XCTAssertTrue("\(error)".contains("already exists"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: rules.appendingPathComponent("race").path), "no half-made pack")
        XCTAssertEqual(try String(contentsOf: existing, encoding: .utf8), "keep me")
    }

    // MARK: play

    private final class Transcript: @unchecked Sendable {
        var text = ""
    }

    private func session(_ pack: String = "rules/template", seed: Int64 = 1) throws -> (PlaySession, Transcript) {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        let game = try Game(pack: AuthoringTests.repository.appendingPathComponent(pack).path, seed: seed, configuration: configuration)
        let transcript = Transcript()
        return (PlaySession(game: game) { transcript.text += $0 }, transcript)
    }

    private func square(_ game: Game, _ token: String) throws -> StateValue? {
        try game.state(at: StatePath(parsing: "tokens.\(token).square"))
    }

    func testPlayPerformsByNumberAndByNameAndUndoesAndRedoes() throws {
        let (play, out) = try session()
        let game = play.game
        play.start()
        XCTAssertTrue(out.text.contains("p1 @........."), out.text)
        XCTAssertTrue(out.text.contains("  dash  [1] token=\"p1\"   [2] token=\"p2\"\n  step  [3] token=\"p1\"   [4] token=\"p2\""), out.text)

        XCTAssertTrue(play.handle("3"))
        XCTAssertEqual(try square(game, "p1"), 2, "action 3 is step p1")
        XCTAssertTrue(play.handle("dash token=p2"))
        XCTAssertEqual(try square(game, "p2"), 3)
        XCTAssertTrue(out.text.contains("did dash token=\"p2\" (subactions step, step; sounds whoosh, step, step; animation 0.70 s)"), out.text)

        play.handle("undo")
        XCTAssertEqual(try square(game, "p2"), 1)
        play.handle("redo")
        XCTAssertEqual(try square(game, "p2"), 3)
        play.handle("undo turn")
        XCTAssertEqual(game.history.cursor, 0, "the template has no checkpoints: undo turn goes back to the start")
        XCTAssertTrue(out.text.contains("undid 2 actions, back to the start"), out.text)
        play.handle("redo 2")
        XCTAssertEqual(game.history.cursor, 2)

        out.text = ""
        play.handle("state tokens.p2.square")
        XCTAssertEqual(out.text, "tokens.p2.square = 3\n")
        out.text = ""
        play.handle("history")
        XCTAssertEqual(out.text, "history: 2 applied\n  1. step token=\"p1\"\n  2. dash token=\"p2\"  <- now\n")
        out.text = ""
        play.handle("timeline")
        XCTAssertTrue(out.text.hasPrefix("timeline of dash token=\"p2\" (0.70 s):\n"), out.text)
        XCTAssertTrue(out.text.contains("token:p2.square"), out.text)
        XCTAssertEqual(play.errorCount, 0)
    }

    func testBadInputIsShownAndTheSessionGoesOn() throws {
        let (play, out) = try session()
        let lines = ["frobnicate", "99", "step token=p9", "step token", "undo", "redo", "undo 0", "state tokens..x",
                     "save", "do", "step who=\"p1", "timeline", "step token=p1"]
        var input = lines.makeIterator()
        play.run { input.next() }
        let errors = out.text.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        XCTAssertEqual(errors.count, lines.count - 1, out.text)
        XCTAssertEqual(play.errorCount, lines.count - 1)
        XCTAssertTrue(errors[0].contains("unknown command or action 'frobnicate'"), String(errors[0]))
        XCTAssertTrue(errors[1].contains("no action 99: choose 1 to 4"), String(errors[1]))
        XCTAssertTrue(errors[2].contains("rejected by step: no token p9"), String(errors[2]))
        XCTAssertTrue(errors[4].contains("nothing to undo"), String(errors[4]))
        XCTAssertEqual(try square(play.game, "p1"), 2, "the last line still played after every error")
    }

    func testQuitEndsTheSessionAndSaveWritesAReplayableHistory() throws {
        let (play, _) = try session(seed: 4)
        let file = scratch.appendingPathComponent("game.json")
        var input = ["dash token=p1", "2", "undo", "save \(file.path)", "quit", "step token=p1"].makeIterator()
        play.run { input.next() }
        XCTAssertEqual(play.game.history.entries.count, 2, "the line after quit was not read")
        let replayed = try Game.replay(contentsOf: file)
        XCTAssertEqual(replayed.history.entries.map(\.call), play.game.history.entries.map(\.call))
        XCTAssertEqual(replayed.history.cursor, 1)
        XCTAssertEqual(replayed.stateHash, play.game.stateHash)
    }

    // MARK: The commands

    /// The `rulebench` executable built with the tests (beside the test bundle), else the repository's debug build.
    private func binary() throws -> URL {
        var folders: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        if let first = CommandLine.arguments.first { folders.append(URL(fileURLWithPath: first).deletingLastPathComponent()) }
        folders.append(AuthoringTests.repository.appendingPathComponent(".build/debug"))
        for folder in folders {
            let candidate = folder.appendingPathComponent("rulebench")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.resolvingSymlinksInPath() }
        }
        XCTFail("the rulebench executable is not built: run `swift build` first (looked in \(folders.map(\.path)))")
        throw CocoaError(.fileNoSuchFile)
    }

    private struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    private func run(_ command: String, arguments: [String], input: String = "", in directory: URL) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        // Standard error goes to a file, so neither stream can fill a pipe and block the process.
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        return Run(status: process.terminationStatus, stdout: output, stderr: errors)
    }

    private func rulebench(_ arguments: String..., input: String = "", in directory: URL? = nil) throws -> Run {
        try run(binary().path, arguments: arguments, input: input, in: directory ?? scratch)
    }

    func testCommandsExitCodes() throws {
        let clean = AuthoringTests.fixtures.appendingPathComponent("clean").path
        XCTAssertEqual(try rulebench("check", clean).status, 0)
        let warned = try rulebench("check", AuthoringTests.fixtures.appendingPathComponent("unreachable").path)
        XCTAssertEqual(warned.status, 0, "warnings do not fail")
        XCTAssertTrue(warned.stdout.contains("reset.lua: warning: 'reset' has no legal function"), warned.stdout)
        let broken = try rulebench("check", AuthoringTests.fixtures.appendingPathComponent("disagree").path)
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(broken.stdout.contains("disagree/actions/add.lua:4: error: legal emits `add n=4`"), broken.stdout)
        XCTAssertTrue(broken.stdout.hasSuffix(": 1 error, 0 warnings\n"), broken.stdout)
        XCTAssertEqual(try rulebench("check", "no_such_pack").status, 2)

        let made = try rulebench("new", "race")
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertTrue(made.stdout.contains("created rules/race/actions/dash.lua"), made.stdout)
        XCTAssertEqual(try rulebench("new", "race").status, 2, "the folder exists")
        XCTAssertEqual(try rulebench("new", "bad-name").status, 2)
        XCTAssertEqual(try rulebench("check", "race").status, 0)

        let played = try rulebench("play", "race", "--seed", "2", input: "step token=p1\nbogus\nundo\nhistory\n")
        XCTAssertEqual(played.status, 0, "the end of input ends the session: \(played.stderr)")
        XCTAssertTrue(played.stdout.contains("did step token=\"p1\""), played.stdout)
        XCTAssertTrue(played.stdout.contains("error: unknown command or action 'bogus'"), played.stdout)
        XCTAssertTrue(played.stdout.hasSuffix("history: 0 applied, 1 undone (redo brings them back)\n  1. step token=\"p1\"  (undone)\n"), played.stdout)
        XCTAssertEqual(try rulebench("play", "no_such_pack").status, 2)
    }

    func testEveryAuthoringCommandHasHelpWithAnExample() throws {
        for command in ["play", "studio", "check", "new"] {
            let help = try rulebench("help", command)
            XCTAssertEqual(help.status, 0, command)
            XCTAssertTrue(help.stdout.contains("Example"), "\(command): \(help.stdout)")
            XCTAssertTrue(help.stdout.contains("rulebench \(command) "), "\(command): \(help.stdout)")
            XCTAssertTrue(help.stdout.contains("Exit codes"), "\(command): \(help.stdout)")
        }
    }

    // MARK: The README tutorial

    /// One fenced block of the tutorial: its language, its text, and the file
    /// it writes (named by the last "Create `PATH`:" before it), if any.
    private struct TutorialBlock {
        let language: String
        let text: String
        let file: String?
    }

    private func tutorialBlocks() throws -> [TutorialBlock] {
        let readme = try String(contentsOf: AuthoringTests.repository.appendingPathComponent("README.md"), encoding: .utf8)
        guard let start = readme.range(of: "\n## Your first rule\n") else {
            XCTFail("README.md has no '## Your first rule' section")
            return []
        }
        let rest = readme[start.upperBound...]
        let section = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
        var blocks: [TutorialBlock] = []
        var prose = ""
        var fence: (language: String, lines: [String])?
        for line in section.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if var open = fence {
                if line == "```" {
                    let marker = LuaSourceScan.matches("Create `([^`]+)`:", in: prose).last?.groups[0]
                    blocks.append(TutorialBlock(language: open.language, text: open.lines.joined(separator: "\n") + "\n", file: marker))
                    fence = nil
                    prose = ""
                } else {
                    open.lines.append(line)
                    fence = open
                }
            } else if line.hasPrefix("```") {
                fence = (String(line.dropFirst(3)), [])
            } else {
                prose += line + "\n"
            }
        }
        XCTAssertNil(fence, "a code block of the tutorial is not closed")
        return blocks
    }

    func testTheReadmeTutorialRunsExactlyAsWritten() throws {
        let blocks = try tutorialBlocks()
        let commands = blocks.filter { $0.language == "sh" }.flatMap { $0.text.split(separator: "\n").map(String.init) }
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.hasPrefix("#") }
        // What the issue asks the tutorial to walk through.
        XCTAssertTrue(commands.contains { $0.contains("rulebench new ") }, "\(commands)")
        XCTAssertTrue(commands.contains { $0.contains("rulebench run ") }, "\(commands)")
        XCTAssertTrue(commands.contains { $0.contains("rulebench fuzz ") }, "\(commands)")
        let files = blocks.compactMap(\.file)
        XCTAssertTrue(files.contains { $0.contains("/actions/") && $0.hasSuffix(".lua") }, "\(files)")
        XCTAssertTrue(files.contains { $0.hasPrefix("scenarios/") && $0.hasSuffix(".yaml") }, "\(files)")
        XCTAssertTrue(blocks.contains { $0.file?.contains("/actions/") == true && $0.text.contains("undo = function") }, "the new action has an undo")

        // A fresh folder where `.build/debug/rulebench` is the tool built with these tests.
        let tool = try binary()
        let debug = scratch.appendingPathComponent(".build/debug")
        try FileManager.default.createDirectory(at: debug, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: debug.appendingPathComponent("rulebench"), withDestinationURL: tool)

        for (index, block) in blocks.enumerated() {
            if block.language == "sh" {
                for command in block.text.split(separator: "\n").map(String.init)
                where !command.trimmingCharacters(in: .whitespaces).isEmpty && !command.hasPrefix("#") {
                    let result = try run("/bin/sh", arguments: ["-c", command], in: scratch)
                    XCTAssertEqual(result.status, 0, "tutorial block \(index + 1): `\(command)` failed:\n\(result.stdout)\n\(result.stderr)")
                    guard result.status == 0 else { return }
                }
            } else {
                guard let file = block.file else {
                    return XCTFail("tutorial block \(index + 1) (\(block.language)) is neither a shell command nor a file: "
                                   + "precede it with \"Create `PATH`:\"")
                }
                let url = scratch.appendingPathComponent(file)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(block.text.utf8).write(to: url)
            }
        }
        // The tutorial's action is there and its scenario passed along with the pack's own.
        XCTAssertTrue(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("rules/race/actions/jump_back.lua").path))
        let scenarios = try rulebench("run", "scenarios/race")
        XCTAssertTrue(scenarios.stdout.contains("2 scenarios: 2 passed, 0 failed"), scenarios.stdout)
    }
}
