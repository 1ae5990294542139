import Foundation

/// Runs fuzz programs in games of their pack and checks the fuzzer's properties after each step.
struct FuzzExecutor {
    /// How a game is made for each program.
    var configuration: Game.Configuration
    /// A folder a relative pack path is resolved against.
    var base: URL?
    /// Checks an action's animation plans (property 8); nil when not checked.
    var animationCheck: ((HistoryEntry) -> String?)?
    /// The games programs run in, kept loaded between programs.
    let games = GameCache()

    /// Two loaded games of the pack, restarted for each program rather than
    /// built anew: creating a Lua state and compiling the kernel and the pack
    /// costs more than a whole short program. `main` plays the programs;
    /// `replay` replays their saved histories from scratch.
    final class GameCache {
        var main: Game?
        var replay: Game?
    }

    /// What happened at one step, for reproducing it as a scenario.
    enum Outcome: Hashable {
        case performed(StateHash)
        case rejected(String)
        case failed(String)
        case undone(Int)
        case redone(Int)
    }

    /// The result of running a program.
    struct Result {
        var finding: FuzzFinding?
        /// The state hash after each step.
        var trace: [StateHash] = []
        /// The outcome of each step that ran.
        var outcomes: [Outcome] = []
        /// The legal actions offered before each step (recorded only when asked).
        var legal: [[ActionCall]] = []
        /// False when a `perform` step was not legal at its point (a shrink candidate to discard).
        var valid = true
    }

    /// A game of the program's pack, set up with its seed and options.
    func newGame(_ program: FuzzProgram) throws(RulebenchError) -> Game {
        try reuse(\.main, pack: program.pack, seed: program.seed, options: program.options)
    }

    /// The cached game at `slot`, restarted; a new one when there is none yet
    /// or its last restart failed.
    private func reuse(_ slot: ReferenceWritableKeyPath<GameCache, Game?>, pack: String, seed: Int64,
                       options: [String: StateValue]) throws(RulebenchError) -> Game {
        if let game = games[keyPath: slot] {
            do {
                try game.restart(seed: seed, options: options)
                return game
            } catch {
                games[keyPath: slot] = nil
                throw error
            }
        }
        let game = try Game(pack: pack, options: options, seed: seed, configuration: configuration, relativeTo: base)
        games[keyPath: slot] = game
        return game
    }

    /// What the step loop is told to do next.
    enum Next {
        case step(FuzzStep)
        case stop
        /// The program is not one a player could play (a shrink candidate to discard).
        case invalid
        case finding(FuzzFinding)
    }

    /// The step loop shared by replaying a program and generating one: a
    /// fresh game, then the steps `next` gives (for index 0, 1, ...), each
    /// run and checked, then the whole-history checks. Returns the program
    /// as played.
    func play(_ start: FuzzProgram, finalChecks: Bool, result: inout Result,
              next: (Game, Int, inout Result) -> Next) -> FuzzProgram {
        var program = start
        program.steps = []
        let game: Game
        do {
            game = try newGame(program)
        } catch {
            result.finding = FuzzFinding(property: .invariantsHold, stepIndex: -1, message: "setup failed: \(error)", differences: [], blame: nil)
            return start
        }
        loop: for index in 0... {
            switch next(game, index, &result) {
            case .step(let step):
                program.steps.append(step)
                if let found = run(step, at: index, in: game, result: &result) {
                    result.finding = found
                    return program
                }
                result.trace.append(game.stateHash)
            case .stop:
                break loop
            case .invalid:
                result.valid = false
                return program
            case .finding(let found):
                result.finding = found
                return program
            }
        }
        if finalChecks, let found = checkWholeHistory(game, program: program, stepCount: program.steps.count) {
            result.finding = found
        }
        return program
    }

    /// Runs a whole program. With `checkLegality`, each `perform` must be among
    /// the legal actions of its state (otherwise the result is marked invalid).
    func execute(_ program: FuzzProgram, checkLegality: Bool, recordLegal: Bool = false, finalChecks: Bool = true) -> Result {
        var result = Result()
        _ = play(program, finalChecks: finalChecks, result: &result) { game, index, result in
            guard index < program.steps.count else { return .stop }
            let step = program.steps[index]
            if checkLegality || recordLegal, case .perform(let call) = step {
                let legal: [ActionCall]
                do throws(RulebenchError) { legal = try game.legalActions() } catch {
                    return .finding(finding(.legalIsAllowed, index, "legal raised an error: \(error)", error))
                }
                if recordLegal { result.legal.append(legal) }
                if checkLegality && !legal.contains(call) { return .invalid }
            } else if recordLegal {
                result.legal.append([])
            }
            return .step(step)
        }
        return result
    }

