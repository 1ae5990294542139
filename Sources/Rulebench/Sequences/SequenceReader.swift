import Foundation
import Yams

/// Reads one sequence file (YAML, the form docs/sequences.md and
/// scenarios/sequence.schema.json describe) into a `StorySequence`.
///
/// Every problem is an `InputProblem` at the file, line and column of the
/// value that is wrong: an unknown key, side, position or animation, a step
/// with no event, a choice with no action. Whether an image exists, a text's
/// slots are in the state or a choice names an action of the pack is not
/// known here: `check` judges those (`SequenceAudit`).
struct SequenceReader {
    let reader: YAMLReader
    let name: String

    /// Reads `url`, a file named `NAME.yaml` of the folder `sequences/` of a pack.
    static func read(_ url: URL, display: String) throws(RulebenchError) -> StorySequence {
        let text = try InputFile.text(url, display: display)
        let name = url.deletingPathExtension().lastPathComponent
        return try SequenceReader(reader: YAMLReader(file: display), name: name).sequence(from: text)
    }

    func sequence(from text: String) throws(RulebenchError) -> StorySequence {
        guard let root = try reader.compose(text) else {
            throw .badInput(InputProblem("an empty sequence: write `steps:` and a list of steps under it", file: reader.file, line: 1))
        }
        var sequence = StorySequence(name: name, file: reader.file, steps: [])
        var stepsNode: Node?
        for (key, keyNode, value) in try reader.mapping(root, "a sequence file") {
            switch key {
            case "steps": stepsNode = value
            case "starts":
                sequence.trigger = try trigger(value)
                sequence.triggerLocation = reader.location(of: value)
            case "description": _ = try reader.string(value, "description")
            default: throw reader.fail(keyNode, "unknown key '\(key)' in a sequence file (steps, starts, description)")
            }
        }
        guard let stepsNode else { throw reader.fail(root, "a sequence file needs `steps:`, a list of steps") }
        for step in try reader.sequence(stepsNode, "steps") { sequence.steps.append(try self.step(step)) }
        guard !sequence.steps.isEmpty else { throw reader.fail(stepsNode, "`steps:` is empty: give at least one step") }
        return sequence
    }

    private func trigger(_ node: Node) throws(RulebenchError) -> SequenceTrigger {
        if case .scalar = node {
            let word = try reader.string(node, "starts")
            guard word == "opening" else {
                throw reader.fail(node, "starts: '\(word)' is not a trigger: write `starts: opening` or `starts: { goal: NAME }` "
                                  + "(plans start a sequence with anim.sequence(\"\(name)\"))")
            }
            return .opening
        }
        let pairs = try reader.mapping(node, "starts")
        guard pairs.count == 1, pairs[0].key == "goal" else {
            throw reader.fail(node, "starts: write `opening` or `{ goal: NAME }`")
        }
        return .goal(try reader.string(pairs[0].value, "starts: goal"))
    }

    private func step(_ node: Node) throws(RulebenchError) -> SequenceStep {
        var events: [SequenceEvent] = []
        for (key, keyNode, value) in try reader.mapping(node, "a step") {
            guard let side = SequenceSide(rawValue: key) else {
                throw reader.fail(keyNode, "unknown side '\(key)' in a step"
                                  + Suggestion.hint(for: key, in: SequenceSide.allCases.map(\.rawValue))
                                  + " (sides: \(SequenceSide.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            events.append(try event(value, side: side, at: keyNode))
        }
        guard !events.isEmpty else { throw reader.fail(node, "a step needs at least one event: `left:`, `center:` or `right:`") }
        events.sort { SequenceSide.allCases.firstIndex(of: $0.side)! < SequenceSide.allCases.firstIndex(of: $1.side)! }
        return SequenceStep(events: events, location: reader.location(of: node))
    }

    private func event(_ node: Node, side: SequenceSide, at keyNode: Node) throws(RulebenchError) -> SequenceEvent {
        var event = SequenceEvent(side: side, text: "", location: reader.location(of: keyNode))
        for (key, keyNode, value) in try reader.mapping(node, "an event") {
            switch key {
            case "text":
                event.text = try reader.string(value, "text")
                event.textLocation = reader.location(of: value)
            case "image":
                event.image = try reader.string(value, "image")
                event.imageLocation = reader.location(of: value)
            case "position": event.position = try word(value, "position", as: SequencePosition.self)
            case "animation": event.animation = try word(value, "animation", as: SequenceAnimation.self)
            case "choices": event.choices = try reader.sequence(value, "choices").map { node throws(RulebenchError) in try choice(node) }
            default:
                throw reader.fail(keyNode, "unknown key '\(key)' in an event (text, image, position, animation, choices)")
            }
        }
        return event
    }

    /// One of a documented set of words, or a problem listing them.
    private func word<Word: RawRepresentable & CaseIterable>(_ node: Node, _ what: String,
                                                             as: Word.Type) throws(RulebenchError) -> Word where Word.RawValue == String {
        let text = try reader.string(node, what)
        if let known = Word(rawValue: text) { return known }
        let names = Word.allCases.map(\.rawValue)
        throw reader.fail(node, "unknown \(what) '\(text)'" + Suggestion.hint(for: text, in: names)
                          + " (\(what)s: \(names.joined(separator: ", ")))")
    }

    private func choice(_ node: Node) throws(RulebenchError) -> SequenceChoice {
        var label: String?, action: String?, actionNode: Node?
        var params: [String: StateValue] = [:]
        for (key, keyNode, value) in try reader.mapping(node, "a choice") {
            switch key {
            case "label": label = try reader.string(value, "label")
            case "action":
                action = try reader.string(value, "action")
                actionNode = value
            case "params":
                for (param, _, valueNode) in try reader.mapping(value, "params") {
                    if let stateValue = try reader.stateValue(valueNode, "param '\(param)'") { params[param] = stateValue }
                }
            default: throw reader.fail(keyNode, "unknown key '\(key)' in a choice (label, action, params)")
            }
        }
        guard let action, let actionNode else { throw reader.fail(node, "a choice needs `action:`, the action it performs") }
        return SequenceChoice(label: label ?? action, call: ActionCall(action, params), location: reader.location(of: actionNode))
    }
}
