import Foundation
import XCTest
@testable import Rulebench

/// The JSON Schema of scenario files and the parser agree: every scenario in
/// the repository passes both, and malformed files the schema can see fail both.
final class ScenarioSchemaTests: XCTestCase {
    private static let schemaURL = ScenarioFixtures.repository.appendingPathComponent("scenarios/scenario.schema.json")

    static func loadSchema() throws -> SchemaSubset {
        let text = try String(contentsOf: Self.schemaURL, encoding: .utf8)
        return try SchemaSubset(try JSONValue.parse(text))
    }

    /// Every scenario file of the repo: `scenarios/` and the passing fixtures.
    private func repositoryScenarios() -> [URL] {
        ScenarioFixtures.yamlFiles(in: ScenarioFixtures.repository.appendingPathComponent("scenarios"))
            + ScenarioFixtures.yamlFiles(in: ScenarioFixtures.passing)
    }

    func testEveryScenarioInTheRepositoryPassesTheParserAndTheSchema() throws {
        let schema = try Self.loadSchema()
        let files = repositoryScenarios()
        XCTAssertGreaterThanOrEqual(files.count, 3)
        for url in files {
            let text = try String(contentsOf: url, encoding: .utf8)
            XCTAssertNoThrow(try ScenarioParser.parse(text, file: url.path), url.path)
            let json = try ScenarioParser.json(text, file: url.path)
            XCTAssertEqual(schema.problems(json), [], url.path)
        }
    }

    /// The malformed fixtures whose mistake is in the file's structure, which
    /// the schema sees (ConsumerTests runs check-jsonschema on them too).
    static let structural = ["unknown-top-key", "unknown-step-key", "unknown-expect-key", "undo-not-a-count", "undo-float",
                             "seed-not-integer", "missing-steps", "two-verbs", "with-without-do", "hash-number",
                             "top-level-list", "invariants-word", "options-not-mapping", "rejected-with-sounds", "nested-list-first"]

    /// Structural mistakes are caught by both; mistakes that need the rule
    /// pack (unknown action, param types) or finer reading are the parser's.
    func testStructuralMistakesFailTheSchemaToo() throws {
        let schema = try Self.loadSchema()
        for name in Self.structural {
            let text = try String(contentsOf: ScenarioFixtures.malformed.appendingPathComponent(name + ".yaml"), encoding: .utf8)
            let json = try ScenarioParser.json(text, file: name)
            XCTAssertFalse(schema.problems(json).isEmpty, "the schema accepts \(name).yaml")
            XCTAssertNotNil(ScenarioFixtures.parseProblem(text), "the parser accepts \(name).yaml")
        }
    }

    func testTheValidatorItselfRejectsWhatItShould() throws {
        let schema = try Self.loadSchema()
        let base: [(String, JSONValue)] = [("scenario", .string("s")), ("rules", .string("r"))]
        func steps(_ step: JSONValue) -> JSONValue { .object(base + [("steps", .array([step]))]) }
        XCTAssertEqual(schema.problems(steps(.object([("undo", .string("turn"))]))), [])
        XCTAssertEqual(schema.problems(steps(.object([("undo", .int(2))]))), [])
        XCTAssertFalse(schema.problems(steps(.object([("undo", .int(0))]))).isEmpty)
        XCTAssertFalse(schema.problems(steps(.object([("undo", .int(1)), ("expect", .object([("rejected", .string("x"))]))]))).isEmpty)
        XCTAssertFalse(schema.problems(steps(.object([("expect", .object([]))]))).isEmpty)
        XCTAssertFalse(schema.problems(steps(.object([("do", .string("a")), ("expect", .object([("invariants", .string("holds"))]))]))).isEmpty)
        XCTAssertEqual(schema.problems(steps(.object([("do", .string("a")),
                                                      ("expect", .object([("subactions", .array([.string("a"), .array([.string("b")])]))]))]))), [])
        XCTAssertFalse(schema.problems(.object(base)).isEmpty, "steps are required")
    }

