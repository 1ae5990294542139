import Foundation

/// What `check` finds wrong with a pack's story sequences (docs/sequences.md),
/// each at its file and line:
/// - a sequence file that cannot be read: bad YAML, an unknown key, side,
///   position or animation (errors, from `SequenceReader`);
/// - an image the pack does not have (error);
/// - a text reading `{path}` that the starting state does not hold (error);
/// - a choice naming an action the pack does not have (error);
/// - `starts: { goal: NAME }` naming no goal of the pack, and
///   `anim.sequence("NAME")` in the pack's Lua naming no sequence (errors);
/// - a sequence that nothing starts: no `starts:`, and no `anim.sequence`
///   of it in the pack's Lua (warning; `studio PACK --sequence NAME` still shows it).
struct SequenceAudit {
    let game: Game
    let book: SequenceBook

    init(game: Game) {
        self.game = game
        book = game.sequenceBook()
    }

    /// Every problem, sequence by sequence, then the triggers naming none.
    var problems: [PackProblem] {
        var problems = book.problems.map { PackProblem(.error, file: $0.file ?? "sequences", line: $0.location?.line, $0.message) }
        let state = try? game.state()
        let triggers = cueTriggers()
        for name in book.names {
            guard let sequence = book.sequences[name] else { continue }
            problems += eventProblems(sequence, state: state)
            if case .goal(let goal)? = sequence.trigger, !game.pack.goals.contains(goal) {
                problems.append(PackProblem(.error, file: sequence.file, line: sequence.triggerLocation?.line,
                    "starts: { goal: \(goal) } names no goal of the pack" + Suggestion.hint(for: goal, in: game.pack.goals)
                        + " (goals: \(game.pack.goals.isEmpty ? "none" : game.pack.goals.joined(separator: ", ")))"))
            }
            if sequence.trigger == nil && !triggers.contains(where: { $0.name == name }) {
                problems.append(PackProblem(.warning, file: sequence.file, line: 1,
                    "nothing starts sequence '\(name)': write `starts: opening` or `starts: { goal: NAME }` in it, "
                        + "or anim.sequence(\"\(name)\") in an action's animate"))
            }
        }
        for trigger in triggers where book.sequences[trigger.name] == nil {
            problems.append(PackProblem(.error, file: trigger.file, line: trigger.line,
                "anim.sequence(\"\(trigger.name)\") names no sequence: there is no sequences/\(trigger.name).yaml"
                    + Suggestion.hint(for: trigger.name, in: book.names)))
        }
        return problems
    }

    private func eventProblems(_ sequence: StorySequence, state: StateValue?) -> [PackProblem] {
        var problems: [PackProblem] = []
        for event in sequence.events {
            if let image = event.image, game.packFile(image) == nil {
                problems.append(PackProblem(.error, file: sequence.file, line: event.imageLocation?.line ?? event.location.line,
                    "image '\(image)' is not a file of the pack (a path inside the pack's folder, e.g. art/storm.svg)"))
            }
            for choice in event.choices where game.pack.actions[choice.call.name] == nil {
                problems.append(PackProblem(.error, file: sequence.file, line: choice.location.line,
                    "choice '\(choice.label)' names no action: '\(choice.call.name)'"
                        + Suggestion.hint(for: choice.call.name, in: game.pack.actionNames)))
            }
        }
        for slot in state.map({ PlayedSequence(sequence, state: $0) { _ in true }.missing }) ?? [] {
            problems.append(PackProblem(.error, file: slot.location.file, line: slot.location.line,
                "the text reads {\(slot.path)}, which the state does not have after setup"))
        }
        return problems
    }

    /// Every `anim.sequence("NAME")` with a literal name in the pack's Lua files, with its place.
    func cueTriggers() -> [(name: String, file: String, line: Int)] {
        var found: [(name: String, file: String, line: Int)] = []
        for folder in game.packFolders {
            guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where url.pathExtension == "lua" {
                guard let source = try? PackFiles.read(url, of: folder) else { continue }
                let scan = LuaSourceScan(source)
                for match in LuaSourceScan.matches("\\.\\s*sequence\\s*\\(?\\s*[\"']([A-Za-z0-9_.-]+)[\"']", in: source) {
                    found.append((match.groups[0], PackFiles.display(url), scan.line(at: match.offset)))
                }
            }
        }
        return found
    }
}
