import XCTest
@testable import Rulebench

/// The fuzzer's step loop runs in the kernel (`Kernel/fuzz.lua`). It must
/// play and check every step exactly as `Game` does, record a failing step
/// (even one that ran out of budget) and go on, and leave the game where
/// the run ended.
final class FuzzKernelTests: XCTestCase {
    private func configuration(budget: Int64 = 10_000_000) -> Game.Configuration {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        configuration.instructionBudget = budget
        configuration.rulesDirectory = EngineFixtures.repository.appendingPathComponent("rules")
        return configuration
    }

    /// What one step does through `Game`, one crossing per operation: the
    /// reference the kernel's loop is compared with.
    private func play(_ step: FuzzStep, in game: Game) -> FuzzExecutor.Outcome? {
        switch step {
        case .perform(let call), .attempt(let call):
            do { return .performed(try game.perform(call).hash) } catch {
                if case .rejected(let reason, _) = error { return .rejected(reason) }
                return .failed("\(error)")
            }
        case .undo(let n):
            let count = min(n, game.history.cursor)
            for _ in 0..<count { guard (try? game.undo()) != nil else { return nil } }
            return .undone(count)
        case .redo(let n):
            let count = min(n, game.history.entries.count - game.history.cursor)
            for _ in 0..<count { guard (try? game.redo()) != nil else { return nil } }
            return .redone(count)
        case .undoTurn:
            return (try? game.undoTurn()).map { .undone($0.count) }
        case .undoLastTurn:
            return (try? game.undoLastTurn()).map { .undone($0.count) }
        }
    }

    func testKernelRunsPlayAsGamePlays() throws {
        for pack in ["cards", "desert", "template"] {
            var options = Fuzzer.Options(pack: pack)
            options.depth = 80
            options.configuration = configuration()
            let fuzzer = Fuzzer(options: options)
            for choices in [UInt64(1), 2, 0xFFFF_FFFF_FFFF_FFF0] {
                let (program, result) = fuzzer.generate(gameSeed: 7, choiceSeed: choices)
                XCTAssertNil(result.finding, "\(pack): \(result.finding?.description ?? "")")
                XCTAssertEqual(program.steps.count, 80, pack)
                XCTAssertTrue(program.steps.contains { if case .attempt = $0 { return true }; return false }, pack)
                XCTAssertTrue(program.steps.contains { if case .undo = $0 { return true }; return false }, pack)
                let game = try Game(pack: pack, seed: 7, configuration: configuration())
                for (index, step) in program.steps.enumerated() {
                    XCTAssertEqual(play(step, in: game), result.outcomes[index], "\(pack) step \(index + 1): \(step)")
                    XCTAssertEqual(game.stateHash, result.trace[index], "\(pack) step \(index + 1): \(step)")
                }
            }
        }
    }

    func testSameChoicesGiveTheSameSteps() {
        let fuzzer = Fuzzer(options: Fuzzer.Options(pack: EngineFixtures.repository.appendingPathComponent("rules/cards").path))
        let first = fuzzer.generate(gameSeed: 3, choiceSeed: 42)
        let again = fuzzer.generate(gameSeed: 3, choiceSeed: 42)
        let other = fuzzer.generate(gameSeed: 3, choiceSeed: 43)
        XCTAssertEqual(first.0, again.0)
        XCTAssertNotEqual(first.0.steps, other.0.steps)
    }

    func testGeneratorMatchesTheKernelTestsNumbers() {
        var random = FuzzRandom(seed: 12345)
        XCTAssertEqual([random.next(), random.next(), random.next()].map { Int64(bitPattern: $0) },
                       [2454886589211414944, 3778200017661327597, 2205171434679333405])
        random = FuzzRandom(seed: UInt64(bitPattern: -5))
        XCTAssertEqual((0..<5).map { _ in random.below(1000003) }, [438193, 603998, 511031, 954923, 524214])
    }

