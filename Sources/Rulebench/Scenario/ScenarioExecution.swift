import Foundation

/// One scenario being played: the game, and each step's operation (its
/// expectations are judged by `ExpectationCheck`).
final class ScenarioExecution {
    /// A game that is ready for step 1, or the setup's failure.
    enum Preparation {
        case ready(ScenarioExecution)
        case setupFailed(StepFailure)
    }

    let scenario: Scenario
    let game: Game

    private init(scenario: Scenario, game: Game) {
        self.scenario = scenario
        self.game = game
    }

    /// Loads the pack, runs its setup and the state overrides, and checks that
    /// every `do` step names an action of the pack with params it declares.
    ///
    /// Throws `.badInput` (at the scenario's `file:line:col`) for an unknown
    /// pack, a pack that does not load, an unknown action or param, a param of
    /// the wrong type, or an override path that cannot be written. A setup that
    /// fails in rule code is a failure of the scenario, not bad input. With
    /// `games`, the game is the worker's kept one when it runs this pack.
    static func prepare(_ scenario: Scenario, configuration: Game.Configuration, directory: URL,
                        games: ScenarioGames? = nil) throws(RulebenchError) -> Preparation {
        let rules = scenario.rules
        let game: Game
        do {
            if let games {
                game = try games.game(pack: rules.value, options: scenario.setup.options, seed: scenario.setup.seed, relativeTo: directory)
            } else {
                game = try Game(pack: rules.value, options: scenario.setup.options, seed: scenario.setup.seed,
                                configuration: configuration, relativeTo: directory)
            }
        } catch {
            switch (error, error.inputProblem?.subject) {
            case (_, .unknownPack(let name, let available)?):
                var message = "unknown rule pack '\(name)': give a pack folder under rules/ or a path relative to this file"
                message += Suggestion.hint(for: name, in: available)
                message += available.isEmpty ? "" : " (packs: \(available.joined(separator: ", ")))"
                throw .badInput(rules.location.problem(message))
            case (.badInput(let problem), .option(let name)?):
                // A setup option the pack does not take: point at where it was given.
                throw .badInput(problem.placed(at: scenario.setup.optionLocations[name] ?? rules.location))
            default: break
            }
            switch error {
            case .badInput(let problem):
                throw .badInput(rules.location.problem(problem.message))
            case .packLoad(let problem):
                throw .badInput(rules.location.problem("rule pack '\(rules.value)' does not load: \(problem)"))
            default:
                return .setupFailed(StepFailure(step: 0, location: rules.location, summary: "setup of rule pack '\(rules.value)'",
                                                mismatches: [Mismatch(check: "setup", expected: "the pack's setup to run",
                                                                      actual: "\(error.kind): \(error)", details: details(of: error))]))
            }
        }
        let execution = ScenarioExecution(scenario: scenario, game: game)
        try execution.validateSteps()
        for assignment in scenario.setup.state {
            do {
                try game.setState(assignment.value, at: assignment.path, createsTables: scenario.setup.createsTables)
            } catch {
                if case .badInput(let problem) = error {
                    throw .badInput(assignment.location.problem("cannot set \(assignment.path): \(problem.message)"))
                }
                return .setupFailed(StepFailure(step: 0, location: assignment.location, summary: "setup state \(assignment.path)",
                                                mismatches: [Mismatch(check: "setup.state", expected: "the override to be written",
                                                                      actual: "\(error.kind): \(error)")]))
            }
        }
        return .ready(execution)
    }

    // MARK: Validation against the pack

    private func validateSteps() throws(RulebenchError) {
        let pack = game.pack
        for step in scenario.steps {
            for (goal, _) in step.expectations.goals where !pack.goals.contains(goal.value) {
                throw .badInput(goal.location.problem("unknown goal '\(goal.value)' in rule pack '\(pack.name)'"
                    + Suggestion.hint(for: goal.value, in: pack.goals)
                    + (pack.goals.isEmpty ? " (the pack declares no goals: add `goals = { name = function(game) ... end }` to pack.lua)"
                                          : " (goals: \(pack.goals.joined(separator: ", ")))")))
            }
            guard case .perform(let name, let params) = step.operation else { continue }
            let at = step.actionLocation ?? step.location
            guard let action = pack.actions[name] else {
                let names = pack.actionNames
                throw .badInput(at.problem("unknown action '\(name)' in rule pack '\(pack.name)'" + Suggestion.hint(for: name, in: names)
                                           + " (actions: \(names.joined(separator: ", ")))"))
            }
            // The engine's own param check decides (an action that declares
            // no params takes any); the message is worded for the scenario
            // and placed at the param's line.
            guard action.declaresParams, let problem = try game.paramProblem(ActionCall(name, params)) else { continue }
            let key = problem.param
            let declared = action.params.keys.sorted()
            switch problem.kind {
            case .undeclared:
                throw .badInput((step.paramLocations[key] ?? at).problem(
                    "action '\(name)' has no param '\(key)'" + Suggestion.hint(for: key, in: declared)
                        + " (declared: \(declared.isEmpty ? "none" : declared.joined(separator: ", ")))"))
            case .type:
                let base = (action.params[key] ?? "any").replacingOccurrences(of: "?", with: "")
                let value = params[key].map { "\($0) (\($0.luaTypeName))" } ?? "nothing"
                throw .badInput((step.paramLocations[key] ?? at).problem("param '\(key)' of '\(name)' must be \(base), not \(value)"))
            case .missing:
                throw .badInput(at.problem("action '\(name)' needs param '\(key)' (\(action.params[key] ?? "any")): add it under 'with'"))
            }
        }
    }

