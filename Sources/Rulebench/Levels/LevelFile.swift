import Foundation
import Yams

/// A level file (docs/levels.md, `scenarios/levels.schema.json`): the pack,
/// the goal every level's solution reaches, the params its generator was
/// given, and the levels, each with its seed, options, grade and solution.
///
/// Invariant: `text` writes every value through `ScenarioYAML.value` (flow
/// YAML with JSON-compatible scalars), so `parse` reads back exactly the
/// levels written, and two runs that make the same levels write the same
/// bytes (no time, no path of this machine, keys in sorted order).
public struct LevelFile: Sendable, Equatable {
    /// The keys of each mapping of the format.
    enum Keys {
        static let top = ["rules", "goal", "seed", "params", "levels"]
        static let level = ["name", "seed", "options", "grade", "solution"]
        static let grade = ["moves", "states", "branching"]
        static let solution = ["found", "lines", "calls"]
        static let lines = ["counted", "limit_reached"]
        static let call = ["do", "with"]
    }

    /// The pack, by name (a folder under rules/) or by a path relative to the file.
    public var packReference: String
    /// The goal each stored solution reaches.
    public var goal: String
    /// The seed every level's game is set up with (0 unless the file says):
    /// the same for every level, so that two levels with the same setup have
    /// the same state hash.
    public var gameSeed: Int64
    /// The params the generator was given (`--param k=v`).
    public var params: [String: StateValue]
    /// The levels, in order.
    public var levels: [Level]

    public init(packReference: String, goal: String, gameSeed: Int64 = 0, params: [String: StateValue] = [:], levels: [Level] = []) {
        self.packReference = packReference
        self.goal = goal
        self.gameSeed = gameSeed
        self.params = params
        self.levels = levels
    }

    /// Whether `text` is a level file rather than a scenario: a top-level
    /// `levels:` key (a scenario has none; its parser refuses the key).
    public static func isLevelFile(_ text: String) -> Bool {
        text.split(separator: "\n", omittingEmptySubsequences: true).contains { $0.hasPrefix("levels:") }
    }

    // MARK: Writing

