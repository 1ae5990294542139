import Foundation

/// Replays the stored solutions of a level file through the engine: each
/// level set up from its options, each call performed (checked, its
/// invariants run), the goal asked after the last, then every call undone
/// with strict verification back to the setup's hash. What `rulebench run
/// levels.yaml` runs: a stored solution that no longer reaches its goal,
/// after a change of the rules, is named by its level and step.
public struct LevelReplay {
    /// What one level's replay found.
    public struct Report: Sendable, Equatable {
        /// The level's name and its line in the file.
        public var level: String
        public var line: Int?
        /// The line of the failing step's stored call in the file (nil when
        /// the failure is not a step's, or the level was not read from a file).
        public var stepLine: Int?
        /// The moves replayed.
        public var moves: Int
        /// nil when the solution still reaches the goal and every undo
        /// restored the state; else what went wrong, at which step (1-based;
        /// nil when it is not a step's: the setup, or no stored solution).
        public var failure: (step: Int?, message: String)?

        public var passed: Bool { failure == nil }

        public static func == (a: Report, b: Report) -> Bool {
            a.level == b.level && a.line == b.line && a.stepLine == b.stepLine && a.moves == b.moves && a.failure?.step == b.failure?.step
                && a.failure?.message == b.failure?.message
        }
    }

    /// The file replayed, and how its messages name it.
    public let file: LevelFile
    public let display: String
    /// The folder a relative pack path is resolved against (the file's).
    public let folder: URL

    public init(file: LevelFile, display: String, folder: URL) {
        self.file = file
        self.display = display
        self.folder = folder
    }

    /// The game the levels are set up in: the file's pack, loaded once.
    public func makeGame(configuration: Game.Configuration = Game.Configuration()) throws(RulebenchError) -> Game {
        var quiet = configuration
        quiet.printHandler = quiet.printHandler ?? { _ in }
        let game = try Game(pack: file.packReference, seed: file.gameSeed, configuration: quiet, relativeTo: folder)
        guard game.pack.goals.contains(file.goal) else {
            throw .badInput(InputProblem("unknown goal '\(file.goal)' in pack '\(game.pack.name)' (goals: \(game.pack.goals.joined(separator: ", ")))",
                                         file: display))
        }
        return game
    }

    /// Replays every level in order; `report` is called after each.
    public func run(in game: Game, shouldStop: () -> Bool = { false }, report: (Report) -> Void = { _ in }) -> [Report] {
        var reports: [Report] = []
        for level in file.levels {
            if shouldStop() { break }
            let result = replay(level, in: game)
            reports.append(result)
            report(result)
        }
        return reports
    }

    /// One level's replay; a failing step names its call's line in the file.
    public func replay(_ level: Level, in game: Game) -> Report {
        var report = steps(level, in: game)
        if let step = report.failure?.step, level.callLines.indices.contains(step - 1) { report.stepLine = level.callLines[step - 1] }
        return report
    }

    /// The setup, the calls, the goal and the undos of one level's replay.
    private func steps(_ level: Level, in game: Game) -> Report {
        var report = Report(level: level.name, line: level.line, moves: level.solution?.calls.count ?? 0)
        do {
            try game.restart(seed: file.gameSeed, options: level.options)
        } catch {
            report.failure = (nil, "the setup fails: \(error)")
            return report
        }
        guard let calls = level.solution?.calls else {
            report.failure = (nil, "no stored solution (rulebench solve --levels \(display) --write-solutions adds one)")
            return report
        }
        let setupHash = game.stateHash
        for (index, call) in calls.enumerated() {
            do { try game.perform(call) } catch {
                report.failure = (index + 1, "\(call) fails: \(error)")
                return report
            }
        }
        do {
            guard try game.goalHolds(file.goal) else {
                report.failure = (calls.count, calls.isEmpty ? "goal \(file.goal) does not hold at the setup"
                                  : "after its last call, \(calls[calls.count - 1]), goal \(file.goal) does not hold")
                return report
            }
        } catch {
            report.failure = (calls.count, "goal \(file.goal) fails: \(error)")
            return report
        }
        for step in stride(from: calls.count, to: 0, by: -1) {
            do { try game.undo() } catch {
                report.failure = (step, "undoing \(calls[step - 1]) does not restore the state: \(error)")
                return report
            }
        }
        if game.stateHash != setupHash {
            report.failure = (nil, "undoing every call does not come back to the setup's state")
        }
        return report
    }
}

extension LevelReplay.Report {
    /// The replay as `rulebench run` reports a scenario (text, JSON, JUnit):
    /// the file, "level NAME" as its title, each move a step, a failure at
    /// its step with that step's line in the file (the level's own line when
    /// the failure is not a step's).
    public func scenarioReport(file: String, goal: String, duration: Double) -> ScenarioReport {
        guard let failure else {
            return ScenarioReport(file: file, title: "level \(level)", status: .passed, duration: duration, stepCount: moves, stepsRun: moves)
        }
        let step = failure.step ?? 0
        let location = SourceLocation(file: file, line: stepLine ?? line ?? 1)
        let mismatch = Mismatch(check: "stored solution", expected: "its \(moves) calls reach goal \(goal), every undo exact",
                                actual: failure.message, location: location)
        let stepFailure = StepFailure(step: step, location: location,
                                      summary: "level \(level)" + (failure.step.map { ", step \($0) of \(moves)" } ?? ""),
                                      mismatches: [mismatch], diffTitle: "state changed (not recorded for a level's replay)")
        return ScenarioReport(file: file, title: "level \(level)", status: .failed, duration: duration, stepCount: moves,
                              stepsRun: step, failure: stepFailure)
    }
}

extension LevelReplay {
    /// Every level of the file at `url` replayed, as `rulebench run` reports
    /// scenarios: one report per level, or one bad-input report when the file
    /// or its pack cannot be used. `report` is called as each is made.
    public static func scenarioReports(of url: URL, display: String, clock: () -> Double = MonotonicClock.seconds,
                                       shouldStop: () -> Bool = { false }, report: (ScenarioReport) -> Void = { _ in }) -> [ScenarioReport] {
        var start = clock()
        let replay: LevelReplay
        let game: Game
        do {
            let file = try LevelFile.parse(contentsOf: url, displayPath: display)
            replay = LevelReplay(file: file, display: display, folder: url.deletingLastPathComponent())
            game = try replay.makeGame()
        } catch {
            let problem: InputProblem
            if case .badInput(let given) = error { problem = given } else { problem = InputProblem("\(error)", file: display) }
            let bad = ScenarioReport.badInput(file: display, problem: problem, duration: clock() - start)
            report(bad)
            return [bad]
        }
        var reports: [ScenarioReport] = []
        _ = replay.run(in: game, shouldStop: shouldStop) { level in
            let now = clock()
            let made = level.scenarioReport(file: display, goal: replay.file.goal, duration: now - start)
            start = now
            reports.append(made)
            report(made)
        }
        return reports
    }
}