    // MARK: Steps

    /// Whether an expected part of a message is in it; an empty part matches any message.
    static func message(_ text: String, contains part: String) -> Bool {
        part.isEmpty || text.contains(part)
    }

    /// Runs one step and its checks; nil when every check held.
    func run(_ step: ScenarioStep) throws(RulebenchError) -> StepFailure? {
        let before = try game.state()
        let hashBefore = try game.liveStateHash()
        var mismatches: [Mismatch] = []
        var effects = StepEffects()
        let expect = step.expectations

        let seats = game.configuration.checksLeaks ? try game.seats() : []
        if case .perform(let name, let params) = step.operation {
            mismatches += try leaks(seats) { seat throws(RulebenchError) in try game.stepProbe(seat, ActionCall(name, params), salt: step.number) }
        }
        switch step.operation {
        case .perform(let name, let params):
            effects = try perform(name, params, as: step.seat?.value, expect, hashBefore: hashBefore, into: &mismatches)
        case .undo(let count):
            effects = undo(count: count, into: &mismatches)
        case .undoTurn where step.seat != nil:
            effects = undoTurn(as: step.seat!.value, into: &mismatches)
        case .undoTurn:
            effects = undoTurn(last: false, into: &mismatches)
        case .undoLastTurn:
            effects = undoTurn(last: true, into: &mismatches)
        case .redo(let count):
            effects = redo(count: count, into: &mismatches)
        case .check:
            break
        }
        mismatches += try leaks(seats) { seat throws(RulebenchError) in try game.leakProbe(seat, salt: step.number) }
        var check = ExpectationCheck(game: game, expect: expect, mismatches: mismatches)
        try check.checkAfter(step.operation, &effects)
        mismatches = check.mismatches

        guard !mismatches.isEmpty else { return nil }
        let after = try game.state()
        return StepFailure(step: step.number, location: step.location, summary: step.summary, mismatches: mismatches,
                           diffTitle: effects.diffTitle,
                           stateDiff: effects.diffOverride ?? StateDiff.changes(from: before, to: after))
    }

    /// The no-leak property at a step of a seated game: a probe for each
    /// seat (a rule error in a probe's rearranged state finds nothing),
    /// salted with the step's number as the fuzzer's run salts it, so a
    /// fuzz reproduction rearranges here what it rearranged there.
    private func leaks(_ seats: [String], _ probe: (String) throws(RulebenchError) -> SeatLeak?) throws(RulebenchError) -> [Mismatch] {
        var out: [Mismatch] = []
        for seat in seats {
            let leak: SeatLeak?
            do { leak = try probe(seat) } catch { continue }
            if let leak {
                out.append(Mismatch(check: "no seat is shown what is hidden from it (checked at every step of a seated game)",
                                    expected: "seat \(seat)'s view, calls, scene, and steps' plans and changes the same when what is hidden from it is rearranged",
                                    actual: leak.message(before: nil)))
            }
        }
        return out
    }

    private func perform(_ name: String, _ params: [String: StateValue], as seat: String?, _ expect: Expectations,
                         hashBefore: StateHash, into mismatches: inout [Mismatch]) throws(RulebenchError) -> StepEffects {
        var effects = StepEffects()
        let cursor = game.history.cursor, count = game.history.count
        if expect.sequence != nil { effects.goalsHeldBefore = game.triggeringGoalsHeld() }
        do {
            let call = ActionCall(name, params)
            let entry: HistoryEntry
            if let seat { entry = try game.perform(call, as: seat).entry } else { entry = try game.perform(call) }
            effects.entry = entry
            effects.animations = [entry.animation]
            var check = ExpectationCheck(game: game, expect: expect)
            check.checkPerformed()
            mismatches += check.mismatches
            return effects
        } catch {
            effects.failed = true
            if case .invariant = error, expect.invariantsBroken != nil {
                effects.brokenByAction = error.brokenInvariants
            } else {
                var check = ExpectationCheck(game: game, expect: expect)
                check.checkFailed(name, error)
                mismatches += check.mismatches
            }
            let hashAfter = try game.liveStateHash()
            if hashAfter != hashBefore || game.history.cursor != cursor || game.history.count != count {
                mismatches.append(Mismatch(check: "nothing changes when an action fails (checked at every step)",
                                           expected: "state hash \(hashBefore.hex) and history unchanged",
                                           actual: "state hash \(hashAfter.hex), history \(game.history.cursor)/\(game.history.count) (was \(cursor)/\(count))"))
            }
            return effects
        }
    }

