import Foundation
import Rulebench

/// Decides which corpus programs are findings of the pack being fuzzed.
///
/// A corpus entry records the pack as it was given to `fuzz` (a name under
/// rules/ or a path). Replaying another pack's entry would report that
/// pack's bug as this one's, so such entries are skipped; the same pack
/// named another way (`template`, `rules/template`, an absolute path) is
/// still replayed, as this session names it.
struct CorpusPackFilter {
    /// The pack as this session's command line names it.
    let reference: String
    /// The pack's folder, symbolic links resolved.
    let folder: URL

    /// A filter for the pack given as `reference`, loaded from `directory`
    /// (`PackInfo.directory`: relative to the working folder, or absolute).
    init(reference: String, directory: String) {
        self.reference = reference
        folder = CorpusPackFilter.resolved(directory)
    }

    /// Whether `other`, a corpus program's pack, names this pack: the same
    /// reference, a bare name that is this pack's folder name, or a path to
    /// this pack's folder.
    func matches(_ other: String) -> Bool {
        if other == reference { return true }
        if !other.contains("/") && other == folder.lastPathComponent { return true }
        return CorpusPackFilter.resolved(other) == folder
    }

    /// The entries of this pack, each set to run as this session names the
    /// pack, and the others.
    func split(_ entries: [Reproduction.Corpus.Entry]) -> (mine: [FuzzProgram], others: [Reproduction.Corpus.Entry]) {
        var mine: [FuzzProgram] = []
        var others: [Reproduction.Corpus.Entry] = []
        for entry in entries {
            if matches(entry.program.pack) {
                var program = entry.program
                program.pack = reference
                mine.append(program)
            } else {
                others.append(entry)
            }
        }
        return (mine, others)
    }

    private static func resolved(_ path: String) -> URL {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
    }
}
