import ArgumentParser
import Foundation
import Rulebench
import RulebenchCommandLine

/// `rulebench check PACK`: lints a pack without playing it by hand.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Lint a pack: load errors, setup, invariants, params, and legal/check agreement.",
        discussion: """
            Prints each problem as `file:line: error|warning: message`. It looks for:
              - syntax and load errors (the first stops the check: fix it, run again);
              - setup failing with the pack's options (and any --option), and
                invariants failing on the initial state;
              - goals that fail, write to the state, or answer anything but true
                or false, and invariants that fail, in any state the sampling
                reaches or a breadth-first search from the start (300 states,
                nearest first) visits: goal positions random play rarely reaches;
                a goal's estimate that says more moves than a line to the goal
                found by a short search from a sampled state (warning: solve may
                miss the shortest line);
              - actions with no legal function that no action queues with act:sub
                (warning: play, explore and the fuzzer never choose them);
              - params declared but never read as a.NAME, and a.NAME read but
                neither declared nor recorded on a by apply (warnings);
              - story sequences (sequences/*.yaml, docs/sequences.md): a file that
                cannot be read or names an unknown position or animation, a missing
                image, a text reading a slot the state after setup lacks, a choice
                naming no action, a goal that is none, anim.sequence("NAME") with no
                such sequence (errors), and a sequence nothing starts (warning);
              - legal emitting param tables that check rejects or that fail, and
                undos that do not restore the state: every emitted call is
                performed and undone in states reached by random legal play
                (seeds 1, 2 and 3, so a check is repeatable).

            Examples:
              rulebench check desert
              rulebench check rules/race --option players=4

            Exit codes: 0 no errors (warnings do not fail); 1 errors were found; 2 there is \
            no pack at PACK, or the arguments are bad.
            """
    )

    @OptionGroup var packOptions: PackOptions

    /// The most random actions per sample game: as for `fuzz --depth`, more
    /// only takes longer (a game that never ends would play them all).
    static let maximumDepth = 10_000
    static let defaultDepth = 12

    @Option(parsing: .unconditional, help: ArgumentHelp("Random legal actions played in each sample game (0 to \(CheckCommand.maximumDepth)). (default: \(CheckCommand.defaultDepth))", valueName: "n"),
            transform: NumberArgument.whole("--depth"))
    var depth: Int = CheckCommand.defaultDepth

    func validate() throws {
        guard (0...Self.maximumDepth).contains(depth) else {
            throw ValidationError("--depth must be from 0 to \(Self.maximumDepth), got \(depth)")
        }
    }

    func run() throws {
        var options = PackChecker.Options()
        options.setupOptions = try packOptions.setupOptionValues()
        options.depth = depth
        let problems: [PackProblem]
        do {
            problems = try PackChecker(pack: packOptions.pack, options: options).check()
        } catch {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
        for problem in problems { print(problem) }
        let errors = problems.filter { $0.severity == .error }.count
        let warnings = problems.count - errors
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        print("\(packOptions.pack): \(plural(errors, "error")), \(plural(warnings, "warning"))")
        if errors > 0 { throw Outcome.failed.exitCode }
    }
}
