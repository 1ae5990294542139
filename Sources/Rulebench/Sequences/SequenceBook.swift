import Foundation

/// The sequences of a pack: the YAML files of its `sequences/` folder and
/// of the folders of the packs it extends (the pack's own file wins over a
/// base's of the same name), read afresh each time, so an edit shows at once.
/// A file that cannot be read is a problem at its line, not a load error:
/// the rules play on, and `check` reports it.
public struct SequenceBook: Sendable {
    /// The most sequence files read from one pack folder.
    public static let maximumFiles = 1_000

    /// The sequences read, by name.
    public private(set) var sequences: [String: StorySequence] = [:]
    /// The files that could not be read, each at its place.
    public private(set) var problems: [InputProblem] = []

    /// The sequences of the pack whose folders (its own first) are `folders`.
    public init(folders: [URL]) {
        for folder in folders.reversed() {
            let directory = folder.appendingPathComponent("sequences")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for file in names.filter({ $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }).sorted().prefix(SequenceBook.maximumFiles) {
                let url = directory.appendingPathComponent(file)
                let display = PackFiles.display(url)
                do {
                    try PackFiles.confine(url, to: folder)
                    let sequence = try SequenceReader.read(url, display: display)
                    sequences[sequence.name] = sequence
                    problems.removeAll { $0.file == display }
                } catch {
                    problems.append(error.inputProblem ?? InputProblem("\(error)", file: display))
                }
            }
        }
    }

    /// The names, sorted.
    public var names: [String] { sequences.keys.sorted() }

    /// The sequence called `name`, or a problem naming the ones there are.
    public func sequence(_ name: String) throws(RulebenchError) -> StorySequence {
        if let found = sequences[name] { return found }
        let file = problems.first { URL(fileURLWithPath: $0.file ?? "").deletingPathExtension().lastPathComponent == name }
        if let file { throw .badInput(file) }
        throw .badInput(InputProblem("unknown sequence '\(name)'" + Suggestion.hint(for: name, in: names)
                                     + (names.isEmpty ? " (the pack has no sequences/ folder of YAML files)"
                                                      : " (sequences: \(names.joined(separator: ", ")))")))
    }

    /// The sequences that the opening starts (`starts: opening`), sorted by name.
    public var openingNames: [String] { names.filter { sequences[$0]?.trigger == .opening } }

    /// The sequences a goal starts when a step reaches it: goal name to sequence names.
    public var goalTriggers: [String: [String]] {
        var triggers: [String: [String]] = [:]
        for name in names { if case .goal(let goal)? = sequences[name]?.trigger { triggers[goal, default: []].append(name) } }
        return triggers
    }
}