    /// An attempt that runs out of budget is an outcome, not the end of the
    /// run: counted (budget under 4M) and watched (the call is stopped and
    /// runs again counted) alike.
    func testBudgetFailureOfAnAttemptIsRecordedAndTheRunGoesOn() throws {
        // With coverage on too: its line hook shares the hook with the budget.
        for (budget, coverage): (Int64, Bool) in [(1_000_000, false), (8_000_000, false), (1_000_000, true), (8_000_000, true)] {
            var options = Fuzzer.Options(pack: ExplorerTests.walk)
            options.configuration = configuration(budget: budget)
            options.coverage = coverage
            options.setupOptions = ["bug": "slow", "spin": .int(1_000_000_000)]
            let executor = Fuzzer(options: options).executor
            var program = FuzzProgram(pack: ExplorerTests.walk, seed: 1, options: options.setupOptions)
            program.steps = [.attempt(ActionCall("mark", ["n": 1])), .undo(1), .attempt(ActionCall("mark", ["n": 9]))]
            let result = executor.execute(program, checkLegality: false, finalChecks: true)
            XCTAssertNil(result.finding, "budget \(budget): \(result.finding?.description ?? "")")
            guard result.outcomes.count == 3, case .failed(let message) = result.outcomes[0] else {
                return XCTFail("budget \(budget): three outcomes, the first a failure: \(result.outcomes)")
            }
            XCTAssertTrue(message.contains("instruction budget"), message)
            XCTAssertTrue(message.contains("mark.lua:"), message)
            XCTAssertEqual(result.outcomes[1], .undone(0))
            XCTAssertEqual(result.trace.count, 3)
            // A budget of 4M or more runs watched: each spinning attempt is
            // stopped and run again counted, alone, not the whole run (a
            // loaded machine may make other operations suspect too). Smaller
            // budgets are counted from the start and never run again.
            let reruns = try XCTUnwrap(executor.games.main).kernel.reruns
            if budget >= 4_000_000 {
                XCTAssertGreaterThanOrEqual(reruns.operations, 2, "budget \(budget)")
            } else {
                XCTAssertEqual(reruns.operations, 0, "budget \(budget)")
                XCTAssertEqual(reruns.calls, 0, "budget \(budget)")
            }
        }
    }

    /// A legal action that fails is a finding, blamed on the rule's line;
    /// the run stops there and the game is where it stopped.
    func testFailingLegalActionIsAFinding() throws {
        var options = Fuzzer.Options(pack: ExplorerTests.walk)
        options.configuration = configuration()
        options.setupOptions = ["bug": "error"]
        let executor = Fuzzer(options: options).executor
        var program = FuzzProgram(pack: ExplorerTests.walk, seed: 1, options: options.setupOptions)
        program.steps = [.perform(ActionCall("mark", ["n": 1])), .perform(ActionCall("mark", ["n": 2])), .undo(1)]
        let result = executor.execute(program, checkLegality: true)
        let finding = try XCTUnwrap(result.finding)
        XCTAssertEqual(finding.property, .legalIsAllowed)
        XCTAssertEqual(finding.stepIndex, 1)
        XCTAssertTrue(finding.message.contains("mark failed here"), finding.message)
        XCTAssertTrue(finding.blame?.contains("mark.lua:") == true, finding.blame ?? "")
        XCTAssertEqual(result.trace.count, 1)
        XCTAssertEqual(executor.games.main?.history.cursor, 1)
    }

    /// A redo whose plan differs from the first time is a finding that shows both plans.
    func testRedoWithAnotherPlanIsAFinding() throws {
        var options = Fuzzer.Options(pack: ExplorerTests.walk)
        options.configuration = configuration()
        options.setupOptions = ["bug": "plan"]
        let executor = Fuzzer(options: options).executor
        var program = FuzzProgram(pack: ExplorerTests.walk, seed: 1, options: options.setupOptions)
        program.steps = [.perform(ActionCall("mark", ["n": 1])), .undo(1), .redo(1)]
        let finding = try XCTUnwrap(executor.execute(program, checkLegality: true).finding)
        XCTAssertEqual(finding.property, .redoReproduces)
        XCTAssertEqual(finding.stepIndex, 2)
        XCTAssertTrue(finding.message.contains("animation plan"), finding.message)
        // The undo in between built its plan too (the counter went to 2).
        XCTAssertTrue(finding.message.contains("to = 1}") && finding.message.contains("to = 3}"), finding.message)
    }