    /// Runs one step and checks what it must guarantee; returns a finding or nil.
    func run(_ step: FuzzStep, at index: Int, in game: Game, result: inout Result) -> FuzzFinding? {
        let before = game.stateHash
        let entries = game.history.entries.count
        /// Property 3: after a failure, the live state is the state before it.
        func unchanged() -> Bool {
            (try? game.liveStateHash()) == before && game.history.entries.count == entries
        }
        switch step {
        case .perform(let call):
            do {
                let entry = try game.perform(call)
                result.outcomes.append(.performed(entry.hash))
                if let problem = animationCheck?(entry) {
                    return FuzzFinding(property: .animationIsSound, stepIndex: index, message: "\(call): \(problem)", differences: [], blame: call.name)
                }
            } catch {
                result.outcomes.append(.failed("\(error)"))
                if !unchanged() {
                    return finding(.failureChangesNothing, index, "\(call) failed and changed the state: \(error)", error)
                }
                if case .invariant = error { return finding(.invariantsHold, index, "after \(call): \(error)", error) }
                return finding(.legalIsAllowed, index, "\(call) was emitted by legal but failed: \(error)", error)
            }
        case .attempt(let call):
            do {
                let entry = try game.perform(call)
                result.outcomes.append(.performed(entry.hash))
            } catch {
                if case .rejected(let reason, _) = error { result.outcomes.append(.rejected(reason)) } else { result.outcomes.append(.failed("\(error)")) }
                if !unchanged() {
                    return finding(.failureChangesNothing, index, "\(call) failed and changed the state: \(error)", error)
                }
            }
        case .undo(let count):
            let n = min(count, game.history.cursor)
            for _ in 0..<n {
                do { try game.undo() } catch {
                    return finding(.undoRestores, index, "undo of \(game.history.entries[game.history.cursor].call)", error)
                }
            }
            result.outcomes.append(.undone(n))
        case .undoTurn:
            do {
                let undone = try game.undoTurn()
                result.outcomes.append(.undone(undone.count))
            } catch {
                return finding(.undoRestores, index, "undo turn", error)
            }
        case .redo(let count):
            let n = min(count, game.history.entries.count - game.history.cursor)
            for _ in 0..<n {
                let call = game.history.entries[game.history.cursor].call
                do { try game.redo() } catch {
                    return finding(.redoReproduces, index, "redo of \(call)", error)
                }
            }
            result.outcomes.append(.redone(n))
        }
        return nil
    }

    /// Properties 6 and 7: rewinding gives the initial state, and the saved
    /// history replays from scratch with the same hash at every step.
    func checkWholeHistory(_ game: Game, program: FuzzProgram, stepCount: Int) -> FuzzFinding? {
        let saved = SavedHistory(of: game)
        let reloaded: SavedHistory
        do {
            // Round-trip through the saved text in memory: no file I/O per run.
            reloaded = try SavedHistory(json: saved.json, file: "(saved history)")
        } catch {
            return FuzzFinding(property: .saveAndLoad, stepIndex: stepCount - 1, message: "the history could not be saved and read back: \(error)", differences: [], blame: nil)
        }
        if reloaded.steps.map(\.hash) != saved.steps.map(\.hash) || reloaded.steps.map(\.call) != saved.steps.map(\.call) {
            return FuzzFinding(property: .saveAndLoad, stepIndex: stepCount - 1, message: "the saved history reads back differently", differences: [], blame: nil)
        }
        do {
            let replayGame = try reuse(\.replay, pack: program.pack, seed: reloaded.seed, options: reloaded.options)
            try reloaded.replay(into: replayGame, restarting: false, source: "(saved history)")
        } catch {
            return FuzzFinding(property: .rewindAndReplay, stepIndex: stepCount - 1, message: "replaying the history from scratch: \(error)", differences: [], blame: nil)
        }
        do {
            try game.rewind()
        } catch {
            return finding(.undoRestores, stepCount - 1, "rewinding the whole history", error)
        }
        if game.stateHash != game.history.initialHash {
            return FuzzFinding(property: .rewindAndReplay, stepIndex: stepCount - 1,
                               message: "rewinding gave state hash \(game.stateHash), not the initial \(game.history.initialHash)", differences: [], blame: nil)
        }
        return nil
    }

    private func finding(_ property: FuzzFinding.Property, _ index: Int, _ message: String, _ error: RulebenchError) -> FuzzFinding {
        switch error {
        case .undoMismatch(let problems):
            return FuzzFinding(property: property, stepIndex: index, message: "\(message): the undo did not restore the state",
                               differences: problems.flatMap(\.differences),
                               blame: problems.first.map { "\($0.action)" + ($0.undoFunction.map { " (undo at \($0))" } ?? "") })
        case .redoMismatch(let mismatch):
            return FuzzFinding(property: property, stepIndex: index, message: mismatch.description, differences: [], blame: mismatch.action)
        case .script(let failure):
            return FuzzFinding(property: property, stepIndex: index, message: message, differences: [],
                               blame: (failure.action ?? "") + (failure.location.map { " at \($0)" } ?? ""))
        case .invariant(let name, _, let location):
            return FuzzFinding(property: property, stepIndex: index, message: message, differences: [],
                               blame: "invariant \(name)" + (location.map { " at \($0)" } ?? ""))
        default:
            return FuzzFinding(property: property, stepIndex: index, message: message, differences: [], blame: nil)
        }
    }
}
