import ArgumentParser
import Foundation
import Rulebench
import RulebenchCommandLine

/// `rulebench solve PACK --value`: the game's value for the seat to move
/// (GameValue), every root move's value and line, the principal line and
/// the refutations written as scenarios; with `--sweep`, a table of values
/// over a range of the pack's options.
extension SolveCommand {
    /// The game the value search runs in; bad input exits 2.
    private func valueGame(_ options: [String: StateValue]) throws -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        configuration.animationSources = false
        // The transposition table lives in the game's Lua state: its memory is on top of the rules' cap.
        configuration.memoryCap += GameValue.tableBytes
        do {
            return try Game(pack: packOptions.pack, options: options, seed: seedOption.seed, configuration: configuration)
        } catch {
            complain("\(error)")
            throw Outcome.badInput.exitCode
        }
    }

    /// Searches `game`'s value with the progress line; a refusal exits 2, a failure 1, a stop 130/143.
    private func valueSearch(_ game: Game, label: String) throws -> GameValue.Result {
        let clock = MonotonicClock.seconds
        let progress = ProgressLine(pacer: progressInterval.map { ProgressPacer(interval: $0, start: clock()) }
                                        ?? ProgressPacer(toTerminal: stderrIsTerminal, start: clock()))
        let status = { (depth: Int, s: GameValue.Statistics) in
            "solve \(label) --value: depth \(depth)/\(maxDepth)  \(s.nodes) states  \(s.hits) table hits  \(Int(s.nodesPerSecond)) states/s"
        }
        do {
            let result = try GameValue(game: game, maxDepth: maxDepth).run(clock: clock, shouldStop: { wasInterrupted }) { depth, s in
                progress.show(status(depth, s), at: clock())
            }
            progress.end(nil)
            return result
        } catch {
            progress.end(nil)
            if wasInterrupted {
                complain("interrupted: the search stopped")
                throw interruptExitCode
            }
            complain("\(error)")
            if case .badInput = error.error { throw Outcome.badInput.exitCode }
            throw Outcome.failed.exitCode
        }
    }

    func runValue() throws {
        let options = try packOptions.setupOptionValues()
        if !sweep.isEmpty { return try runSweep(options) }
        if let out = outOption.out {
            do { try OutputFile(path: out, purpose: "the principal line (--out)").checkWritable() } catch {
                complain("\(error)")
                throw Outcome.badInput.exitCode
            }
        }
        let game = try valueGame(options)
        let result = try valueSearch(game, label: packOptions.pack)
        var written: [String] = []
        if case .valued(let seat, let moves, let best, _, _) = result.outcome {
            written = try writeLines(game: game, seat: seat, moves: moves, best: best)
        }
        print(jsonOption.json ? valueJSON(result, written: written) : valueText(result, written: written))
        if case .interrupted = result.outcome { throw interruptExitCode }
        if wasInterrupted { throw interruptExitCode }
    }

    /// Writes the principal line (`--out`) and each worse root move's line (`--refutations`); returns the paths.
    private func writeLines(game: Game, seat: String, moves: [GameValue.MoveValue], best: Int) throws -> [String] {
        var files: [(path: String, what: String, move: GameValue.MoveValue)] = []
        if let out = outOption.out { files.append((out, "the principal line", moves[best])) }
        if let refutations {
            do { try FileManager.default.createDirectory(atPath: refutations, withIntermediateDirectories: true) } catch {
                complain("--refutations \(refutations): the folder cannot be made (\(error.localizedDescription))")
                throw Outcome.badInput.exitCode
            }
            for (index, move) in moves.enumerated() where move.value < moves[best].value {
                let path = URL(fileURLWithPath: refutations).appendingPathComponent("move-\(index + 1).yaml").path
                files.append((path, "the line of \(move.call)", move))
            }
        }
        var written: [String] = []
        for file in files {
            do {
                let ends = try ValueScenario.endsTheGame(file.move.line, in: game)
                let scenario = ValueScenario(packReference: SolutionScenario.packReference(packOptions.pack, of: game, forFileAt: file.path), seed: seedOption.seed,
                                             options: game.options, what: file.what, seat: seat, verdict: file.move.verdict,
                                             line: file.move.line, endsTheGame: ends,
                                             command: (["rulebench"] + CommandLine.arguments.dropFirst()).joined(separator: " "))
                try OutputFile(path: file.path, purpose: "a line of --value").write(scenario.text)
                written.append(file.path)
            } catch {
                complain("\(error)")
                throw Outcome.failed.exitCode
            }
        }
        return written
    }

    private func valueText(_ result: GameValue.Result, written: [String]) -> String {
        let s = result.statistics
        var lines: [String] = []
        switch result.outcome {
        case .over(let scores):
            lines.append("the game is over at the start: " + scores.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        case .interrupted:
            lines.append("interrupted before depth 1 was searched")
        case .valued(let seat, let moves, let best, let depth, let proven):
            lines.append("value for \(seat) (the seat to move): \(moves[best].verdict)"
                         + (proven ? " — proven (searched \(depth) moves deep, nothing cut short)"
                                   : " — not proven: searched \(depth) moves deep (--max-depth), positions below scored by the pack's appraise"))
            lines.append("root moves (\(moves.count)), each searched with the whole window:")
            for (index, move) in moves.enumerated() {
                lines.append("  \(index == best ? "*" : " ") \(move.call)  \(move.verdict)")
            }
            lines.append("principal line (\(moves[best].line.count) moves):")
            for (index, call) in moves[best].line.enumerated() { lines.append("  \(index + 1). \(call)") }
        }
        lines.append("alpha-beta with a transposition table: \(s.nodes) states searched, \(s.hits) answered by the table, "
                     + "\(s.performs) actions performed and undone (verified) in \(String(format: "%.2f", s.seconds)) s "
                     + "(\(Int(s.nodesPerSecond)) states/s)")
        for path in written { lines.append("wrote \(path) (rulebench run \(path) replays it)") }
        return lines.joined(separator: "\n")
    }

    private func valueJSON(_ result: GameValue.Result, written: [String]) -> String {
        let s = result.statistics
        var members: [(String, JSONValue)] = [("pack", .string(packOptions.pack)), ("maxDepth", .int(Int64(maxDepth)))]
        switch result.outcome {
        case .over(let scores):
            members.append(("status", .string("over")))
            members.append(("scores", .object(scores.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) })))
        case .interrupted:
            members.append(("status", .string("interrupted")))
        case .valued(let seat, let moves, let best, let depth, let proven):
            members += [("status", .string("valued")), ("seat", .string(seat)), ("value", .string(moves[best].verdict.word)),
                        ("verdict", .string(moves[best].verdict.description)), ("proven", .bool(proven)), ("depth", .int(Int64(depth))),
                        ("principalLine", .array(moves[best].line.map(Self.jsonCall))),
                        ("moves", .array(moves.enumerated().map { index, move in
                            .object([("call", Self.jsonCall(move.call)), ("value", .string(move.verdict.word)),
                                     ("verdict", .string(move.verdict.description)), ("best", .bool(move.value == moves[best].value)),
                                     ("line", .array(move.line.map(Self.jsonCall)))])
                        }))]
        }
        members += [("statesSearched", .int(Int64(s.nodes))), ("tableHits", .int(Int64(s.hits))),
                    ("actionsPerformed", .int(Int64(s.performs))), ("seconds", .double(s.seconds)),
                    ("statesPerSecond", .double(s.nodesPerSecond)), ("scenarios", .array(written.map { .string($0) }))]
        return JSONValue.object(members).serialized()
    }

    static func jsonCall(_ call: ActionCall) -> JSONValue {
        .object([("do", .string(call.name)),
                 ("with", JSONValue(.table(Dictionary(uniqueKeysWithValues: call.params.map { (StateKey.string($0.key), $0.value) }))))])
    }

    // MARK: --sweep

    /// The ranges of `--sweep name=a..b`, in the order given.
    func sweepRanges() throws -> [(name: String, values: ClosedRange<Int>)] {
        let ranges = try sweep.map { text -> (name: String, values: ClosedRange<Int>) in
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw ValidationError("--sweep expects name=first..last, got '\(text)'")
            }
            let bounds = text[text.index(after: equals)...].components(separatedBy: "..")
            guard bounds.count == 2, let first = Int(bounds[0]), let last = Int(bounds[1]), first <= last,
                  abs(first) <= 1_000_000, abs(last) <= 1_000_000 else {
                throw ValidationError("--sweep \(text): give whole numbers first..last, first not above last (cols=4..6)")
            }
            return (String(text[..<equals]), first...last)
        }
        guard Set(ranges.map(\.name)).count == ranges.count else { throw ValidationError("--sweep names an option twice") }
        let combinations = ranges.reduce(1) { $0 * $1.values.count }
        guard combinations <= Self.largestSweep else {
            throw ValidationError("--sweep makes \(combinations) games; at most \(Self.largestSweep)")
        }
        return ranges
    }

    static let largestSweep = 64

    /// A table of values, one row per combination of the swept options (the last option varying fastest).
    private func runSweep(_ options: [String: StateValue]) throws {
        let ranges = try sweepRanges()
        var combinations: [[Int]] = [[]]
        for range in ranges { combinations = combinations.flatMap { prefix in range.values.map { prefix + [$0] } } }
        var rows: [(values: [Int], verdict: String, proven: Bool, seconds: Double)] = []
        for values in combinations {
            var given = options
            for (range, value) in zip(ranges, values) { given[range.name] = .int(Int64(value)) }
            let game = try valueGame(given)
            let label = "\(packOptions.pack) " + zip(ranges, values).map { "\($0.name)=\($1)" }.joined(separator: " ")
            let result = try valueSearch(game, label: label)
            let verdict: String
            var proven = false
            switch result.outcome {
            case .over: verdict = "over at the start"
            case .interrupted: verdict = "interrupted"
            case .valued(let seat, let moves, let best, _, let isProven):
                verdict = "\(moves[best].verdict) for \(seat)"
                proven = isProven
            }
            rows.append((values, verdict, proven, result.statistics.seconds))
            if wasInterrupted { break }
        }
        if jsonOption.json {
            print(JSONValue.object([("pack", .string(packOptions.pack)), ("rows", .array(rows.map { row in
                .object(zip(ranges, row.values).map { ($0.name, JSONValue.int(Int64($1))) }
                        + [("value", .string(row.verdict)), ("proven", .bool(row.proven)), ("seconds", .double(row.seconds))])
            }))]).serialized())
        } else {
            let header = ranges.map(\.name) + ["value", "proven", "seconds"]
            let body = rows.map { row in row.values.map(String.init) + [row.verdict, row.proven ? "yes" : "no", String(format: "%.2f", row.seconds)] }
            let widths = header.indices.map { column in ([header] + body).map { $0[column].count }.max() ?? 0 }
            for line in [header] + body {
                let padded = line.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ")
                print(padded.replacingOccurrences(of: " +$", with: "", options: .regularExpression))
            }
        }
        if wasInterrupted { throw interruptExitCode }
    }
}
