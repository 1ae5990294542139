import ArgumentParser
import Foundation
import Rulebench
import RulebenchCommandLine

/// `rulebench run [PATH...] [--json] [--junit FILE]`: runs scenario files headlessly.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenario files (YAML) against their rule packs and report what held.",
        discussion: """
            Each PATH is a scenario file or a folder; folders are searched recursively \
            for *.yaml and *.yml files (sorted by path; scenario.schema.* is skipped). \
            With no PATH, runs scenarios/.

            Prints one line per scenario (PASS, FAIL or BAD, with its time); a failure \
            shows the step number, its line in the file, each expectation that did not \
            hold (expected and actual) and how the state changed. Besides each step's \
            `expect`, every step checks that the pack's invariants hold, that a rejected \
            or failed action changed nothing, and that undo and redo are exact.

            A level file (`rulebench generate`'s, docs/levels.md) is recognised by its top-level `levels:` \
            key: each level is set up from its options and its stored solution replayed, every undo verified; \
            a level whose solution no longer reaches the goal fails, naming the level and the step.

            Examples:
              rulebench run
              rulebench run levels.yaml
              rulebench run scenarios/template/dash.yaml
              rulebench run scenarios --junit build/scenarios.xml
              rulebench run scenarios/desert --json > report.json

            Exit codes: 0 every scenario passed; 1 a scenario failed; 2 a file could not \
            be used (unreadable, malformed YAML, unknown key, pack or action, wrong value \
            type: reported as file:line:col, and the other scenarios still run) or the \
            arguments are bad; 130 interrupted.

            With --jobs N, N scenarios run at once, each in a game of its own; the \
            report (text, JSON, JUnit) lists them in the same order, with the same \
            content, as one job gives, only the durations differ. A worker takes the \
            next scenario of the folder it is on first, so a pack whose scenarios fill \
            one folder is loaded by the workers that share it (one for a few scenarios), \
            and each restarts its game for the next scenario of that pack (fresh \
            modules, the setup run again); after a scenario that fails or cannot be \
            used, the next gets a new game.
            """
    )

    @Argument(help: "Scenario files or folders (default: scenarios/).")
    var paths: [String] = []

    @OptionGroup var jsonOption: JSONOption<RunCommand>

    @Option(name: .long, help: ArgumentHelp("Also write a JUnit XML report to this file (for CI).", valueName: "file"))
    var junit: String?

    @OptionGroup var jobs: JobsOption

    func run() throws {
        // A report path that cannot be written fails now, not after every scenario ran.
        let report = junit.map { OutputFile(path: $0, purpose: "the JUnit report") }
        do {
            try report?.checkWritable()
        } catch {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        let clock = ContinuousClock()
        let start = clock.now
        let (found, problems) = ScenarioFiles.collect(paths.isEmpty ? ["scenarios"] : paths)
        var reports = problems.map { ScenarioReport.badInput(file: $0.file ?? "?", problem: $0, duration: 0) }
        if !jsonOption.json { for report in reports { emit(TextReport.render(report)) } }

        let json = jsonOption.json
        // Level files (a top-level `levels:`) replay their stored solutions, a report per level.
        let (levelFiles, items) = Self.levelFiles(in: found)
        for item in levelFiles {
            reports += LevelReplay.scenarioReports(of: item.url, display: item.display, shouldStop: { wasInterrupted }) { report in
                if !json { emit(TextReport.render(report)) }
            }
        }
        reports += ScenarioRunner().run(items, on: jobs.pool) { report in
            if !json { emit(TextReport.render(report)) }
        }
        let elapsed = start.duration(to: clock.now).components
        let run = RunReport(scenarios: reports, duration: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)

        if jsonOption.json {
            emit(JSONReport.render(run), newline: false)
        } else {
            emit("\n" + TextReport.summary(run))
        }
        if let report {
            do {
                // In place for /dev/stdout, a FIFO or a symbolic link; all or nothing for a file.
                try report.write(JUnitReport.render(run))
            } catch {
                complain("\(error)")
                throw Outcome.badInput.exitCode
            }
        }
        switch run.exitCode {
        case 0: return
        case 1: throw Outcome.failed.exitCode
        default: throw Outcome.badInput.exitCode
        }
    }
}

extension RunCommand {
    /// The level files among `items`, and the rest (scenarios, and files
    /// that cannot be read, which the scenario runner reports).
    static func levelFiles(in items: [ScenarioFiles.Item]) -> (levels: [ScenarioFiles.Item], scenarios: [ScenarioFiles.Item]) {
        var levels: [ScenarioFiles.Item] = [], scenarios: [ScenarioFiles.Item] = []
        for item in items {
            let text = try? InputFile.text(item.url, display: item.display)
            if let text, LevelFile.isLevelFile(text) { levels.append(item) } else { scenarios.append(item) }
        }
        return (levels, scenarios)
    }
}

/// Prints and flushes, so each scenario's line shows as soon as it has run.
private func emit(_ text: String, newline: Bool = true) {
    print(text, terminator: newline ? "\n" : "")
    StandardOutput.flush()
}

extension RunCommand: JSONReportingCommand {
    static let jsonHelp: ArgumentHelp = "Write a machine-readable JSON report to standard output instead of text."
}
