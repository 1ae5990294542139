import Foundation

/// Writes each fuzz finding where `fuzz` promises it: the shrunk program
/// into the corpus (replayed first next time) and a scenario file into
/// `--out`. A write that fails is reported on its own line and counted, so
/// the session can end with a non-zero code instead of losing it silently.
public struct FindingWriter {
    /// The corpus folder (`--corpus`, or `.rulebench/corpus/PACK`), as given.
    public let corpus: String
    /// The folder scenario files go in (`--out`), as given.
    public let out: String
    /// The pack as the command line names it.
    public let pack: String
    /// The session's seed, named in each scenario's header and file name.
    public let seed: UInt64
    /// "K/N" when the session is one shard of several: named in each file name,
    /// so the findings of all shards can be gathered into one folder.
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
    /// naming `origin` (the command that found it, and its shard).
    public mutating func write(_ report: Fuzzer.Report, origin: FindingOrigin) {
        guard handled.insert(report.shrunk).inserted else { return }
        do {
            try Reproduction.save(report.shrunk, property: report.finding.property, origin: origin,
                                  in: URL(fileURLWithPath: corpus))
        } catch {
            fail("\(error)")
        }
        do {
            let shardPart = shard.map { "-shard" + $0.replacingOccurrences(of: "/", with: "of") } ?? ""
            let name = "\(Self.packPart(pack))-seed\(seed)\(shardPart)-\(report.finding.property)-\(report.shrunk.seed).yaml"
            scenarios[report.shrunk] = try Self.writeScenario(report, pack: pack, out: out, name: name, origin: origin)
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

    /// Writes `report` as the scenario file `name` in `out` (created when
    /// missing); the scenario names its pack as `pack` says, or by a path
    /// relative to `out` when `pack` is a pack folder.
    public static func writeScenario(_ report: Fuzzer.Report, pack: String, out: String, name: String,
                              origin: FindingOrigin) throws(RulebenchError) -> URL {
        let purpose = "the reproduction (--out)"
        try OutputFolder(path: out, purpose: purpose).create()
        let folder = URL(fileURLWithPath: out)
        let packFolder = URL(fileURLWithPath: pack).standardizedFileURL
        let reference = FileManager.default.fileExists(atPath: packFolder.appendingPathComponent("pack.lua").path)
            ? ScenarioWriter.relativePath(from: folder.standardizedFileURL, to: packFolder) : pack
        let url = folder.appendingPathComponent(name)
        try OutputFile(url, purpose: purpose).write(Reproduction.scenario(for: report, packReference: reference, origin: origin))
        return url
    }
}
