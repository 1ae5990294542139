import Foundation

/// A planted bug of `Benchmarks/mutants.json`: in `file` of a copy of
/// `pack`, `original` is replaced by `mutated`, then each pair of
/// `moreEdits` in turn.
///
/// The planted-bug tests (`Tests/RulebenchTests/Fuzz/Session/PlantedBugTests.swift`) read
/// the same file, so the benchmark times exactly the bugs the tests plant;
/// the fields only the tests use (the hand-found minimal line's steps, the
/// test's fuzz budget) are not decoded here.
struct Mutant: Decodable {
    /// Marks a bug reachable only through one specific line of play.
    struct RarePath: Decodable {
        /// The hand-found shortest reproduction: only its length is used here.
        struct Line: Decodable { let steps: [String] }
        /// Which line, and why random play seldom takes it.
        let why: String
        /// The shortest reproduction, found by hand (`minimalWhy` argues it).
        let minimal: Line
    }

    let name: String
    /// A pack name under rules/, or a pack folder relative to the repository's root.
    let pack: String
    let file: String
    let original: String
    let mutated: String
    /// The `FuzzFinding.Property` case the tests expect, by name.
    let expected: String
    /// The most steps the shrunk reproduction may have (the minimal length + 1 for rare paths).
    let maxShrunkSteps: Int
    var moreEdits: [[String]]?
    var rare: RarePath?
    /// The planted-bug test's fuzz session, when it names one: the session
    /// `--shrink` finds the mutant's first line with.
    var testBudget: TestBudget?

    /// A test's fuzz session (the fields `--shrink` uses; the tests' own
    /// defaults where one is left out).
    struct TestBudget: Decodable {
        var seed: UInt64?
        var runs: Int?
        var depth: Int?
        var search: String?
    }

    /// The name as the time-to-detect table shows it and `--detect` matches
    /// it: "(rare path)" after the rare ones, so that those words pick them.
    var label: String { name + (rare != nil ? " (rare path)" : "") }

    /// The name up to its first colon: "chess en passant" for the rare paths' summary.
    var shortName: String {
        name.split(separator: ":", maxSplits: 1).first.map(String.init) ?? name
    }

    /// The list, read from `Benchmarks/mutants.json` under `root`.
    static func all(root: URL) throws -> [Mutant] {
        struct List: Decodable { let mutants: [Mutant] }
        let url = root.appendingPathComponent("Benchmarks/mutants.json")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw BenchError("no \(url.path): run rulebench-bench from the repository's root")
        }
        return try JSONDecoder().decode(List.self, from: data).mutants
    }

    /// Copies the pack (from `root`) into `folder` as `name`, applies the
    /// mutation, and returns the copy's path. Throws when an edit no longer
    /// finds its text: the list and the packs have drifted apart.
    func mutatedPack(root: URL, into folder: URL, as name: String) throws -> URL {
        let source = pack.contains("/") ? root.appendingPathComponent(pack)
            : root.appendingPathComponent("rules").appendingPathComponent(pack)
        let copy = folder.appendingPathComponent(name)
        try FileManager.default.copyItem(at: source, to: copy)
        let url = copy.appendingPathComponent(file)
        var text = try String(contentsOf: url, encoding: .utf8)
        for edit in [[original, mutated]] + (moreEdits ?? []) {
            guard edit.count == 2, text.contains(edit[0]) else {
                throw BenchError("\(self.name): the text to replace is gone from \(pack)/\(file)")
            }
            text = text.replacingOccurrences(of: edit[0], with: edit[1])
        }
        try text.write(to: url, atomically: true, encoding: .utf8)
        return copy
    }
}
