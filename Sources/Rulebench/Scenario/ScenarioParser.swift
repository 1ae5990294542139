import Foundation
import Yams

/// Reads scenario files (YAML) into `Scenario` values.
///
/// Every problem is a `RulebenchError.badInput` whose `InputProblem` names the
/// file, line and column, e.g. `scenarios/x.yaml:7:5: unknown key 'expct' in a
/// step; did you mean 'expect'?`. Problems that need the rule pack (an unknown
/// action or param) are found by `ScenarioRunner` when it loads the pack.
public enum ScenarioParser {
    /// The keys of each mapping of the format.
    enum Keys {
        static let top = ["scenario", "rules", "setup", "steps"]
        static let setup = ["seed", "options", "state", "create"]
        static let step = ["do", "with", "as", "undo", "redo", "expect"]
        static let expect = ["state", "rejected", "error", "subactions", "sounds", "animation", "invariants", "hash", "legal",
                             "exists", "absent", "goal", "not_goal", "seen_by", "sequence"]
        static let sequence = ["name", "says", "transcript"]
        static let invariants = ["broken"]
        static let legal = ["contains", "count"]
        static let call = ["do", "with"]
        static let animation = ["duration", "conflicts", "starts", "mirrored"]
    }

    /// Reads a scenario file. `displayPath` is how messages name it (default: the path).
    /// With `placeholders`, a `hash:` that is not a hash (`hash: H4`, a file
    /// still being written) is read as `hashPlaceholder`, not refused: what
    /// `rulebench state` needs to print the hashes to write there.
    public static func parse(contentsOf url: URL, displayPath: String? = nil,
                             placeholders: Bool = false) throws(RulebenchError) -> Scenario {
        let file = displayPath ?? url.path
        return try parse(read(url, file: file), file: file, placeholders: placeholders)
    }

    /// Parses scenario text; `file` is how messages name it.
    public static func parse(_ text: String, file: String, placeholders: Bool = false) throws(RulebenchError) -> Scenario {
        let reader = YAMLReader(file: file)
        guard let root = try reader.compose(text) else {
            throw .badInput(InputProblem("empty scenario file: it needs 'scenario', 'rules' and 'steps'", file: file, line: 1, column: 1))
        }
        return try ScenarioParser.Reading(reader: reader, placeholders: placeholders).scenario(root)
    }

    /// The file as JSON, typed as the parser types YAML (YAML 1.2 core schema),
    /// for validating it against `scenarios/scenario.schema.json`.
    public static func json(_ text: String, file: String) throws(RulebenchError) -> JSONValue {
        let reader = YAMLReader(file: file)
        guard let root = try reader.compose(text) else { return .null }
        return try reader.json(root)
    }

    /// The text of a file, or a bad-input error saying why it cannot be read.
    static func read(_ url: URL, file: String) throws(RulebenchError) -> String {
        // Refused before it is read past the limit: a huge file would be held whole in memory first.
        try InputFile.text(url, display: file)
    }

    /// One pass over one file's nodes.
    struct Reading {
        let reader: YAMLReader
        /// Whether a `hash:` may hold a placeholder (`parse(placeholders:)`).
        var placeholders = false

        private func fail(_ node: Node, _ message: String) -> RulebenchError { reader.fail(node, message) }

        /// The pairs of a mapping, refusing keys not in `allowed` with a suggestion.
        private func pairs(_ node: Node, _ what: String, allowed: [String]) throws(RulebenchError) -> [String: (key: Node, value: Node)] {
            var out: [String: (key: Node, value: Node)] = [:]
            for pair in try reader.mapping(node, what) {
                guard allowed.contains(pair.key) else {
                    throw fail(pair.keyNode, "unknown key '\(pair.key)' in \(what)" + Suggestion.hint(for: pair.key, in: allowed)
                                + " (\(what) takes: \(allowed.joined(separator: ", ")))")
                }
                out[pair.key] = (pair.keyNode, pair.value)
            }
            return out
        }

        private func required(_ pairs: [String: (key: Node, value: Node)], _ key: String, in node: Node, _ hint: String) throws(RulebenchError) -> Node {
            guard let pair = pairs[key] else { throw fail(node, "missing '\(key)': \(hint)") }
            return pair.value
        }

        // MARK: Top level