    private func undo(count: Int, into mismatches: inout [Mismatch]) -> StepEffects {
        var effects = StepEffects()
        let available = game.history.cursor
        guard available >= count else {
            effects.failed = true
            let actual = available == 0 ? "nothing to undo" : "only \(available) can be undone"
            effects.stepError = (actual, Mismatch(check: "undo", expected: "\(count) performed action\(count == 1 ? "" : "s") to undo",
                                                  actual: actual))
            return effects
        }
        return undoing(count, into: &mismatches)
    }

    /// `undo: turn` and `undo: last turn`: as `undo: N` with the count the
    /// history gives; at the start, the same "nothing to undo" as `undo: 1`.
    private func undoTurn(last: Bool, into mismatches: inout [Mismatch]) -> StepEffects {
        guard game.history.cursor > 0 else { return undo(count: 1, into: &mismatches) }
        return undoing(last ? game.history.undosToLastTurn : game.history.undosToLastCheckpoint, into: &mismatches)
    }

    /// `undo: turn` with `as: SEAT`: a player's undo turn, which stops at a
    /// step that revealed a secret or drew from the generator.
    private func undoTurn(as seat: String, into mismatches: inout [Mismatch]) -> StepEffects {
        guard game.history.cursor > 0 else { return undo(count: 1, into: &mismatches) }
        var effects = StepEffects()
        do {
            for outcome in try game.undoTurn(as: seat) {
                effects.animations.append(outcome.animation)
                effects.undone.append((outcome.entry.animation, outcome.animation))
            }
        } catch {
            record(undoError: error, into: &mismatches, effects: &effects)
        }
        return effects
    }

    /// Undoes `count` actions, one at a time, until one fails.
    private func undoing(_ count: Int, into mismatches: inout [Mismatch]) -> StepEffects {
        var effects = StepEffects()
        for _ in 0..<count where !effects.failed {
            do {
                let outcome = try game.undo()
                effects.animations.append(outcome.animation)
                effects.undone.append((outcome.entry.animation, outcome.animation))
            } catch {
                record(undoError: error, into: &mismatches, effects: &effects)
            }
        }
        return effects
    }

    private func record(undoError error: RulebenchError, into mismatches: inout [Mismatch], effects: inout StepEffects) {
        effects.failed = true
        if case .undoMismatch(let problems) = error {
            effects.stepError = (error.description, Mismatch(check: "undo restores the state exactly (strict mode, checked at every undo)",
                                       expected: "the state before the action",
                                       actual: problems.map { "undo of '\($0.action)'" + ($0.undoFunction.map { " (\($0))" } ?? "") }
                                        .joined(separator: "; ") + " left differences",
                                       details: problems.count > 1 ? problems.map(\.description).joined(separator: "\n") : nil))
            effects.diffTitle = "slots the undo did not restore (before the action -> after the undo; repaired since)"
            effects.diffOverride = problems.flatMap(\.differences)
        } else {
            effects.stepError = ("\(error.kind): \(error)", Mismatch(check: "undo", expected: "the undo to succeed", actual: "\(error.kind): \(error)",
                                                                   details: ScenarioExecution.details(of: error)))
        }
    }

    private func redo(count: Int, into mismatches: inout [Mismatch]) -> StepEffects {
        var effects = StepEffects()
        let available = game.history.count - game.history.cursor
        guard available >= count else {
            effects.failed = true
            let actual = available == 0 ? "nothing to redo" : "only \(available) can be redone"
            effects.stepError = (actual, Mismatch(check: "redo", expected: "\(count) undone action\(count == 1 ? "" : "s") to redo",
                                                  actual: actual))
            return effects
        }
        for _ in 0..<count where !effects.failed {
            do {
                let entry = try game.redo()
                effects.entry = entry
                effects.animations.append(entry.animation)
            } catch {
                effects.failed = true
                if case .redoMismatch(let mismatch) = error {
                    effects.stepError = (error.description, Mismatch(check: "redo reproduces the action (strict mode, checked at every redo)",
                                                                      expected: "the same \(mismatch.what) as the first time: \(mismatch.expected)",
                                                                      actual: mismatch.actual))
                } else {
                    effects.stepError = ("\(error.kind): \(error)", Mismatch(check: "redo", expected: "the redo to succeed", actual: "\(error.kind): \(error)",
                                                                           details: ScenarioExecution.details(of: error)))
                }
            }
        }
        return effects
    }

    // MARK: Rendering

    /// A value as reports show it; `absent` for nil, and a float always with its point.
    static func render(_ value: StateValue?) -> String {
        guard let value else { return StateChange.absent }
        switch value {
        case .int: return "\(value) (integer)"
        case .double: return "\(value) (float)"
        default: return value.description
        }
    }

    static func list(_ names: [String]) -> String { "[" + names.joined(separator: ", ") + "]" }

    /// The Lua traceback of a script error, or where an invariant is defined.
    static func details(of error: RulebenchError) -> String? {
        switch error {
        case .script(let failure): return failure.traceback.isEmpty ? nil : failure.traceback
        case .invariant(_, _, let location?): return "invariant defined at \(location)"
        default: return nil
        }
    }
}
