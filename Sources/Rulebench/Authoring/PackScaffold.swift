import Foundation

/// Writes a new rule pack and its first scenario: what `rulebench new NAME` does.
///
/// It creates `RULES/NAME/` (pack.lua, a helper module, and two actions:
/// `step`, with its own undo and animation, and `dash`, made of two `step`
/// subactions with an animation and a sound of its own) and
/// `SCENARIOS/NAME/first.yaml`. The new pack passes `rulebench check`,
/// `run` and `fuzz` as it is, ready to be changed into your own game.
///
/// ```swift
/// let files = try PackScaffold(name: "race").create()
/// ```
public struct PackScaffold {
    /// The pack's name: a plain identifier, also its folder name.
    public let name: String
    /// The folder the pack folder goes in (default `rules`).
    public let rulesDirectory: URL
    /// The folder the scenario folder goes in (default `scenarios`).
    public let scenariosDirectory: URL

    /// A scaffold for pack `name`; relative folders resolve against the working directory.
    public init(name: String, rulesDirectory: URL = URL(fileURLWithPath: "rules"),
                scenariosDirectory: URL = URL(fileURLWithPath: "scenarios")) {
        self.name = name
        self.rulesDirectory = rulesDirectory.standardizedFileURL
        self.scenariosDirectory = scenariosDirectory.standardizedFileURL
    }

    /// The pack folder that `create` makes.
    public var packDirectory: URL { rulesDirectory.appendingPathComponent(name) }
    /// The scenario folder that `create` makes.
    public var scenarioDirectory: URL { scenariosDirectory.appendingPathComponent(name) }

    /// Why `name` cannot name a pack, or nil when it can: a letter or `_`,
    /// then letters, digits and `_`, at most 64 characters, not a Lua keyword.
    public static func problem(withName name: String) -> String? {
        if name.isEmpty { return "the pack name is empty" }
        if name.count > 64 { return "the pack name '\(name)' is longer than 64 characters" }
        guard name.isLuaIdentifier else {
            return "'\(name)' is not a plain name: use a letter or _ first, then letters, digits and _ (like race or my_game)"
        }
        if luaKeywords.contains(name) { return "'\(name)' is a Lua keyword: pick another name" }
        return nil
    }

    private static let luaKeywords: Set<String> = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
        "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]

    /// The files `create` writes, each with its contents (the name and the pack reference filled in).
    public var files: [(url: URL, contents: String)] {
        let pack = packDirectory
        return [
            (pack.appendingPathComponent("pack.lua"), ScaffoldTemplate.renamed(ScaffoldTemplate.pack, to: name)),
            (pack.appendingPathComponent("track.lua"), ScaffoldTemplate.renamed(ScaffoldTemplate.track, to: name)),
            (pack.appendingPathComponent("actions/step.lua"), ScaffoldTemplate.step),
            (pack.appendingPathComponent("actions/dash.lua"), ScaffoldTemplate.dash),
            (pack.appendingPathComponent("sequences/start.yaml"), ScaffoldTemplate.sequence),
            (scenarioDirectory.appendingPathComponent("first.yaml"), ScaffoldTemplate.scenario),
        ].map { ($0.0, $0.1.replacingOccurrences(of: ScaffoldTemplate.namePlaceholder, with: name)
                       .replacingOccurrences(of: ScaffoldTemplate.rulesPlaceholder, with: rulesReference)
                       .replacingOccurrences(of: ScaffoldTemplate.schemaPlaceholder,
                                             with: PackScaffold.relative(from: scenarioDirectory, to: schemaFile))) }
    }

    /// The folder the editor settings go in: the one holding the scenarios folder.
    public var projectDirectory: URL { scenariosDirectory.deletingLastPathComponent() }

    private var schemaFile: URL { scenariosDirectory.appendingPathComponent("scenario.schema.json") }