        func scenario(_ root: Node) throws(RulebenchError) -> Scenario {
            guard case .mapping = root else {
                throw fail(root, "a scenario file is a mapping with 'scenario', 'rules' and 'steps', not \(try reader.value(root).kindName)")
            }
            let top = try pairs(root, "a scenario", allowed: Keys.top)
            let title = try reader.string(try required(top, "scenario", in: root, "give the scenario a title, e.g. `scenario: a dash moves two squares`"), "'scenario'")
            let rulesNode = try required(top, "rules", in: root, "name the rule pack, e.g. `rules: template`, or give a path relative to this file")
            let rules = try reader.string(rulesNode, "'rules'")
            guard !rules.isEmpty else { throw fail(rulesNode, "'rules' must name a rule pack") }
            let setup = try top["setup"].map { pair throws(RulebenchError) in try self.setup(pair.value) } ?? ScenarioSetup()
            let stepsNode = try required(top, "steps", in: root, "list what to do, e.g. `steps: [{do: step, with: {token: p1}}]`")
            let stepNodes = try reader.sequence(stepsNode, "'steps'")
            guard !stepNodes.isEmpty else { throw fail(stepsNode, "'steps' is empty: a scenario needs at least one step") }
            var steps: [ScenarioStep] = []
            for (index, node) in stepNodes.enumerated() {
                steps.append(try step(node, number: index + 1))
            }
            return Scenario(file: reader.file, title: title, rules: Located(rules, at: reader.location(of: rulesNode)),
                            setup: setup, steps: steps)
        }

        private func setup(_ node: Node) throws(RulebenchError) -> ScenarioSetup {
            var setup = ScenarioSetup()
            let keys = try pairs(node, "'setup'", allowed: Keys.setup)
            if let seed = keys["seed"] { setup.seed = try reader.integer(seed.value, "'seed'") }
            if let options = keys["options"] {
                for pair in try reader.mapping(options.value, "'options'") {
                    guard let value = try reader.stateValue(pair.value, "option '\(pair.key)'") else {
                        throw fail(pair.value, "option '\(pair.key)' is null: leave it out to use the pack's default")
                    }
                    setup.options[pair.key] = value
                    setup.optionLocations[pair.key] = reader.location(of: pair.keyNode)
                }
            }
            if let state = keys["state"] { setup.state = try assignments(state.value, "'setup.state'") }
            if let create = keys["create"] {
                guard case .bool(let flag) = try reader.value(create.value) else {
                    throw fail(create.value, "'create' is true or false: true lets 'state' create the tables missing on its paths")
                }
                setup.createsTables = flag
            }
            return setup
        }

        /// `[path, ...]` (or one path): dotted state paths.
        private func paths(_ node: Node, _ what: String) throws(RulebenchError) -> [Located<StatePath>] {
            let items: [Node]
            if case .sequence = node { items = try reader.sequence(node, what) } else { items = [node] }
            var out: [Located<StatePath>] = []
            for item in items {
                let text = try reader.string(item, "a state path in \(what)")
                let path: StatePath
                do {
                    path = try StatePath(parsing: text)
                } catch {
                    throw fail(item, "\(error)")
                }
                guard !path.keys.isEmpty else { throw fail(item, "an empty state path: write a dotted path such as tokens.p1.square") }
                out.append(Located(path, at: reader.location(of: item)))
            }
            return out
        }

        /// `{ "dotted.path": value, ... }`.
        private func assignments(_ node: Node, _ what: String) throws(RulebenchError) -> [StateAssignment] {
            var out: [StateAssignment] = []
            for pair in try reader.mapping(node, what) {
                let path: StatePath
                do {
                    path = try StatePath(parsing: pair.key)
                } catch {
                    throw fail(pair.keyNode, "\(error)")
                }
                guard !path.keys.isEmpty else { throw fail(pair.keyNode, "an empty state path: write a dotted path such as tokens.p1.square") }
                out.append(StateAssignment(path: path, value: try reader.stateValue(pair.value, "'\(pair.key)'", inState: true),
                                           location: reader.location(of: pair.keyNode)))
            }
            return out
        }

        // MARK: Steps

