import ArgumentParser

/// What `rulebench studio` takes, and its help. Both programs parse these:
/// `rulebench studio` checks them and hands them on to `rulebench-studio`
/// (`StudioLauncher`), which parses them again and serves the page, so the
/// two say the same in `--help` and refuse the same arguments the same way.
package struct StudioArguments: ParsableArguments {
    /// The help of `rulebench studio` (and of `rulebench-studio`).
    package static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract: "Open a game in the browser: the board, legal calls, a verified history slider, animations.",
        discussion: """
            Serves a web page on 127.0.0.1 (unless --host says otherwise) and prints its address, which ends \
            in this run's secret token (?token=...): only that address opens the page. The page \
            shows the pack's board, its legal calls as buttons, Undo, Redo and undo turn, a History slider \
            whose every move is a real verified undo or redo in the engine, the state hash and the state \
            with the slots the step changed, each step's animation, the story sequences a step starts \
            (played over the board: docs/sequences.md), and Save. Every open tab shows the same \
            game. A call typed into the page is read as `play` reads one (name="a b" is one param). When a \
            file of the pack, or of a base pack it extends, changes, the pack is reloaded and the history \
            replayed with the new rules; the page names the first step that now differs or fails.

            What it opens:
              PACK            a new game (--seed, --option apply)
              HISTORY.json    a saved history, replayed and verified
              SCENARIO.yaml   a scenario played to its end, failures marked at their steps
              FINDING.yaml    a fuzz finding (fuzz --out), opened at its failing step:
                              property, differing slots, blamed file:line and its source
              LEVELS.yaml     a level file (generate --out): its levels listed; the one picked is
                              set up, its stored solution played a step at a time

            Examples:
              rulebench studio desert
              rulebench studio desert --sequence storm_rises
              rulebench studio scenarios/cards/deal-staggered-and-undone.yaml --port 8080
              rulebench studio findings/template-undoRestores-dash_step-step.lua-30.yaml
              rulebench studio pipes-5x5.yaml

            The studio is its own program, rulebench-studio, built beside rulebench (`make build` and \
            `swift build` build both): `rulebench studio` runs it in its place, with the same arguments. \
            Keeping the web server out of rulebench lets every other command start without loading it.

            Ctrl-C ends it (exit 0). Exit codes: 2 the file or pack cannot be used, the port cannot be \
            opened, or rulebench-studio is not beside rulebench.
            """
    )


    @Argument(help: "A pack (a name under rules/ or a folder), a saved history (.json), a scenario, a fuzz finding or a level file (.yaml).")
    package var source: String

    @Option(help: "The port to serve on (0: any free port; the address printed says which).")
    package var port: UInt16 = 8040

    @Option(help: "The address to listen on. Anything other than 127.0.0.1 or ::1 lets other machines open the game (the studio warns).")
    package var host = "127.0.0.1"

    @OptionGroup package var seedOption: SeedOption<StudioArguments>

    @Option(name: .customLong("option"), help: "A setup option of a new game, key=value (repeatable; a pack only).")
    package var setupOptions: [String] = []

    @Option(name: .customLong("sequence"), help: "Preview the story sequence NAME (sequences/NAME.yaml) over the board when the page opens.")
    package var sequence: String?

    package init() {}

    /// These arguments written out again, as `rulebench-studio` reads them:
    /// every option by its name, then `--` and the source (which may begin
    /// with a dash).
    package var written: [String] {
        ["--port", "\(port)", "--host", host, "--seed", "\(seedOption.seed)"]
            + setupOptions.flatMap { ["--option", $0] } + (sequence.map { ["--sequence", $0] } ?? []) + ["--", source]
    }
}

extension StudioArguments: SeededCommand {
    /// The seed of a new game when `--seed` is not given, as `play`'s.
    package static let defaultSeed: Int64 = 1
    package static let seedHelp: ArgumentHelp = "Seed of a new game's random generator (a pack only)."
}
