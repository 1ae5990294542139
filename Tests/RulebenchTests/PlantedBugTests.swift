import XCTest
@testable import Rulebench

/// The planted-bug suite: deliberate undo and determinism bugs in real packs.
/// Each must be caught by the fuzzer from a fixed seed within a bounded number
/// of steps, and shrunk to a small reproduction; the unmutated packs pass.
final class PlantedBugTests: XCTestCase {
    /// One deliberate bug: in `file` of `pack`, `original` is replaced by `mutated`
    /// (and each further edit applied in turn).
    struct Mutant {
        let name: String
        let pack: String
        let file: String
        let original: String
        let mutated: String
        let expected: FuzzFinding.Property
        /// The most steps the shrunk reproduction may have.
        let maxShrunkSteps: Int
        var moreEdits: [(String, String)] = []
    }

    static let mutants: [Mutant] = [
        Mutant(name: "desert remove_sand undo forgets the sand supply", pack: "desert", file: "actions/remove_sand.lua",
               original: "    game.sand = game.sand - a.removed\n", mutated: "\n",
               expected: .undoRestores, maxShrunkSteps: 2),
        Mutant(name: "desert slide undo leaves the tile on the storm's cell", pack: "desert", file: "actions/slide.lua",
               original: "      game.board[a.to] = nil\n", mutated: "\n",
               expected: .undoRestores, maxShrunkSteps: 2),
        Mutant(name: "desert relocate (a subaction of move) undoes to the wrong cell", pack: "desert", file: "actions/relocate.lua",
               original: "game.players[a.player].cell = a.from", mutated: "game.players[a.player].cell = a.to",
               expected: .undoRestores, maxShrunkSteps: 2),
        Mutant(name: "step undo off by one", pack: "template", file: "actions/step.lua",
               original: "game.tokens[a.token].square = a.from\n", mutated: "game.tokens[a.token].square = a.from + 1\n",
               expected: .undoRestores, maxShrunkSteps: 2),
        Mutant(name: "step undo forgets a field", pack: "template", file: "actions/step.lua",
               original: "    game.moves = game.moves - 1\n", mutated: "\n",
               expected: .undoRestores, maxShrunkSteps: 2),
        Mutant(name: "dash plays both steps at once (animation conflict)", pack: "template", file: "actions/dash.lua",
               original: "subanimations = \"sequence\"", mutated: "subanimations = \"parallel\"",
               expected: .animationIsSound, maxShrunkSteps: 1),
        Mutant(name: "draw undo restores a copy of the card", pack: "cards", file: "actions/draw.lua",
               original: "table.insert(game.deck, a.card)", mutated: "table.insert(game.deck, require(\"rulebench\").copy(a.card))",
               expected: .undoRestores, maxShrunkSteps: 2),
        Mutant(name: "deal undo assumes its subactions are not undone yet (wrong order)", pack: "cards", file: "actions/deal.lua",
               original: "game.dealt = a.before", mutated: "game.dealt = game.dealt - #game.hands[game.order[1]] * #game.order",
               expected: .undoRestores, maxShrunkSteps: 2),
        Mutant(name: "draw picks with a module counter, not the engine generator", pack: "cards", file: "actions/draw.lua",
               original: "    a.card = table.remove(game.deck)\n",
               mutated: "    drawn.n = drawn.n + 1\n    a.pos = math.max(1, #game.deck - drawn.n % 2)\n    a.card = table.remove(game.deck, a.pos)\n",
               expected: .redoReproduces, maxShrunkSteps: 4,
               moreEdits: [("    table.insert(game.deck, a.card)", "    table.insert(game.deck, a.pos, a.card)"),
                           ("return {\n", "local drawn = { n = 0 }\nreturn {\n")]),
        Mutant(name: "play's legal emits a card past the end of the hand", pack: "cards", file: "actions/play.lua",
               original: "for i = 1, #game.hands[game.current] do", mutated: "for i = 1, #game.hands[game.current] + 1 do",
               expected: .legalIsAllowed, maxShrunkSteps: 2),
        Mutant(name: "draw undo is wrong only when nested in deal", pack: "cards", file: "actions/draw.lua",
               original: "table.remove(game.hands[a.player])", mutated: "table.remove(game.hands[game.current])",
               expected: .undoRestores, maxShrunkSteps: 2),
        Mutant(name: "scoring drifts after turn 10 (invariant broken after 20+ steps)", pack: "cards", file: "actions/play.lua",
               original: "game.scores[a.player] = game.scores[a.player] + a.card_table.value",
               mutated: "game.scores[a.player] = game.scores[a.player] + a.card_table.value + (game.turn > 10 and 1 or 0)",
               expected: .invariantsHold, maxShrunkSteps: 12),
        Mutant(name: "play undo writes false where the field was absent", pack: "cards", file: "actions/play.lua",
               original: "a.card_table.scored = nil", mutated: "a.card_table.scored = false",
               expected: .undoRestores, maxShrunkSteps: 4),
        Mutant(name: "pass undo forgets the turn counter", pack: "cards", file: "actions/pass.lua",
               original: "    game.turn = game.turn - 1\n", mutated: "\n",
               expected: .undoRestores, maxShrunkSteps: 3),
        Mutant(name: "play undo puts the card back at the end of the hand", pack: "cards", file: "actions/play.lua",
               original: "table.insert(game.hands[a.player], a.card, a.card_table)", mutated: "table.insert(game.hands[a.player], a.card_table)",
               expected: .undoRestores, maxShrunkSteps: 3),
        Mutant(name: "check writes the state", pack: "cards", file: "actions/play.lua",
               original: "    if game.dealt == 0 then return \"deal first\" end\n",
               mutated: "    game.checked = a.card\n    if game.dealt == 0 then return \"deal first\" end\n",
               expected: .legalIsAllowed, maxShrunkSteps: 2),
    ]

    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-mutants-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A copy of a pack of the repo, with the mutation applied.
    private func mutatedPack(_ mutant: Mutant, index: Int) throws -> URL {
        let source = EngineFixtures.repository.appendingPathComponent("rules").appendingPathComponent(mutant.pack)
        let copy = folder.appendingPathComponent("mutant\(index)-\(mutant.pack)")
        try FileManager.default.copyItem(at: source, to: copy)
        let file = copy.appendingPathComponent(mutant.file)
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains(mutant.original), "\(mutant.name): the original text is gone from \(mutant.file)")
        var mutated = text.replacingOccurrences(of: mutant.original, with: mutant.mutated)
        for (original, replacement) in mutant.moreEdits {
            XCTAssertTrue(mutated.contains(original), "\(mutant.name): '\(original)' is gone from \(mutant.file)")
            mutated = mutated.replacingOccurrences(of: original, with: replacement)
        }
        try mutated.write(to: file, atomically: true, encoding: .utf8)
        return copy
    }

    private func fuzz(_ pack: String, runs: Int = 30, depth: Int = 60) -> [Fuzzer.Report] {
        var options = Fuzzer.Options(pack: pack)
        options.seed = 1
        options.runs = runs
        options.depth = depth
        // Every distinct finding, not only the first: a mutant may break
        // another property first (the module counter fails the replay
        // before any redo), and the suite asks for the one it planted.
        options.keepGoing = true
        options.configuration.printHandler = { _ in }
        return Fuzzer(options: options).run().reports
    }

    func testEveryMutantIsCaughtAndShrunk() throws {
        var table: [String] = []
        for (index, mutant) in Self.mutants.enumerated() {
            let pack = try mutatedPack(mutant, index: index)
            let reports = fuzz(pack.path)
            guard let report = reports.first(where: { $0.finding.property == mutant.expected }) else {
                XCTFail("\(mutant.name): not caught as \(mutant.expected) (found: \(reports.map(\.finding.property)))")
                continue
            }
            XCTAssertLessThanOrEqual(report.shrunk.steps.count, mutant.maxShrunkSteps,
                                     "\(mutant.name): shrunk to \(report.shrunk.steps.map(\.description))")
            XCTAssertLessThanOrEqual(report.stepsToDetection, 30 * 60)
            // The reproduction fails the same way when run again from scratch.
            let again = FuzzExecutor(configuration: Game.Configuration(), base: nil)
                .execute(report.shrunk, checkLegality: false)
            XCTAssertEqual(again.finding?.property, mutant.expected, "\(mutant.name): the shrunk program does not reproduce")
            assertOneMinimal(report, mutant)
            table.append("| \(mutant.name) | \(mutant.pack) | \(report.finding.property) | \(report.stepsToDetection) | \(report.original.steps.count) → \(report.shrunk.steps.count) | \(String(format: "%.2f", report.shrinkSeconds)) s |")
        }
        print("| mutant | pack | caught as | steps to detection | run length → shrunk | shrink time |\n|---|---|---|---|---|---|\n" + table.joined(separator: "\n"))
    }

    /// No single step of the shrunk program can be deleted: the program
    /// without it is illegal or does not fail at the same place (judged with
    /// the end-of-run checks only when the finding needs them, as the
    /// shrinker does).
    private func assertOneMinimal(_ report: Fuzzer.Report, _ mutant: Mutant) {
        guard report.finding.property != .deterministic else { return }
        let executor = FuzzExecutor(configuration: Game.Configuration(), base: nil)
        let atTheEnd = executor.execute(report.shrunk, checkLegality: true, finalChecks: false).finding?.property != mutant.expected
        for index in report.shrunk.steps.indices {
            var shorter = report.shrunk
            shorter.steps.remove(at: index)
            let run = executor.execute(shorter, checkLegality: true, finalChecks: atTheEnd)
            XCTAssertFalse(run.valid && run.finding.map { report.key.admits($0) } == true,
                           "\(mutant.name): deleting step \(index + 1) of \(report.shrunk.steps.map(\.description)) still fails")
        }
    }

    func testUnmutatedPacksPass() {
        for pack in ["template", "cards", "desert"] {
            let path = EngineFixtures.repository.appendingPathComponent("rules").appendingPathComponent(pack).path
            let reports = fuzz(path)
            XCTAssertTrue(reports.isEmpty, "\(pack): \(reports.map(\.finding.description))")
        }
    }

    func testSameSeedGivesSameRun() {
        let path = EngineFixtures.repository.appendingPathComponent("rules/cards").path
        var options = Fuzzer.Options(pack: path)
        options.seed = 5
        let fuzzer = Fuzzer(options: options)
        let first = fuzzer.generate(gameSeed: 3, choices: 99)
        let second = fuzzer.generate(gameSeed: 3, choices: 99)
        XCTAssertEqual(first.0, second.0)
        XCTAssertEqual(first.1.trace, second.1.trace)
    }
}