        private func step(_ node: Node, number: Int) throws(RulebenchError) -> ScenarioStep {
            guard case .mapping = node else {
                throw fail(node, "step \(number) must be a mapping such as `- do: move` or `- undo: 1`, not \(try reader.value(node).kindName)")
            }
            let keys = try pairs(node, "a step", allowed: Keys.step)
            let verbs = ["do", "undo", "redo"].filter { keys[$0] != nil }
            if verbs.count > 1 {
                let second = keys[verbs[1]]!.key
                throw fail(second, "a step does one thing: '\(verbs[0])' and '\(verbs[1])' cannot be in the same step (split it into two steps)")
            }
            if let with = keys["with"], keys["do"] == nil {
                throw fail(with.key, "'with' gives the params of a 'do' step; this step has no 'do'")
            }
            var step = ScenarioStep(number: number, location: reader.location(of: node), operation: .check, expectations: Expectations())
            if let action = keys["do"] {
                let name = try reader.string(action.value, "'do'")
                guard !name.isEmpty else { throw fail(action.value, "'do' must name an action") }
                var params: [String: StateValue] = [:]
                if let with = keys["with"] {
                    (params, step.paramLocations) = try self.params(with.value)
                }
                step.operation = .perform(action: name, params: params)
                step.actionLocation = reader.location(of: action.value)
            } else if let undo = keys["undo"] {
                if case .string(let word) = try reader.value(undo.value) {
                    guard word == "turn" || word == "last turn" else {
                        throw fail(undo.value, "'undo' takes a count (undo: 2), 'turn' (undo: turn) or 'last turn' (undo: last turn), not '\(word)'"
                                    + Suggestion.hint(for: word, in: ["turn", "last turn"]))
                    }
                    step.operation = word == "turn" ? .undoTurn : .undoLastTurn
                } else {
                    step.operation = .undo(count: try count(undo.value, "'undo'"))
                }
            } else if let redo = keys["redo"] {
                step.operation = .redo(count: try count(redo.value, "'redo'"))
            } else if keys["expect"] == nil {
                throw fail(node, "an empty step: write 'do', 'undo', 'redo' or 'expect'")
            }
            if let seat = keys["as"] {
                guard keys["do"] != nil || step.operation == .undoTurn else {
                    throw fail(seat.key, "'as' names the seat that performs a 'do' step or takes back its turn (undo: turn)")
                }
                let name = try reader.string(seat.value, "'as' (a seat)")
                guard !name.isEmpty else { throw fail(seat.value, "'as' must name a seat") }
                step.seat = Located(name, at: reader.location(of: seat.value))
            }
            if let expect = keys["expect"] {
                step.expectations = try expectations(expect.value, for: step.operation)
                if step.operation == .check && step.expectations.isEmpty {
                    throw fail(expect.value, "this step expects nothing: give at least one expectation, e.g. `state:`")
                }
            }
            return step
        }

        private func count(_ node: Node, _ what: String) throws(RulebenchError) -> Int {
            let value = try reader.integer(node, "\(what) (a count of actions)")
            guard value >= 1, value <= 1_000_000 else { throw fail(node, "\(what) must be at least 1, not \(value)") }
            return Int(value)
        }

        // MARK: Expectations

