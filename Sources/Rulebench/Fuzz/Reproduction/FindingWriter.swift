import Foundation

/// Writes each fuzz finding where `fuzz` promises it: the shrunk program
/// into the corpus (replayed first next time) and a scenario file into
/// `--out`. A write that fails is reported on its own line and counted, so
/// the session can end with a non-zero code instead of losing it silently.
///
/// The invariant: a scenario file is only ever created, never replaced
/// (`writeScenario`), and is named after the bug (`name(of:pack:)`), so
/// sessions and shards sharing `--out` each keep every file they write.
public struct FindingWriter {
    /// The corpus folder (`--corpus`, or `.rulebench/corpus/PACK`), as given.
    public let corpus: String
    /// The folder scenario files go in (`--out`), as given.
    public let out: String
    /// The pack as the command line names it.
    public let pack: String
    /// The session's seed (the scenario's header names it, through the origin).
    public let seed: UInt64
    /// "K/N" when the session is one shard of several (the header names it).
    public let shard: String?

    /// The scenario file written for each report, by its shrunk program.
    public private(set) var scenarios: [FuzzProgram: URL] = [:]
    /// Writes that failed (each was reported).
    public private(set) var failures = 0
    /// Shrunk programs already written: two findings that shrink to the
    /// same program are written once.
    private var handled: Set<FuzzProgram> = []
    /// Says a write failed (the command prints it on its own line).
    private let complain: (String) -> Void

    /// A writer for one session; `complain` hears of each write that fails.
    public init(corpus: String, out: String, pack: String, seed: UInt64, shard: String? = nil,
                complain: @escaping (String) -> Void) {
        self.corpus = corpus
        self.out = out
        self.pack = pack
        self.seed = seed
        self.shard = shard
        self.complain = complain
    }

    /// Checks both folders before the session starts, so a bad `--out` or
    /// `--corpus` (a file, a folder that cannot be written) stops it before
    /// any fuzzing rather than dropping every finding at the end.
    public func checkFolders() throws(RulebenchError) {
        try OutputFolder(path: out, purpose: "reproductions (--out)").checkUsable()
        try OutputFolder(path: corpus, purpose: "findings into the corpus (--corpus)").checkUsable()
    }

    /// Keeps a finding in the corpus and writes its scenario file, both
    /// naming `origin` (the command that found it, and its shard). A
    /// finding that no fresh start reproduces (`FreshStart.passes`) gets
    /// no scenario file: `rulebench run` would pass it.
    public mutating func write(_ report: Fuzzer.Report, origin: FindingOrigin) {
        guard handled.insert(report.shrunk).inserted else { return }
        do {
            try Reproduction.save(report.shrunk, property: report.finding.property, origin: origin,
                                  in: URL(fileURLWithPath: corpus))
        } catch {
            fail("\(error)")
        }
        if case .passes? = report.freshStart { return }
        do {
            scenarios[report.shrunk] = try Self.writeScenario(report, pack: pack, out: out, name: Self.name(of: report, pack: pack),
                                                              origin: origin)
        } catch {
            fail("\(error)")
        }
    }

    private mutating func fail(_ message: String) {
        failures += 1
        complain(message)
    }

    /// The pack argument's last part, made safe for a file name (the argument may be any path).
    public static func packPart(_ pack: String) -> String {
        PackInfo.fileName(for: URL(fileURLWithPath: pack).lastPathComponent)
    }

    /// A reproduction's file name: the bug's identity, the pack, the failed
    /// property, the blamed action path and the blamed file:line (its last
    /// part), so distinct bugs never share a name, whatever seed or shard
    /// found them: `desert-undoRestores-jetpack_move-move.lua-31.yaml`.
    public static func name(of report: Fuzzer.Report, pack: String) -> String {
        let key = report.key
        var parts = [packPart(pack), key.property.word]
        if let action = key.action { parts.append(action) }
        if let location = key.location {
            parts.append(URL(fileURLWithPath: location).lastPathComponent.replacingOccurrences(of: ":", with: "-"))
        }
        let safe = parts.map { part in
            String(part.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
                    ? Character(scalar) : "_"
            }).split(separator: "_").joined(separator: "_")
        }
        return String(safe.filter { !$0.isEmpty }.joined(separator: "-").prefix(150)) + ".yaml"
    }

    /// The most files of one name (`NAME.yaml`, `NAME-2.yaml`, ...) in one folder.
    static let maximumSuffix = 1_000

    /// Writes `report` as a new scenario file in `out` (created when
    /// missing), named `name`, or `name` with a number (`-2`, `-3`, ...)
    /// when that file exists: a file is created, never replaced, so
    /// fuzzers sharing `out` keep every finding. The scenario names its
    /// pack as `packReference(pack:out:)` says.
    public static func writeScenario(_ report: Fuzzer.Report, pack: String, out: String, name: String,
                                     origin: FindingOrigin) throws(RulebenchError) -> URL {
        let purpose = "the reproduction (--out)"
        try OutputFolder(path: out, purpose: purpose).create()
        let folder = URL(fileURLWithPath: out)
        let text = Reproduction.scenario(for: report, packReference: packReference(pack: pack, out: folder), origin: origin)
        let stem = name.hasSuffix(".yaml") ? String(name.dropLast(5)) : name
        for number in 1...maximumSuffix {
            let url = folder.appendingPathComponent(number == 1 ? "\(stem).yaml" : "\(stem)-\(number).yaml")
            if try OutputFile(url, purpose: purpose).create(text) { return url }
        }
        throw .badInput(InputProblem("cannot write \(purpose): \(maximumSuffix) files named \(stem)*.yaml are there already; "
                                     + "move them away", file: out))
    }

    /// How a reproduction in `out` names its pack, so that it still finds
    /// it when moved within the project or downloaded into a checkout:
    /// - a pack named by name stays so (`desert`);
    /// - a pack folder in a `rules/` folder: its name, when that name finds
    ///   it from `out` (the runner looks in `rules/` beside every parent);
    /// - a pack folder elsewhere in a project (a folder with `rules/`): its
    ///   path from the project's root (`Benchmarks/packs/chess`), which the
    ///   runner also looks for from every parent;
    /// - otherwise the path from `out`, or the absolute path when the two
    ///   share no folder but `/` (no climb to the root and down again).
    public static func packReference(pack: String, out: URL) -> String {
        let fm = FileManager.default
        let folder = URL(fileURLWithPath: pack).standardizedFileURL
        guard fm.fileExists(atPath: folder.appendingPathComponent("pack.lua").path) else { return pack }
        func finds(_ reference: String) -> Bool {
            (try? PackFiles.locate(reference, rulesDirectory: nil, relativeTo: out.standardizedFileURL))?.path == folder.path
        }
        if folder.deletingLastPathComponent().lastPathComponent == "rules", finds(folder.lastPathComponent) {
            return folder.lastPathComponent
        }
        var root = folder.deletingLastPathComponent()
        while root.path != "/" {
            var isFolder: ObjCBool = false
            if fm.fileExists(atPath: root.appendingPathComponent("rules").path, isDirectory: &isFolder), isFolder.boolValue {
                let fromRoot = ScenarioWriter.relativePath(from: root, to: folder)
                if finds(fromRoot) { return fromRoot }
                break
            }
            root = root.deletingLastPathComponent()
        }
        let relative = ScenarioWriter.relativePath(from: out.standardizedFileURL, to: folder)
        let shared = zip(out.standardizedFileURL.pathComponents, folder.pathComponents).prefix { $0 == $1 }.count
        return shared <= 1 ? folder.path : relative
    }
}
