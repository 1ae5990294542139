import Foundation
import Rulebench

/// Writes each fuzz finding where `fuzz` promises it: the shrunk program
/// into the corpus (replayed first next time) and a scenario file into
/// `--out`. A write that fails is reported on its own line and counted, so
/// the session can end with a non-zero code instead of losing it silently.
struct FindingWriter {
    /// The corpus folder (`--corpus`, or `.rulebench/corpus/PACK`), as given.
    let corpus: String
    /// The folder scenario files go in (`--out`), as given.
    let out: String
    /// The pack as the command line names it.
    let pack: String
    /// The session's seed, named in each scenario's header and file name.
    let seed: UInt64

    /// The scenario file written for each report, by its shrunk program.
    private(set) var scenarios: [FuzzProgram: URL] = [:]
    /// Writes that failed (each was reported).
    private(set) var failures = 0
    /// Shrunk programs already written: two findings that shrink to the
    /// same program are written once.
    private var handled: Set<FuzzProgram> = []

    /// A writer for one session.
    init(corpus: String, out: String, pack: String, seed: UInt64) {
        self.corpus = corpus
        self.out = out
        self.pack = pack
        self.seed = seed
    }

    /// Checks both folders before the session starts, so a bad `--out` or
    /// `--corpus` (a file, a folder that cannot be written) stops it before
    /// any fuzzing rather than dropping every finding at the end.
    func checkFolders() throws(RulebenchError) {
        try OutputFolder(path: out, purpose: "reproductions (--out)").checkUsable()
        try OutputFolder(path: corpus, purpose: "findings into the corpus (--corpus)").checkUsable()
    }

    /// Keeps a finding in the corpus and writes its scenario file.
    mutating func write(_ report: Fuzzer.Report) {
        guard handled.insert(report.shrunk).inserted else { return }
        do {
            try Reproduction.save(report.shrunk, property: report.finding.property, in: URL(fileURLWithPath: corpus))
        } catch {
            fail("\(error)")
        }
        do {
            scenarios[report.shrunk] = try writeScenario(report)
        } catch {
            fail("\(error)")
        }
    }

    private mutating func fail(_ message: String) {
        failures += 1
        complain(message)
    }

    private func writeScenario(_ report: Fuzzer.Report) throws(RulebenchError) -> URL {
        let purpose = "the reproduction (--out)"
        try OutputFolder(path: out, purpose: purpose).create()
        let folder = URL(fileURLWithPath: out)
        let packFolder = URL(fileURLWithPath: pack).standardizedFileURL
        let reference = FileManager.default.fileExists(atPath: packFolder.appendingPathComponent("pack.lua").path)
            ? ScenarioWriter.relativePath(from: folder.standardizedFileURL, to: packFolder) : pack
        // The pack argument may be any path; only its last part, made safe, names the file.
        let packPart = PackInfo.fileName(for: URL(fileURLWithPath: pack).lastPathComponent)
        let url = folder.appendingPathComponent("\(packPart)-seed\(seed)-\(report.finding.property)-\(report.shrunk.seed).yaml")
        try OutputFile(url, purpose: purpose).write(Reproduction.scenario(for: report, packReference: reference, fuzzSeed: seed))
        return url
    }
}