        private func expectations(_ node: Node, for operation: ScenarioStep.Operation) throws(RulebenchError) -> Expectations {
            var out = Expectations()
            let keys = try pairs(node, "'expect'", allowed: Keys.expect)
            try checkCombinations(keys, for: operation)
            if let state = keys["state"] { out.state = try assignments(state.value, "'expect.state'") }
            if let rejected = keys["rejected"] {
                out.rejected = Located(try reader.string(rejected.value, "'rejected' (a part of the reason)"), at: reader.location(of: rejected.value))
            }
            if let error = keys["error"] {
                out.error = Located(try reader.string(error.value, "'error' (a part of the message)"), at: reader.location(of: error.value))
            }
            if let subactions = keys["subactions"] {
                out.subactions = Located(try subactionList(subactions.value), at: reader.location(of: subactions.value))
            }
            if let sounds = keys["sounds"] {
                var names: [String] = []
                for item in try reader.sequence(sounds.value, "'sounds'") { names.append(try reader.string(item, "a sound name")) }
                out.sounds = Located(names, at: reader.location(of: sounds.value))
            }
            if let animation = keys["animation"] { try animationExpectations(animation.value, into: &out) }
            if let invariants = keys["invariants"] {
                try invariantsExpectation(invariants, alsoExpectsFailure: keys["rejected"] != nil || keys["error"] != nil, into: &out)
            }
            if let exists = keys["exists"] { out.exists = try paths(exists.value, "'exists'") }
            if let absent = keys["absent"] { out.absent = try paths(absent.value, "'absent'") }
            if let hash = keys["hash"] { try hashExpectation(hash.value, into: &out) }
            if let legal = keys["legal"] {
                out.legal = Located(try legalExpectation(legal.value), at: reader.location(of: legal.value))
            }
            if let seenBy = keys["seen_by"] {
                for pair in try reader.mapping(seenBy.value, "'seen_by' (seat: { path: value })") {
                    guard !pair.key.isEmpty else { throw fail(pair.keyNode, "'seen_by' is keyed by seat names") }
                    out.seenBy.append(SeenBy(seat: Located(pair.key, at: reader.location(of: pair.keyNode)),
                                             state: try assignments(pair.value, "'seen_by.\(pair.key)'")))
                }
            }
            if let sequence = keys["sequence"] {
                out.sequence = Located(try sequenceExpectation(sequence.value), at: reader.location(of: sequence.value))
            }
            out.goal = try goalName(keys["goal"], key: "goal")
            out.notGoal = try goalName(keys["not_goal"], key: "not_goal")
            if let goal = out.goal, let notGoal = out.notGoal, goal.value == notGoal.value {
                throw fail(keys["not_goal"]!.value, "'goal' and 'not_goal' both name '\(goal.value)': a goal either holds or does not")
            }
            return out
        }

        /// `sequence: NAME`, or `sequence: { name: NAME, says: [...], transcript: FILE }`.
        private func sequenceExpectation(_ node: Node) throws(RulebenchError) -> SequenceExpectation {
            if case .scalar = node { return SequenceExpectation(name: try reader.string(node, "'sequence' (a sequence's name)")) }
            let keys = try pairs(node, "'sequence'", allowed: Keys.sequence)
            guard let name = keys["name"] else { throw fail(node, "'sequence' needs 'name', the sequence the step starts") }
            var out = SequenceExpectation(name: try reader.string(name.value, "'sequence.name'"))
            if let says = keys["says"] {
                var parts: [String] = []
                for item in try reader.sequence(says.value, "'says'") { parts.append(try reader.string(item, "a part of a step's text")) }
                out.says = parts
            }
            if let transcript = keys["transcript"] {
                let path = try reader.string(transcript.value, "'transcript' (a file, from this scenario's folder)")
                out.transcript = URL(fileURLWithPath: reader.file).deletingLastPathComponent().appendingPathComponent(path)
            }
            return out
        }

        /// Which keys a step's operation allows, and which go together:
        /// `rejected` and `error` exclude each other, and an action expected
        /// to be refused or to fail leaves no subactions or animation.
        private func checkCombinations(_ keys: [String: (key: Node, value: Node)],
                                       for operation: ScenarioStep.Operation) throws(RulebenchError) {
            let isPerform: Bool
            if case .perform = operation { isPerform = true } else { isPerform = false }
            func only(_ key: String, _ allowed: Bool, _ why: String) throws(RulebenchError) {
                if let pair = keys[key], !allowed { throw fail(pair.key, "'\(key)' \(why)") }
            }
            try only("rejected", isPerform, "can only be expected of a 'do' step")
            try only("error", operation != .check, "can only be expected of a 'do', 'undo' or 'redo' step")
            try only("subactions", isPerform, "can only be expected of a 'do' step")
            try only("sequence", isPerform, "can only be expected of a 'do' step (a step starts a sequence when it is performed)")
            try only("sounds", operation != .check, "needs a 'do', 'undo' or 'redo' in the same step")
            try only("animation", operation != .check, "needs a 'do', 'undo' or 'redo' in the same step")
            if keys["rejected"] != nil, let error = keys["error"] {
                throw fail(error.key, "expect either 'rejected' (check refused) or 'error' (the action failed), not both")
            }
            if keys["rejected"] != nil || (keys["error"] != nil && isPerform) {
                let outcome = keys["rejected"] != nil ? "rejected" : "expected to fail"
                for key in ["subactions", "sounds", "animation", "sequence"] {
                    if let pair = keys[key] {
                        throw fail(pair.key, "'\(key)' cannot be expected of an action that is \(outcome): it leaves no trace")
                    }
                }
            }
        }

