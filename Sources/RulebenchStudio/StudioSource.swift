import Foundation
import Rulebench

/// What `rulebench studio` was asked to open, told apart by its file:
/// a saved history (`.json`), a fuzz finding (a `.yaml` whose header says
/// `# Finding:`, as `fuzz --out` writes it), a scenario (any other `.yaml`),
/// or else a pack (a name under rules/ or a folder).
enum StudioSource: Equatable {
    case pack(String)
    case scenario(URL)
    case history(URL)
    case finding(URL)

    init(argument: String) {
        let url = URL(fileURLWithPath: argument)
        switch url.pathExtension.lowercased() {
        case "json":
            self = .history(url)
        case "yaml", "yml":
            let head = (try? String(contentsOf: url, encoding: .utf8))?.prefix(4_096) ?? ""
            self = head.contains("\n# Finding: ") || head.hasPrefix("# Finding: ") ? .finding(url) : .scenario(url)
        default:
            self = .pack(argument)
        }
    }

    /// What the page calls it: "pack", "scenario", "history" or "finding".
    var kind: String {
        switch self {
        case .pack: return "pack"
        case .scenario: return "scenario"
        case .history: return "history"
        case .finding: return "finding"
        }
    }

    /// The argument as the user gave it (the page's title).
    var name: String {
        switch self {
        case .pack(let reference): return reference
        case .scenario(let url), .history(let url), .finding(let url): return StudioSource.display(url)
        }
    }

    /// A path relative to the working directory when inside it, as the other commands show files.
    static func display(_ url: URL) -> String {
        let path = url.standardizedFileURL.path
        let folder = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(folder) ? String(path.dropFirst(folder.count)) : path
    }
}
