import Foundation
import Rulebench

/// What `rulebench studio` was asked to open, told apart by its file:
/// a saved history (`.json`), a fuzz finding (a `.yaml` whose header says
/// `# Finding:`, as `fuzz --out` writes it), a level file (a `.yaml` with a
/// top-level `levels:`, as `generate` writes it), a scenario (any other
/// `.yaml`), or else a pack (a name under rules/ or a folder).
enum StudioSource: Equatable {
    case pack(String)
    case scenario(URL)
    case history(URL)
    case finding(URL)
    case levels(URL)

    init(argument: String) {
        let url = URL(fileURLWithPath: argument)
        switch url.pathExtension.lowercased() {
        case "json":
            self = .history(url)
        case "yaml", "yml":
            let head = StudioSource.head(of: url)
            if head.contains("\n# Finding: ") || head.hasPrefix("# Finding: ") {
                self = .finding(url)
            } else {
                // Read whole (bounded as every input file is) only to tell a level file: its `levels:` may follow long params.
                let text = (try? InputFile.text(url, display: StudioSource.display(url))) ?? head
                self = LevelFile.isLevelFile(text) ? .levels(url) : .scenario(url)
            }
        default:
            self = .pack(argument)
        }
    }

    /// The first 4 KiB of a regular file as text (empty for anything else): enough to tell a finding.
    static func head(of url: URL) -> String {
        var status = stat()
        guard stat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              let handle = FileHandle(forReadingAtPath: url.path) else { return "" }
        defer { try? handle.close() }
        return String(decoding: (try? handle.read(upToCount: 4_096)) ?? Data(), as: UTF8.self)
    }

    /// What the page calls it: "pack", "scenario", "history", "finding" or "levels".
    var kind: String {
        switch self {
        case .pack: return "pack"
        case .scenario: return "scenario"
        case .history: return "history"
        case .finding: return "finding"
        case .levels: return "levels"
        }
    }

    /// The argument as the user gave it (the page's title).
    var name: String {
        switch self {
        case .pack(let reference): return reference
        case .scenario(let url), .history(let url), .finding(let url), .levels(let url): return StudioSource.display(url)
        }
    }

    /// A path relative to the working directory when inside it, as the other commands show files.
    static func display(_ url: URL) -> String {
        let path = url.standardizedFileURL.path
        let folder = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(folder) ? String(path.dropFirst(folder.count)) : path
    }
}