        /// `hash:` 16 lower-case hex digits; with `placeholders`, any other
        /// scalar is a placeholder the hash is still to be written over.
        private func hashExpectation(_ node: Node, into out: inout Expectations) throws(RulebenchError) {
            let typed = try reader.value(node)
            let location = reader.location(of: node)
            let next = " (`rulebench state FILE --step N` prints the hash after step N, placeholders and all)"
            if case .string(let text) = typed, text.count == 16, text.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) {
                out.hash = Located(text, at: location)
            } else if placeholders {
                // The placeholder's text as written (`H4`, `4`, `~`): a list or mapping is no placeholder.
                guard case .scalar(let scalar) = node else {
                    throw fail(node, "'hash' must be a string of 16 hex digits or a placeholder such as H4, not \(typed.kindName)")
                }
                out.hashPlaceholder = Located(scalar.string, at: location)
            } else if case .string(let text) = typed {
                throw fail(node, "'hash' must be 16 lower-case hex digits (as `rulebench` prints state hashes), not '\(text)'" + next)
            } else {
                throw fail(node, "'hash' must be a string of 16 hex digits, not \(typed.kindName); quote it: hash: \"...\"" + next)
            }
        }

        /// `animation:` with `mirrored`, `duration`, `conflicts` and `starts`.
        private func animationExpectations(_ node: Node, into out: inout Expectations) throws(RulebenchError) {
            let fields = try pairs(node, "'animation'", allowed: Keys.animation)
            if fields.isEmpty { throw fail(node, "'animation' needs 'duration', 'conflicts', 'starts' or 'mirrored'") }
            if let mirrored = fields["mirrored"] {
                guard case .bool(true) = try reader.value(mirrored.value) else {
                    throw fail(mirrored.value, "'mirrored' takes only true (leave it out otherwise)")
                }
                out.mirrored = Located(true, at: reader.location(of: mirrored.value))
            }
            if let duration = fields["duration"] {
                let seconds = try reader.number(duration.value, "'duration' (seconds)")
                guard seconds >= 0 else { throw fail(duration.value, "'duration' cannot be negative") }
                out.duration = Located(seconds, at: reader.location(of: duration.value))
            }
            if let conflicts = fields["conflicts"] {
                let number = try reader.integer(conflicts.value, "'conflicts' (a count)")
                guard number >= 0 else { throw fail(conflicts.value, "'conflicts' cannot be negative") }
                out.conflicts = Located(Int(number), at: reader.location(of: conflicts.value))
            }
            if let starts = fields["starts"] {
                var list: [(key: String, seconds: Double)] = []
                for pair in try reader.mapping(starts.value, "'starts' (target.property: seconds)") {
                    let seconds = try reader.number(pair.value, "the start of \(pair.key) (seconds)")
                    guard seconds >= 0 else { throw fail(pair.value, "a start cannot be negative") }
                    list.append((pair.key, seconds))
                }
                out.starts = Located(list.map { AnimationStart(key: $0.key, seconds: $0.seconds) }, at: reader.location(of: starts.value))
            }
        }

        /// `invariants: hold`, or `invariants: { broken: NAME or [NAMES] }`
        /// (which already says how the action fails: no `rejected` or `error` beside it).
        private func invariantsExpectation(_ invariants: (key: Node, value: Node), alsoExpectsFailure: Bool,
                                           into out: inout Expectations) throws(RulebenchError) {
            if case .mapping = invariants.value {
                let fields = try pairs(invariants.value, "'invariants'", allowed: Keys.invariants)
                guard let broken = fields["broken"] else {
                    throw fail(invariants.value, "'invariants' takes 'hold' or { broken: NAME } (or a list of names)")
                }
                if alsoExpectsFailure {
                    throw fail(invariants.key, "'invariants: { broken }' already says how the action fails: leave out 'rejected' and 'error'")
                }
                var names: [String] = []
                if case .sequence = broken.value {
                    for item in try reader.sequence(broken.value, "'broken'") { names.append(try reader.string(item, "an invariant name")) }
                } else {
                    names.append(try reader.string(broken.value, "'broken' (an invariant name)"))
                }
                guard !names.isEmpty else { throw fail(broken.value, "'broken' needs at least one invariant name; write 'invariants: hold' for none") }
                out.invariantsBroken = Located(names, at: reader.location(of: broken.value))
            } else {
                let word = try reader.string(invariants.value, "'invariants'")
                guard word == "hold" else {
                    throw fail(invariants.value, "'invariants' takes 'hold' (invariants: hold) or { broken: NAME }, not '\(word)'")
                }
                out.invariantsHold = Located(true, at: reader.location(of: invariants.value))
            }
        }