    /// The editor files `create` also writes, each only where no such file is
    /// yet (a project's own settings are never overwritten): the scenario
    /// schema beside the scenario folders (the new scenario's first line
    /// points at it), `.vscode/settings.json` giving it to every scenario, and
    /// `.luarc.json` with `lua/rulebench.d.lua` for the Lua language servers
    /// (docs/lua-api.md, "Editor support").
    public var editorFiles: [(url: URL, contents: String)] {
        let root = projectDirectory
        let scenarios = PackScaffold.relative(from: root, to: scenariosDirectory)
        var out: [(URL, String)] = [
            (schemaFile, ScaffoldTemplate.scenarioSchema),
            (root.appendingPathComponent(".vscode/settings.json"),
             ScaffoldTemplate.vscodeSettings(schema: PackScaffold.relative(from: root, to: schemaFile), scenarios: scenarios)),
        ]
        if PackScaffold.occupant(of: root.appendingPathComponent(".luarc.json")) == nil {
            out.append((root.appendingPathComponent(".luarc.json"), ScaffoldTemplate.luarc(library: "lua")))
            out.append((root.appendingPathComponent("lua/rulebench.d.lua"), ScaffoldTemplate.luaDefinitions))
        }
        return out.filter { PackScaffold.occupant(of: $0.0) == nil }
    }

    /// The path from folder `from` to `to`, with `..` where it climbs.
    static func relative(from: URL, to: URL) -> String {
        let from = from.standardizedFileURL.pathComponents, to = to.standardizedFileURL.pathComponents
        var common = 0
        while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
        let parts = Array(repeating: "..", count: from.count - common) + to[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// How the scenario names the pack: its name when a `rules/` folder beside
    /// one of the scenario's ancestors holds it (where the runner looks),
    /// else a path relative to the scenario's folder.
    private var rulesReference: String {
        var folder = scenarioDirectory
        while folder.path != "/" {
            if folder.appendingPathComponent("rules").standardizedFileURL.path == rulesDirectory.path { return name }
            folder = folder.deletingLastPathComponent()
        }
        return PackScaffold.relative(from: scenarioDirectory, to: packDirectory)
    }

    /// Writes the pack and the scenario; returns the files written.
    ///
    /// - Throws: `.badInput` when the name is not a plain identifier, when
    ///   either folder already exists (nothing is overwritten), or when a file
    ///   cannot be written (then what was written is removed again).
    @discardableResult
    public func create() throws(RulebenchError) -> [URL] {
        if let problem = PackScaffold.problem(withName: name) { throw .badInput(InputProblem(problem)) }
        let fm = FileManager.default
        for folder in [packDirectory, scenarioDirectory] {
            if let what = PackScaffold.occupant(of: folder) {
                throw .badInput(InputProblem("\(PackFiles.display(folder)) already exists (\(what)): pick another name, or remove it first"))
            }
        }
        var written: [URL] = []
        let editorFiles = self.editorFiles
        do {
            for (url, contents) in files + editorFiles {
                try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(contents.utf8).write(to: url, options: .withoutOverwriting)
                written.append(url)
            }
        } catch {
            // Both folders were absent above, so a folder there now is this
            // call's own; anything else (a link made meanwhile) is left alone.
            for folder in [packDirectory, scenarioDirectory] where PackScaffold.occupant(of: folder) == "a folder" {
                try? fm.removeItem(at: folder)
            }
            for url in written where editorFiles.contains(where: { $0.url == url }) { try? fm.removeItem(at: url) }
            throw .badInput(InputProblem("cannot write the new pack: \(error.localizedDescription)"))
        }
        return written
    }

    /// What is at `url` without following a symbolic link there, or nil
    /// when nothing is. `fileExists` follows links, so a link to nothing
    /// looked free, creating the pack failed on it, and the cleanup then
    /// deleted the user's link.
    private static func occupant(of url: URL) -> String? {
        var status = stat()
        guard lstat(url.path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return "a folder"
        case S_IFLNK:
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) ?? "?"
            return FileManager.default.fileExists(atPath: url.path)
                ? "a symbolic link to \(target)" : "a symbolic link to \(target), which does not exist"
        default: return "a file"
        }
    }
}
