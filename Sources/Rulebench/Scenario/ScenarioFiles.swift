import Foundation

/// Finds the scenario files named on a command line.
public enum ScenarioFiles {
    /// A scenario file to run.
    public struct Item: Sendable, Equatable {
        /// Where it is.
        public var url: URL
        /// How messages name it: the path as given, joined with the path found below a folder.
        public var display: String
    }

    /// The extensions of scenario files.
    public static let extensions: Set<String> = ["yaml", "yml"]

    /// Expands files and folders into scenario files.
    ///
    /// A folder gives every `*.yaml` / `*.yml` below it, recursively, sorted by
    /// path, skipping hidden entries and the schema (`scenario.schema.*`). A file
    /// is taken as given. A path that does not exist, or a folder without
    /// scenario files, is a problem; the other paths are still collected.
    public static func collect(_ paths: [String]) -> (items: [Item], problems: [InputProblem]) {
        var items: [Item] = []
        var problems: [InputProblem] = []
        var seen: Set<String> = []
        let fm = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                problems.append(InputProblem("no such file or folder (give scenario files or folders; the default is scenarios/)", file: path))
                continue
            }
            let found = isDirectory.boolValue ? scan(folder: path) : [Item(url: URL(fileURLWithPath: path), display: path)]
            if isDirectory.boolValue && found.isEmpty {
                problems.append(InputProblem("no scenario files (*.yaml, *.yml) in this folder", file: path))
            }
            for item in found where seen.insert(item.url.standardizedFileURL.path).inserted {
                items.append(item)
            }
        }
        return (items, problems)
    }

    private static func scan(folder: String) -> [Item] {
        let root = URL(fileURLWithPath: folder, isDirectory: true)
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey],
                                                              options: [.skipsHiddenFiles]) else { return [] }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let rootPath = root.standardizedFileURL.path
        var items: [Item] = []
        for case let url as URL in enumerator {
            let name = url.lastPathComponent
            guard extensions.contains(url.pathExtension.lowercased()), !name.hasPrefix("scenario.schema"),
                  isRegularFile(url) else { continue }
            let full = url.standardizedFileURL.path
            let relative = full.hasPrefix(rootPath + "/") ? String(full.dropFirst(rootPath.count + 1)) : name
            items.append(Item(url: url, display: (folder == "." ? "" : prefix) + relative))
        }
        // Each path is split once, not at every comparison (the sort was a
        // fifth of collecting scenarios/ before the workers could start).
        let keyed = items.map { (key: $0.display.split(separator: "/"), item: $0) }
        return keyed.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.item)
    }

    /// Whether `url` is a regular file itself (a symbolic link is not, as
    /// `URLResourceValues.isRegularFile` says), by one `lstat`: the resource
    /// values cost about half of collecting scenarios/, serial before the
    /// workers start.
    private static func isRegularFile(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }
}