        /// The goal a `goal:` or `not_goal:` key names, if given.
        private func goalName(_ entry: (key: Node, value: Node)?, key: String) throws(RulebenchError) -> Located<String>? {
            guard let entry else { return nil }
            let name = try reader.string(entry.value, "'\(key)' (the name of a goal of the pack)")
            guard !name.isEmpty else { throw fail(entry.value, "'\(key)' must name a goal of the pack's `goals`") }
            return Located(name, at: reader.location(of: entry.value))
        }

        /// `legal:` a list of calls (exactly these), `none`, or `{ contains: [...] }` / `{ count: N }`.
        private func legalExpectation(_ node: Node) throws(RulebenchError) -> LegalExpectation {
            switch node {
            case .sequence:
                return .exactly(try calls(node))
            case .scalar:
                let word = try reader.string(node, "'legal'")
                guard word == "none" else {
                    throw fail(node, "'legal' takes a list of actions, 'none', or { contains: [...] } or { count: N }, not '\(word)'")
                }
                return .none
            default:
                let fields = try pairs(node, "'legal'", allowed: Keys.legal)
                switch (fields["contains"], fields["count"]) {
                case (let contains?, nil):
                    return .contains(try calls(contains.value))
                case (nil, let count?):
                    let number = try reader.integer(count.value, "'count' (how many legal actions)")
                    guard number >= 0 else { throw fail(count.value, "'count' cannot be negative") }
                    return .count(Int(number))
                default:
                    throw fail(node, "'legal' takes one of 'contains' (a list of actions) or 'count' (a number)")
                }
            }
        }

        /// Action calls: each a name, or `{ do: name, with: { ... } }`.
        private func calls(_ node: Node) throws(RulebenchError) -> [ActionCall] {
            var out: [ActionCall] = []
            for item in try reader.sequence(node, "a list of actions") {
                if case .scalar = item {
                    out.append(ActionCall(try reader.string(item, "an action name")))
                    continue
                }
                let fields = try pairs(item, "an action", allowed: Keys.call)
                guard let name = fields["do"] else { throw fail(item, "an action in 'legal' needs 'do: NAME' (and 'with' for its params)") }
                let params = try fields["with"].map { pair throws(RulebenchError) in try self.params(pair.value).values } ?? [:]
                out.append(ActionCall(try reader.string(name.value, "an action name"), params))
            }
            return out
        }

        /// A `with:` mapping: the params, and where each is written.
        private func params(_ node: Node) throws(RulebenchError) -> (values: [String: StateValue], locations: [String: SourceLocation]) {
            var values: [String: StateValue] = [:]
            var locations: [String: SourceLocation] = [:]
            for pair in try reader.mapping(node, "'with'") {
                guard let value = try reader.stateValue(pair.value, "param '\(pair.key)'") else {
                    throw fail(pair.value, "param '\(pair.key)' is null: leave an optional param out instead")
                }
                values[pair.key] = value
                locations[pair.key] = reader.location(of: pair.keyNode)
            }
            return (values, locations)
        }

        /// Names, each optionally followed by a list of its own subactions.
        private func subactionList(_ node: Node) throws(RulebenchError) -> [SubactionPattern] {
            var out: [SubactionPattern] = []
            for item in try reader.sequence(node, "'subactions'") {
                switch try reader.value(item) {
                case .string(let name):
                    out.append(SubactionPattern(name))
                case .sequence:
                    guard let last = out.indices.last, out[last].subactions == nil else {
                        throw fail(item, "a nested list gives the subactions of the name just before it, and there is none: write [move, [slide]]")
                    }
                    out[last].subactions = try subactionList(item)
                case let typed:
                    throw fail(item, "'subactions' lists action names and nested lists, not \(typed.kindName)")
                }
            }
            return out
        }
    }
}