    /// With python3's `jsonschema` installed, the schema is also checked as a
    /// draft-07 schema (the draft yaml-language-server reads) and every
    /// repository scenario against it.
    func testThePythonJSONSchemaPackageAgreesWhenInstalled() throws {
        let probe = try python(["-c", "import jsonschema"])
        guard probe.status == 0 else { throw XCTSkip("python3 with jsonschema is not installed") }
        var arguments = ["-c", """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft7Validator.check_schema(schema)
            validator = jsonschema.Draft7Validator(schema)
            bad = 0
            for path in sys.argv[2:]:
                for error in validator.iter_errors(json.load(open(path))):
                    print(path, error.message); bad += 1
            sys.exit(1 if bad else 0)
            """, Self.schemaURL.path]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulebench-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, url) in repositoryScenarios().enumerated() {
            let json = try ScenarioParser.json(try String(contentsOf: url, encoding: .utf8), file: url.path)
            let out = folder.appendingPathComponent("\(index)-\(url.deletingPathExtension().lastPathComponent).json")
            try Data(json.serialized().utf8).write(to: out)
            arguments.append(out.path)
        }
        let result = try python(arguments)
        XCTAssertEqual(result.status, 0, result.output)
    }

    private func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { throw XCTSkip("python3 cannot be started: \(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// A validator for the subset of JSON Schema (draft-07) that
/// `scenarios/scenario.schema.json` uses. An unknown keyword is an error, so
/// the schema cannot grow past what this checks without the test noticing;
/// so is a keyword beside `$ref`, which draft-07 validators (yaml-language-server
/// among them) ignore: such a keyword would check nothing in an editor.
struct SchemaSubset {
    struct UnsupportedKeyword: Error, CustomStringConvertible {
        let description: String
    }

    private static let annotations: Set<String> = ["$schema", "$id", "$comment", "title", "description", "$defs"]
    private static let keywords: Set<String> = ["type", "properties", "required", "additionalProperties", "items", "minItems",
                                                "minimum", "minLength", "minProperties", "pattern", "const", "enum", "oneOf",
                                                "anyOf", "allOf", "not", "$ref", "propertyNames", "additionalItems"]
    let root: JSONValue

    init(_ root: JSONValue) throws {
        self.root = root
        try SchemaSubset.checkKeywords(root, at: "#")
    }

    private static func checkKeywords(_ schema: JSONValue, at path: String) throws {
        guard case .object(let members) = schema else {
            if case .bool = schema { return }
            throw UnsupportedKeyword(description: "\(path): a schema must be an object or a boolean")
        }
        if members.contains(where: { $0.0 == "$ref" }), members.count > 1 {
            throw UnsupportedKeyword(description: "\(path): keywords beside $ref are ignored by draft-07 validators: put the $ref in an allOf")
        }
        for (key, value) in members {
            guard annotations.contains(key) || keywords.contains(key) else {
                throw UnsupportedKeyword(description: "\(path): keyword '\(key)' is not supported by the test's validator")
            }
            switch key {
            case "properties", "$defs":
                if case .object(let children) = value {
                    for (name, child) in children { try checkKeywords(child, at: "\(path)/\(key)/\(name)") }
                }
            case "items" where { if case .array = value { return true } else { return false } }():
                if case .array(let children) = value {
                    for (index, child) in children.enumerated() { try checkKeywords(child, at: "\(path)/items/\(index)") }
                }
            case "items", "additionalProperties", "not", "propertyNames", "additionalItems":
                try checkKeywords(value, at: "\(path)/\(key)")
            case "oneOf", "anyOf", "allOf":
                if case .array(let children) = value {
                    for (index, child) in children.enumerated() { try checkKeywords(child, at: "\(path)/\(key)/\(index)") }
                }
            default:
                break
            }
        }
    }

    /// Every problem of `instance`, as "path: what"; empty when it is valid.
    func problems(_ instance: JSONValue) -> [String] {
        var out: [String] = []
        validate(instance, against: root, at: "$", into: &out)
        return out
    }

    private func resolve(_ reference: String) -> JSONValue {
        var node = root
        for part in reference.dropFirst(2).split(separator: "/") { node = node[String(part)] ?? .bool(false) }
        return node
    }

    private func validate(_ instance: JSONValue, against schema: JSONValue, at path: String, into out: inout [String]) {
        if case .bool(let allowed) = schema {
            if !allowed { out.append("\(path): not allowed here") }
            return
        }
        guard case .object(let members) = schema else { return }
        for (key, value) in members {
            _ = objectKeyword(key, value, of: members, instance, at: path, into: &out)
                || arrayKeyword(key, value, of: members, instance, at: path, into: &out)
                || valueKeyword(key, value, of: members, instance, at: path, into: &out)
                || combinedKeyword(key, value, of: members, instance, at: path, into: &out)
        }
    }

    /// The keywords about an object's members; false when `key` is none of them.
    private func objectKeyword(_ key: String, _ value: JSONValue, of members: [(String, JSONValue)], _ instance: JSONValue,
                               at path: String, into out: inout [String]) -> Bool {
        switch key {
        case "properties":
            guard case .object(let fields) = instance, case .object(let schemas) = value else { return true }
            for (name, field) in fields {
                if let sub = schemas.first(where: { $0.0 == name })?.1 { validate(field, against: sub, at: "\(path).\(name)", into: &out) }
            }
        case "additionalProperties":
            guard case .object(let fields) = instance else { return true }
            let known = members.first { $0.0 == "properties" }.map { p -> [String] in
                if case .object(let props) = p.1 { return props.map(\.0) } else { return [] }
            } ?? []
            for (name, field) in fields where !known.contains(name) {
                validate(field, against: value, at: "\(path).\(name)", into: &out)
            }
        case "propertyNames":
            guard case .object(let fields) = instance else { return true }
            for (name, _) in fields { validate(.string(name), against: value, at: "\(path) key '\(name)'", into: &out) }
        case "required":
            guard case .object(let fields) = instance, case .array(let names) = value else { return true }
            for case .string(let name) in names where !fields.contains(where: { $0.0 == name }) {
                out.append("\(path): missing \(name)")
            }
        case "minProperties":
            if case .object(let fields) = instance, case .int(let minimum) = value, fields.count < minimum {
                out.append("\(path): fewer than \(minimum) properties")
            }
        default:
            return false
        }
        return true
    }

    /// The keywords about an array's items; false when `key` is none of them.
    private func arrayKeyword(_ key: String, _ value: JSONValue, of members: [(String, JSONValue)], _ instance: JSONValue,
                              at path: String, into out: inout [String]) -> Bool {
        switch key {
        case "items":
            guard case .array(let items) = instance else { return true }
            if case .array(let tuple) = value {
                // Draft-07's tuple form: one schema per leading item, `additionalItems` for the rest.
                let rest = members.first { $0.0 == "additionalItems" }?.1 ?? .bool(true)
                for (index, item) in items.enumerated() {
                    validate(item, against: index < tuple.count ? tuple[index] : rest, at: "\(path)[\(index)]", into: &out)
                }
            } else {
                for (index, item) in items.enumerated() { validate(item, against: value, at: "\(path)[\(index)]", into: &out) }
            }
        case "minItems":
            if case .array(let items) = instance, case .int(let minimum) = value, items.count < minimum {
                out.append("\(path): fewer than \(minimum) items")
            }
        default:
            return false
        }
        return true
    }

    /// The keywords about one value (its type, bounds, pattern, allowed values); false when `key` is none of them.
    private func valueKeyword(_ key: String, _ value: JSONValue, of members: [(String, JSONValue)], _ instance: JSONValue,
                              at path: String, into out: inout [String]) -> Bool {
        switch key {
        case "type":
            let types: [String]
            switch value {
            case .string(let one): types = [one]
            case .array(let many): types = many.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
            default: types = []
            }
            if !types.contains(where: { SchemaSubset.has(instance, type: $0) }) {
                out.append("\(path): expected \(types.joined(separator: " or "))")
            }
        case "minLength":
            if case .string(let text) = instance, case .int(let minimum) = value, text.count < minimum {
                out.append("\(path): shorter than \(minimum)")
            }
        case "minimum":
            let number: Double?
            switch instance {
            case .int(let i): number = Double(i)
            case .double(let d): number = d
            default: number = nil
            }
            let bound: Double? = { if case .int(let i) = value { return Double(i) }; if case .double(let d) = value { return d }; return nil }()
            if let number, let bound, number < bound { out.append("\(path): below \(bound)") }
        case "pattern":
            if case .string(let text) = instance, case .string(let pattern) = value,
               text.range(of: pattern, options: .regularExpression) == nil {
                out.append("\(path): does not match \(pattern)")
            }
        case "const":
            if instance != value { out.append("\(path): must be \(value.serialized(pretty: false))") }
        case "enum":
            if case .array(let options) = value, !options.contains(instance) { out.append("\(path): not one of the allowed values") }
        default:
            return false
        }
        return true
    }

    /// `$ref` and the keywords that combine schemas; false when `key` is none of them.
    private func combinedKeyword(_ key: String, _ value: JSONValue, of members: [(String, JSONValue)], _ instance: JSONValue,
                                 at path: String, into out: inout [String]) -> Bool {
        switch key {
        case "$ref":
            if case .string(let reference) = value { validate(instance, against: resolve(reference), at: path, into: &out) }
        case "oneOf", "anyOf":
            guard case .array(let options) = value else { return true }
            let passing = options.filter { option in
                var scratch: [String] = []
                validate(instance, against: option, at: path, into: &scratch)
                return scratch.isEmpty
            }.count
            if key == "oneOf" ? passing != 1 : passing == 0 {
                out.append("\(path): matches \(passing) of the \(key) choices")
            }
        case "allOf":
            guard case .array(let parts) = value else { return true }
            for part in parts { validate(instance, against: part, at: path, into: &out) }
        case "not":
            var scratch: [String] = []
            validate(instance, against: value, at: path, into: &scratch)
            if scratch.isEmpty { out.append("\(path): matches a schema it must not") }
        default:
            return false
        }
        return true
    }

    private static func has(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object),
             ("integer", .int), ("number", .int), ("number", .double): return true
        case ("integer", .double(let d)): return d.rounded() == d
        default: return false
        }
    }
}
