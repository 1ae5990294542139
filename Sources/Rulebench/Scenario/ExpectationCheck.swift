// The checks of a step's `expect:` (and of what every step checks: the
// invariants), against the game after the step's operation ran. The run of a
// step (`ScenarioExecution`) performs, undoes or redoes and hands over what
// the operation left (`StepEffects`); this type judges it. Invariant: a
// check only reads the game (state, legal actions, goals, invariants), never
// changes it, and appends its mismatches in the order the report lists them.

/// A step's expectations judged against the game after the step.
struct ExpectationCheck {
    /// The game, as the step's operation left it.
    let game: Game
    /// What the step expects.
    let expect: Expectations
    /// The mismatches found so far (the operation's own first).
    private(set) var mismatches: [Mismatch]

    init(game: Game, expect: Expectations, mismatches: [Mismatch] = []) {
        self.game = game
        self.expect = expect
        self.mismatches = mismatches
    }

    /// Every check after an operation (a `do`'s outcome is judged as it
    /// runs: `checkPerformed`, `checkFailed`); `effects` is what it left.
    mutating func checkAfter(_ operation: ScenarioStep.Operation, _ effects: inout StepEffects) throws(RulebenchError) {
        if case .perform = operation {} else { checkExpectedError(&effects) }
        try checkState()
        try checkSeenBy()
        try checkPresence()
        if !effects.failed {
            checkSubactions(effects.entry)
            checkSequence(effects)
            checkAnimation(effects.animations)
            checkMirrored(effects)
        }
        if let hash = expect.hash {
            let actual = try game.liveStateHash().hex
            if actual != hash.value {
                mismatches.append(Mismatch(check: "hash", expected: hash.value, actual: actual, location: hash.location))
            }
        }
        checkInvariants(brokenByAction: effects.brokenByAction)
        checkLegal()
        checkGoal()
    }

    /// A `do` that was performed: `rejected:`, `error:` and
    /// `invariants_broken:` each expected it to fail.
    mutating func checkPerformed() {
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
    }

    /// A `do` of action `name` that failed with `error` (other than on
    /// broken invariants that `invariants_broken:` expects): a mismatch
    /// unless `rejected:` or `error:` expected this failure.
    mutating func checkFailed(_ name: String, _ error: RulebenchError) {
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
    }

    /// `sequence:`: the step started the sequence, its texts read only slots
    /// the state holds, each step says its part, and it plays as its transcript.
    private mutating func checkSequence(_ effects: StepEffects) {
        guard let expected = expect.sequence, let entry = effects.entry else { return }
        let want = expected.value, at = expected.location
        let started = game.sequences(startedBy: entry.animation, goalsHeldBefore: effects.goalsHeldBefore)
        guard started.contains(want.name) else {
            mismatches.append(Mismatch(check: "sequence", expected: "the step starts sequence '\(want.name)'",
                                       actual: started.isEmpty ? "it starts none" : "it starts \(ScenarioExecution.list(started))", location: at))
            return
        }
        let played: PlayedSequence
        do {
            played = try game.sequence(want.name)
        } catch {
            mismatches.append(Mismatch(check: "sequence", expected: "sequence '\(want.name)' to play", actual: "\(error)", location: at))
            return
        }
        for slot in played.missing {
            mismatches.append(Mismatch(check: "sequence", expected: "every slot its texts read in the state",
                                       actual: slot.description, location: at))
        }
        if let says = want.says {
            let actual = played.steps.map { $0.events.map(\.text).joined(separator: " ") }
            if says.count != actual.count || !zip(says, actual).allSatisfy({ $1.contains($0) }) {
                mismatches.append(Mismatch(check: "sequence.says", expected: ScenarioExecution.list(says),
                                           actual: ScenarioExecution.list(actual), location: at))
            }
        }
        if let file = want.transcript {
            let golden = try? InputFile.text(file, display: PackFiles.display(file))
            if golden != played.transcript {
                mismatches.append(Mismatch(check: "sequence.transcript",
                    expected: golden.map { "the transcript in \(PackFiles.display(file)):\n\($0)" }
                        ?? "a transcript file \(PackFiles.display(file)) (none yet: write the text below into it)",
                    actual: played.transcript, location: at))
            }
        }
    }

    private mutating func checkSubactions(_ entry: HistoryEntry?) {
        guard let expected = expect.subactions, let entry else { return }
        let actual = entry.subactions.subactions
        if !SubactionPattern.matches(expected.value, actual) {
            mismatches.append(Mismatch(check: "subactions", expected: SubactionPattern.render(expected.value),
                                       actual: SubactionPattern.render(actual), location: expected.location))
        }
    }

    private mutating func checkAnimation(_ animations: [ActionAnimation]) {
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
            checkStarts(starts, Timeline(playing: animations))
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
    private mutating func checkExpectedError(_ effects: inout StepEffects) {
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
    private mutating func checkPresence() throws(RulebenchError) {
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
    private mutating func checkMirrored(_ effects: StepEffects) {
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
    private mutating func checkStarts(_ starts: Located<[AnimationStart]>, _ timeline: Timeline) {
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

    private mutating func checkState() throws(RulebenchError) {
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

    /// `seen_by:` values in each seat's view of the state (an unknown seat
    /// is a mismatch naming the pack's seats).
    private mutating func checkSeenBy() throws(RulebenchError) {
        for seen in expect.seenBy {
            let view: SeatView
            do {
                view = try game.view(as: seen.seat.value)
            } catch {
                mismatches.append(Mismatch(check: "seen_by \(seen.seat.value)", expected: "the view of a seat of the pack",
                                           actual: "\(error)", location: seen.seat.location))
                continue
            }
            for assignment in seen.state {
                let actual = assignment.path.keys.reduce(Optional(view.state)) { value, key in value?[key] }
                if actual != assignment.value {
                    mismatches.append(Mismatch(check: "seen_by \(seen.seat.value) \(assignment.path)",
                                               expected: ScenarioExecution.render(assignment.value),
                                               actual: ScenarioExecution.render(actual), location: assignment.location,
                                               values: ComparedValues(expected: assignment.value, actual: actual)))
                }
            }
        }
    }

    /// `legal:` the legal actions now: listing them may fail too (a rule's
    /// `legal` raising), which is a mismatch with its message.
    private mutating func checkLegal() {
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
    private mutating func checkGoal() {
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

    private mutating func checkInvariants(brokenByAction: [String]?) {
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
}
