import Foundation

/// One scenario being played: the game, and the checks of each step.
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
    /// fails in rule code is a failure of the scenario, not bad input.
    static func prepare(_ scenario: Scenario, configuration: Game.Configuration,
                        directory: URL) throws(RulebenchError) -> Preparation {
        let rules = scenario.rules
        let game: Game
        do {
            game = try Game(pack: rules.value, options: scenario.setup.options, seed: scenario.setup.seed,
                            configuration: configuration, relativeTo: directory)
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

    /// What an operation left for the expectations to look at.
    private struct Effects {
        var entry: HistoryEntry?
        var animations: [ActionAnimation] = []
        /// For each undone action: its do animation and its undo animation.
        var undone: [(done: ActionAnimation, undone: ActionAnimation)] = []
        /// The operation itself failed; its own mismatch is already recorded.
        var failed = false
        var diffTitle = "state changed by this step"
        var diffOverride: [StateChange]?
        /// The invariants a `do` failed on (the state was rolled back, so
        /// they are judged from the error, not from the state after).
        var brokenByAction: [String]?
        /// The error an undo or redo step failed with, and its mismatch (kept
        /// apart until `error:` is judged: an expected error is no failure).
        var stepError: (message: String, mismatch: Mismatch)?
    }

    /// Whether an expected part of a message is in it; an empty part matches any message.
    static func message(_ text: String, contains part: String) -> Bool {
        part.isEmpty || text.contains(part)
    }

    /// Runs one step and its checks; nil when every check held.
    func run(_ step: ScenarioStep) throws(RulebenchError) -> StepFailure? {
        let before = try game.state()
        let hashBefore = try game.liveStateHash()
        var mismatches: [Mismatch] = []
        var effects = Effects()
        let expect = step.expectations

        switch step.operation {
        case .perform(let name, let params):
            effects = try perform(name, params, expect, hashBefore: hashBefore, into: &mismatches)
        case .undo(let count):
            effects = undo(count: count, into: &mismatches)
        case .undoTurn:
            effects = undoTurn(last: false, into: &mismatches)
        case .undoLastTurn:
            effects = undoTurn(last: true, into: &mismatches)
        case .redo(let count):
            effects = redo(count: count, into: &mismatches)
        case .check:
            break
        }
        if case .perform = step.operation {} else { checkExpectedError(expect, &effects, &mismatches) }

        try checkState(expect, into: &mismatches)
        try checkPresence(expect, into: &mismatches)
        if !effects.failed {
            checkSubactions(expect, effects.entry, into: &mismatches)
            checkAnimation(expect, effects.animations, into: &mismatches)
            checkMirrored(expect, effects, into: &mismatches)
        }
        if let hash = expect.hash {
            let actual = try game.liveStateHash().hex
            if actual != hash.value {
                mismatches.append(Mismatch(check: "hash", expected: hash.value, actual: actual, location: hash.location))
            }
        }
        checkInvariants(expect, brokenByAction: effects.brokenByAction, into: &mismatches)
        checkLegal(expect, into: &mismatches)
        checkGoal(expect, into: &mismatches)

        guard !mismatches.isEmpty else { return nil }
        let after = try game.state()
        return StepFailure(step: step.number, location: step.location, summary: step.summary, mismatches: mismatches,
                           diffTitle: effects.diffTitle,
                           stateDiff: effects.diffOverride ?? StateDiff.changes(from: before, to: after))
    }

    private func perform(_ name: String, _ params: [String: StateValue], _ expect: Expectations, hashBefore: StateHash,
                         into mismatches: inout [Mismatch]) throws(RulebenchError) -> Effects {
        var effects = Effects()
        let cursor = game.history.cursor, count = game.history.entries.count
        do {
            let entry = try game.perform(name, params)
            effects.entry = entry
            effects.animations = [entry.animation]
            if let rejected = expect.rejected {
                mismatches.append(Mismatch(check: "rejected", expected: "a rejection whose reason contains \"\(rejected.value)\"",
                                           actual: "the action was performed", location: rejected.location))
            }
            if let error = expect.error {
                mismatches.append(Mismatch(check: "error", expected: "an error whose message contains \"\(error.value)\"",
                                           actual: "the action was performed", location: error.location))
            }
            if let broken = expect.invariantsBroken {
                mismatches.append(Mismatch(check: "invariants", expected: "the action to fail on broken invariants \(ScenarioExecution.list(broken.value))",
                                           actual: "the action was performed", location: broken.location))
            }
            return effects
        } catch {
            effects.failed = true
            switch error {
            case .rejected(let reason, let action):
                let actual = "rejected: \"\(reason)\"" + (action == name || action.isEmpty ? "" : " (by \(action))")
                if let rejected = expect.rejected {
                    if !ScenarioExecution.message(reason, contains: rejected.value) {
                        mismatches.append(Mismatch(check: "rejected", expected: "a reason containing \"\(rejected.value)\"",
                                                   actual: actual, location: rejected.location))
                    }
                } else if let expected = expect.error {
                    mismatches.append(Mismatch(check: "error", expected: "an error whose message contains \"\(expected.value)\"",
                                               actual: actual, location: expected.location))
                } else if let broken = expect.invariantsBroken {
                    mismatches.append(Mismatch(check: "invariants", expected: "the action to fail on broken invariants \(ScenarioExecution.list(broken.value))",
                                               actual: actual, location: broken.location))
                } else {
                    mismatches.append(Mismatch(check: "do", expected: "the action to be performed", actual: actual))
                }
            case .invariant where expect.invariantsBroken != nil:
                effects.brokenByAction = error.brokenInvariants
            default:
                let actual = "\(error.kind): \(error)"
                if let expected = expect.error {
                    if !ScenarioExecution.message(error.description, contains: expected.value) {
                        mismatches.append(Mismatch(check: "error", expected: "an error whose message contains \"\(expected.value)\"",
                                                   actual: actual, location: expected.location, details: ScenarioExecution.details(of: error)))
                    }
                } else if let rejected = expect.rejected {
                    mismatches.append(Mismatch(check: "rejected", expected: "a rejection whose reason contains \"\(rejected.value)\"",
                                               actual: actual, location: rejected.location, details: ScenarioExecution.details(of: error)))
                } else if let broken = expect.invariantsBroken {
                    mismatches.append(Mismatch(check: "invariants", expected: "the action to fail on broken invariants \(ScenarioExecution.list(broken.value))",
                                               actual: actual, location: broken.location, details: ScenarioExecution.details(of: error)))
                } else {
                    mismatches.append(Mismatch(check: "do", expected: "the action to be performed", actual: actual,
                                               details: ScenarioExecution.details(of: error)))
                }
            }
            let hashAfter = try game.liveStateHash()
            if hashAfter != hashBefore || game.history.cursor != cursor || game.history.entries.count != count {
                mismatches.append(Mismatch(check: "nothing changes when an action fails (checked at every step)",
                                           expected: "state hash \(hashBefore.hex) and history unchanged",
                                           actual: "state hash \(hashAfter.hex), history \(game.history.cursor)/\(game.history.entries.count) (was \(cursor)/\(count))"))
            }
            return effects
        }
    }

    private func undo(count: Int, into mismatches: inout [Mismatch]) -> Effects {
        var effects = Effects()
        let available = game.history.cursor
        guard available >= count else {
            effects.failed = true
            let actual = available == 0 ? "nothing to undo" : "only \(available) can be undone"
            effects.stepError = (actual, Mismatch(check: "undo", expected: "\(count) performed action\(count == 1 ? "" : "s") to undo",
                                                  actual: actual))
            return effects
        }
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

    /// `undo: turn` and `undo: last turn`: as `undo: N` with the count the
    /// history gives; at the start, the same "nothing to undo" as `undo: 1`.
    private func undoTurn(last: Bool, into mismatches: inout [Mismatch]) -> Effects {
        guard game.history.cursor > 0 else { return undo(count: 1, into: &mismatches) }
        var effects = Effects()
        let count = last ? game.history.undosToLastTurn : game.history.undosToLastCheckpoint
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

    private func record(undoError error: RulebenchError, into mismatches: inout [Mismatch], effects: inout Effects) {
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

    private func redo(count: Int, into mismatches: inout [Mismatch]) -> Effects {
        var effects = Effects()
        let available = game.history.entries.count - game.history.cursor
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

    // MARK: Expectations

    private func checkSubactions(_ expect: Expectations, _ entry: HistoryEntry?, into mismatches: inout [Mismatch]) {
        guard let expected = expect.subactions, let entry else { return }
        let actual = entry.subactions.subactions
        if !SubactionPattern.matches(expected.value, actual) {
            mismatches.append(Mismatch(check: "subactions", expected: SubactionPattern.render(expected.value),
                                       actual: SubactionPattern.render(actual), location: expected.location))
        }
    }

    private func checkAnimation(_ expect: Expectations, _ animations: [ActionAnimation], into mismatches: inout [Mismatch]) {
        guard expect.sounds != nil || expect.duration != nil || expect.conflicts != nil || expect.starts != nil else { return }
        let timelines = animations.map { $0.timeline() }
        if let sounds = expect.sounds {
            let actual = timelines.flatMap(\.soundNames)
            if actual != sounds.value {
                mismatches.append(Mismatch(check: "sounds", expected: ScenarioExecution.list(sounds.value),
                                           actual: ScenarioExecution.list(actual), location: sounds.location))
            }
        }
        if let duration = expect.duration {
            let actual = timelines.reduce(0) { $0 + $1.duration }
            if abs(actual - duration.value) > 1e-9 * max(1, abs(duration.value)) {
                mismatches.append(Mismatch(check: "animation.duration", expected: "\(duration.value) s", actual: "\(actual) s",
                                           location: duration.location))
            }
        }
        if let starts = expect.starts {
            checkStarts(starts, Timeline(playing: animations), into: &mismatches)
        }
        if let conflicts = expect.conflicts {
            let found = timelines.flatMap(\.conflicts)
            if found.count != conflicts.value {
                mismatches.append(Mismatch(check: "animation.conflicts", expected: "\(conflicts.value)", actual: "\(found.count)",
                                           location: conflicts.location,
                                           details: found.isEmpty ? nil : found.map(\.description).joined(separator: "\n")))
            }
        }
    }

    /// `error:` of an undo or redo step: an error that matches it is what the
    /// step expects; one that does not, or none at all, is a mismatch.
    private func checkExpectedError(_ expect: Expectations, _ effects: inout Effects, _ mismatches: inout [Mismatch]) {
        guard let expected = expect.error else {
            if let failure = effects.stepError { mismatches.append(failure.mismatch) }
            return
        }
        guard let failure = effects.stepError else {
            mismatches.append(Mismatch(check: "error", expected: "an error whose message contains \"\(expected.value)\"",
                                       actual: "the step succeeded", location: expected.location))
            return
        }
        if ScenarioExecution.message(failure.message, contains: expected.value) {
            // The failure was expected: the state it leaves is not "a step that failed".
            effects.diffOverride = nil
            effects.diffTitle = "state changed by this step"
        } else {
            mismatches.append(Mismatch(check: "error", expected: "an error whose message contains \"\(expected.value)\"",
                                       actual: failure.message, location: expected.location, details: failure.mismatch.details))
        }
    }

    /// `exists:` and `absent:` paths.
    private func checkPresence(_ expect: Expectations, into mismatches: inout [Mismatch]) throws(RulebenchError) {
        for path in expect.exists where try game.state(at: path.value) == nil {
            mismatches.append(Mismatch(check: "exists \(path.value)", expected: "a value", actual: StateChange.absent, location: path.location,
                                       values: ComparedValues(expected: nil, actual: nil, expectsAnyValue: true)))
        }
        for path in expect.absent {
            if let value = try game.state(at: path.value) {
                mismatches.append(Mismatch(check: "absent \(path.value)", expected: StateChange.absent,
                                           actual: ScenarioExecution.render(value), location: path.location,
                                           values: ComparedValues(expected: nil, actual: value)))
            }
        }
    }

    /// `animation.mirrored: true`: each undone action's timeline is its do timeline mirrored in time.
    private func checkMirrored(_ expect: Expectations, _ effects: Effects, into mismatches: inout [Mismatch]) {
        guard let mirrored = expect.mirrored, mirrored.value else { return }
        if effects.undone.isEmpty {
            mismatches.append(Mismatch(check: "animation.mirrored", expected: "an undo step", actual: "a step that undoes nothing",
                                       location: mirrored.location))
        }
        for pair in effects.undone {
            let done = pair.done.timeline(), undone = pair.undone.timeline()
            if let difference = undone.mirrorDifference(of: done) {
                mismatches.append(Mismatch(check: "animation.mirrored", expected: "the undo of '\(pair.done.action)' to play its do animation backwards",
                                           actual: difference, location: mirrored.location))
            }
        }
    }

    /// `animation.starts:`: each key's first run starts when expected (to a nanosecond).
    private func checkStarts(_ starts: Located<[AnimationStart]>, _ timeline: Timeline, into mismatches: inout [Mismatch]) {
        var first: [String: Double] = [:]
        for event in timeline.events { if let key = event.key, first[key] == nil { first[key] = event.start } }
        for start in starts.value {
            let actual = first[start.key]
            if let actual, abs(actual - start.seconds) <= 1e-9 * max(1, start.seconds) { continue }
            do {
                let known = timeline.keys.prefix(8).joined(separator: ", ")
                mismatches.append(Mismatch(check: "animation.starts \(start.key)", expected: "\(TimelineSeconds.text(start.seconds)) s",
                                           actual: actual.map { "\(TimelineSeconds.text($0)) s" } ?? "no run on it (the timeline animates: \(known))",
                                           location: starts.location))
            }
        }
    }

    private func checkState(_ expect: Expectations, into mismatches: inout [Mismatch]) throws(RulebenchError) {
        for assignment in expect.state {
            let actual = try game.state(at: assignment.path)
            if actual != assignment.value {
                mismatches.append(Mismatch(check: "state \(assignment.path)",
                                           expected: ScenarioExecution.render(assignment.value),
                                           actual: ScenarioExecution.render(actual), location: assignment.location,
                                           values: ComparedValues(expected: assignment.value, actual: actual)))
            }
        }
    }

    /// `legal:` the legal actions now: listing them may fail too (a rule's
    /// `legal` raising), which is a mismatch with its message.
    private func checkLegal(_ expect: Expectations, into mismatches: inout [Mismatch]) {
        guard let legal = expect.legal else { return }
        let actual: [ActionCall]
        do {
            actual = try game.legalActions()
        } catch {
            mismatches.append(Mismatch(check: "legal", expected: "the legal actions to be listed", actual: "\(error.kind): \(error)",
                                       location: legal.location, details: ScenarioExecution.details(of: error)))
            return
        }
        func show(_ calls: [ActionCall]) -> String {
            calls.isEmpty ? "none" : calls.map(\.description).sorted().joined(separator: ", ")
        }
        switch legal.value {
        case .exactly(let calls):
            if Set(calls) != Set(actual) || calls.count != actual.count {
                mismatches.append(Mismatch(check: "legal", expected: show(calls), actual: show(actual), location: legal.location))
            }
        case .contains(let calls):
            let missing = calls.filter { !actual.contains($0) }
            if !missing.isEmpty {
                mismatches.append(Mismatch(check: "legal", expected: "to contain \(show(calls))",
                                           actual: "\(show(actual)) (missing \(show(missing)))", location: legal.location))
            }
        case .count(let count):
            if actual.count != count {
                mismatches.append(Mismatch(check: "legal", expected: "\(count) legal action\(count == 1 ? "" : "s")",
                                           actual: "\(actual.count): \(show(actual))", location: legal.location))
            }
        case .none:
            if !actual.isEmpty {
                mismatches.append(Mismatch(check: "legal", expected: "none (the game is over)", actual: show(actual), location: legal.location))
            }
        }
    }

    /// `goal:` the pack's goal holds now, `not_goal:` it does not; a goal
    /// that fails is a mismatch with its message either way.
    private func checkGoal(_ expect: Expectations, into mismatches: inout [Mismatch]) {
        for (goal, holds) in expect.goals {
            let check = holds ? "goal" : "not_goal"
            let expected = "the goal '\(goal.value)' \(holds ? "to hold" : "not to hold")"
            do {
                if try game.goalHolds(goal.value) != holds {
                    mismatches.append(Mismatch(check: check, expected: expected, actual: holds ? "it does not hold" : "it holds",
                                               location: goal.location))
                }
            } catch {
                mismatches.append(Mismatch(check: check, expected: expected, actual: "\(error.kind): \(error)",
                                           location: goal.location, details: ScenarioExecution.details(of: error)))
            }
        }
    }

    private func checkInvariants(_ expect: Expectations, brokenByAction: [String]?, into mismatches: inout [Mismatch]) {
        if let expected = expect.invariantsBroken {
            var actual = brokenByAction ?? []
            var failure: RulebenchError?
            if brokenByAction == nil {
                do { try game.checkInvariants() } catch { failure = error; actual = error.brokenInvariants }
            }
            if let failure, actual.isEmpty {
                mismatches.append(Mismatch(check: "invariants", expected: "broken: \(ScenarioExecution.list(expected.value))",
                                           actual: "\(failure.kind): \(failure)", location: expected.location,
                                           details: ScenarioExecution.details(of: failure)))
            } else if Set(actual) != Set(expected.value) {
                mismatches.append(Mismatch(check: "invariants", expected: "broken: \(ScenarioExecution.list(expected.value.sorted()))",
                                           actual: actual.isEmpty ? "every invariant holds" : "broken: \(ScenarioExecution.list(actual.sorted()))"
                                            + (failure.map { "\n\($0)" } ?? ""),
                                           location: expected.location))
            }
            return
        }
        do {
            try game.checkInvariants()
        } catch {
            let check = expect.invariantsHold == nil ? "invariants (checked after every step)" : "invariants"
            let actual: String
            if case .invariant(_, let message, _) = error {
                actual = message
            } else {
                actual = "\(error.kind): \(error)"
            }
            mismatches.append(Mismatch(check: check, expected: "every invariant of the pack to hold", actual: actual,
                                       location: expect.invariantsHold?.location, details: ScenarioExecution.details(of: error)))
        }
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