    /// The end-of-run replay runs in the kernel, reports the first step that
    /// differs or fails as `replay(into:)` does, and leaves the game as setup made it.
    func testReplayInTheKernelChecksEveryHashAndLeavesTheGameAsItWas() throws {
        let played = try Game(pack: "cards", seed: 4, configuration: configuration())
        for _ in 0..<12 { try played.perform(try XCTUnwrap(played.legalActions().first)) }
        let saved = SavedHistory(of: played)
        let game = try Game(pack: "cards", seed: 4, configuration: configuration())
        let initial = try game.liveStateHash()
        XCTAssertNoThrow(try saved.verify(in: game, restarting: false))
        XCTAssertEqual(try game.liveStateHash(), initial)
        XCTAssertTrue(game.history.entries.isEmpty)

        var tampered = saved
        tampered.steps[5].hash = StateHash(hex: "0123456789abcdef")
        XCTAssertThrowsError(try tampered.verify(in: game, restarting: false)) { error in
            XCTAssertTrue("\(error)".contains("step 6 ("), "\(error)")
            XCTAssertTrue("\(error)".contains("the history says 0123456789abcdef"), "\(error)")
        }
        var failing = saved
        failing.steps[3].call = ActionCall("no_such_action")
        XCTAssertThrowsError(try failing.verify(in: game, restarting: false)) { error in
            XCTAssertTrue("\(error)".contains("step 4 (no_such_action) cannot be replayed"), "\(error)")
        }
        XCTAssertEqual(try game.liveStateHash(), initial)
        XCTAssertTrue(game.history.entries.isEmpty)
        // The game still plays after the replays.
        XCTAssertNoThrow(try game.perform(try XCTUnwrap(game.legalActions().first)))
    }

    /// The executor keeps a game per pack reference: a program of another
    /// pack gets a game of its own pack, not a restart of the cached one.
    func testProgramsOfAnotherPackRunInTheirOwnPack() throws {
        var options = Fuzzer.Options(pack: "template")
        options.configuration = configuration()
        let executor = Fuzzer(options: options).executor
        let template = FuzzProgram(pack: "template", seed: 1, options: [:], steps: [.perform(ActionCall("step", ["token": "p1"]))])
        XCTAssertNil(executor.execute(template, checkLegality: true).finding)
        let cards = FuzzProgram(pack: "cards", seed: 1, options: [:], steps: [.undo(1)])
        XCTAssertNil(executor.execute(cards, checkLegality: true).finding)
        XCTAssertEqual(executor.games.main?.pack.name, "cards")
        XCTAssertNil(executor.execute(template, checkLegality: true).finding)
        XCTAssertEqual(executor.games.main?.pack.name, "template")
    }

    /// A watched fuzz call whose last stretch (here, returning a long
    /// history, past its 1 ms allowance) runs long is stopped and runs again,
    /// counted, from where it began. (The case where it is found long only
    /// once it has returned is in Tests/KernelTests/fuzz.lua: fuzzabort.)
    func testARunStoppedInItsLastStretchRunsAgainFromItsStart() throws {
        var options = Fuzzer.Options(pack: FuzzCoverageTests.dead)
        options.configuration = configuration(budget: 4_000_000)   // the smallest watched budget: 1 ms per operation
        let executor = Fuzzer(options: options).executor
        var program = FuzzProgram(pack: FuzzCoverageTests.dead, seed: 1, options: [:])
        program.steps = Array(repeating: .perform(ActionCall("go")), count: 20_000)
        let result = executor.execute(program, checkLegality: false, finalChecks: false)
        XCTAssertNil(result.finding, result.finding?.description ?? "")
        XCTAssertEqual(result.trace.count, 20_000)
        XCTAssertEqual(executor.games.main?.history.cursor, 20_000)
    }
}