    /// The file's text. `header` lines become comments at the top.
    public func text(header: [String] = []) -> String {
        var lines = header.map { "# " + YAMLText.comment($0) }
        lines.append("rules: \(ScenarioYAML.value(.string(packReference)))")
        lines.append("goal: \(ScenarioYAML.value(.string(goal)))")
        lines.append("seed: \(gameSeed)")
        if !params.isEmpty { lines.append("params: \(ScenarioYAML.value(ScenarioYAML.table(params)))") }
        lines.append(levels.isEmpty ? "levels: []" : "levels:")
        for level in levels { lines += Self.lines(of: level) }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func lines(of level: Level) -> [String] {
        var lines = ["  - name: \(ScenarioYAML.value(.string(level.name)))",
                     "    seed: \(level.seed)",
                     "    options: \(ScenarioYAML.value(ScenarioYAML.table(level.options)))"]
        if let grade = level.grade {
            lines.append("    grade: { moves: \(grade.moves), states: \(grade.states), branching: "
                         + "\(ScenarioYAML.value(.double(grade.branching))) }")
        }
        if let solution = level.solution {
            lines.append("    solution:")
            lines.append("      found: \(solution.found.rawValue)")
            if let counted = solution.linesOfThisLength {
                lines.append("      lines: { counted: \(counted), limit_reached: \(solution.countStoppedAtLimit) }")
            }
            lines.append(solution.calls.isEmpty ? "      calls: []" : "      calls:")
            for call in solution.calls {
                lines.append("        - { do: \(ScenarioYAML.value(.string(call.name)))"
                             + (call.params.isEmpty ? "" : ", with: \(ScenarioYAML.value(ScenarioYAML.table(call.params)))") + " }")
            }
        }
        return lines
    }

    // MARK: Reading

    /// Reads a level file; `displayPath` is how messages name it.
    public static func parse(contentsOf url: URL, displayPath: String? = nil) throws(RulebenchError) -> LevelFile {
        let file = displayPath ?? url.path
        return try parse(InputFile.text(url, display: file), file: file)
    }

    /// Parses level-file text; every problem names its file:line:col.
    public static func parse(_ text: String, file: String) throws(RulebenchError) -> LevelFile {
        let reader = YAMLReader(file: file)
        guard let root = try reader.compose(text) else {
            throw .badInput(InputProblem("empty level file: it needs 'rules', 'goal' and 'levels'", file: file, line: 1, column: 1))
        }
        let top = try pairs(reader, root, "a level file", Keys.top)
        let rules = try reader.string(try required(reader, top, "rules", root, "name the pack, e.g. `rules: pipes`"), "'rules'")
        let goal = try reader.string(try required(reader, top, "goal", root, "name the goal the solutions reach"), "'goal'")
        let seed = try top["seed"].map { pair throws(RulebenchError) in try reader.integer(pair.value, "'seed'") } ?? 0
        let params = try top["params"].map { pair throws(RulebenchError) in try table(reader, pair.value, "'params'") } ?? [:]
        var levels: [Level] = []
        var names: Set<String> = []
        for node in try reader.sequence(try required(reader, top, "levels", root, "list the levels"), "'levels'") {
            let level = try self.level(reader, node)
            guard names.insert(level.name).inserted else { throw reader.fail(node, "two levels are named '\(level.name)'") }
            levels.append(level)
        }
        return LevelFile(packReference: rules, goal: goal, gameSeed: seed, params: params, levels: levels)
    }

    private static func level(_ reader: YAMLReader, _ node: Node) throws(RulebenchError) -> Level {
        let keys = try pairs(reader, node, "a level", Keys.level)
        let nameNode = try required(reader, keys, "name", node, "name the level, e.g. `name: \"1\"`")
        var level = Level(name: try reader.string(nameNode, "'name'"),
                          seed: try reader.integer(try required(reader, keys, "seed", node, "give the generator's seed"), "'seed'"),
                          options: try keys["options"].map { pair throws(RulebenchError) in try table(reader, pair.value, "'options'") } ?? [:],
                          line: reader.location(of: nameNode).line)
        if let grade = keys["grade"] {
            let fields = try pairs(reader, grade.value, "'grade'", Keys.grade)
            level.grade = LevelGrade(moves: Int(try reader.integer(try required(reader, fields, "moves", grade.value, "the solution's moves"), "'moves'")),
                                     states: Int(try reader.integer(try required(reader, fields, "states", grade.value, "the states searched"), "'states'")),
                                     branching: try reader.number(try required(reader, fields, "branching", grade.value, "moves per state"), "'branching'"))
        }
        if let solution = keys["solution"] { (level.solution, level.callLines) = try self.solution(reader, solution.value) }
        return level
    }

    /// The solution, and the line of each of its calls.
    private static func solution(_ reader: YAMLReader, _ node: Node) throws(RulebenchError) -> (LevelSolution, [Int]) {
        let keys = try pairs(reader, node, "'solution'", Keys.solution)
        let foundNode = try required(reader, keys, "found", node, "say how it was found: shortest or any")
        guard let found = LevelSolution.Found(rawValue: try reader.string(foundNode, "'found'")) else {
            throw reader.fail(foundNode, "'found' is shortest or any")
        }
        var calls: [ActionCall] = [], lines: [Int] = []
        for item in try reader.sequence(try required(reader, keys, "calls", node, "list the moves, e.g. `calls: [{ do: turn, with: { r: 1, c: 2 } }]`"), "'calls'") {
            let fields = try pairs(reader, item, "a call", Keys.call)
            let name = try reader.string(try required(reader, fields, "do", item, "name the action"), "'do'")
            calls.append(ActionCall(name, try fields["with"].map { pair throws(RulebenchError) in try table(reader, pair.value, "'with'") } ?? [:]))
            lines.append(reader.location(of: item).line)
        }
        var result = LevelSolution(found: found, calls: calls)
        if let lines = keys["lines"] {
            let fields = try pairs(reader, lines.value, "'lines'", Keys.lines)
            result.linesOfThisLength = Int(try reader.integer(try required(reader, fields, "counted", lines.value, "the lines counted"), "'counted'"))
            if let limit = fields["limit_reached"], case .bool(let reached) = try reader.value(limit.value) { result.countStoppedAtLimit = reached }
        }
        return (result, lines)
    }

    private static func table(_ reader: YAMLReader, _ node: Node, _ what: String) throws(RulebenchError) -> [String: StateValue] {
        var out: [String: StateValue] = [:]
        for pair in try reader.mapping(node, what) {
            guard let value = try reader.stateValue(pair.value, "'\(pair.key)' in \(what)") else {
                throw reader.fail(pair.value, "'\(pair.key)' in \(what) is null: leave it out instead")
            }
            out[pair.key] = value
        }
        return out
    }

    private static func pairs(_ reader: YAMLReader, _ node: Node, _ what: String, _ allowed: [String]) throws(RulebenchError)
        -> [String: (key: Node, value: Node)] {
        var out: [String: (key: Node, value: Node)] = [:]
        for pair in try reader.mapping(node, what) {
            guard allowed.contains(pair.key) else {
                throw reader.fail(pair.keyNode, "unknown key '\(pair.key)' in \(what)" + Suggestion.hint(for: pair.key, in: allowed)
                                  + " (\(what) takes: \(allowed.joined(separator: ", ")))")
            }
            out[pair.key] = (pair.keyNode, pair.value)
        }
        return out
    }

    private static func required(_ reader: YAMLReader, _ pairs: [String: (key: Node, value: Node)], _ key: String, _ node: Node,
                                 _ hint: String) throws(RulebenchError) -> Node {
        guard let pair = pairs[key] else { throw reader.fail(node, "missing '\(key)': \(hint)") }
        return pair.value
    }
}
