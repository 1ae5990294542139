import Foundation

/// What a loaded rule pack declares.
public struct PackInfo: Sendable {
    /// The pack's `name` from pack.lua.
    public let name: String
    /// Its `version` (inherited from the base pack, else "0").
    public let version: String
    /// The pack folder, as shown in messages.
    public let directory: String
    /// The name of the base pack it extends, if any.
    public let extends: String?
    /// Its actions by name (inherited ones included).
    public let actions: [String: ActionInfo]
    /// Default setup options.
    public let options: [String: StateValue]
    /// Every option the pack takes, with its type ("integer", "number",
    /// "string", "boolean", "table" or "any"): the type of its default, or the
    /// one its `{ type = ... }` declaration gives.
    public var optionTypes: [String: String] = [:]
    /// Invariant names, in the order they run.
    public let invariants: [String]
    /// Goal names (`goals` in pack.lua), sorted: what `solve`, `play` and
    /// scenarios' `expect: { goal: NAME }` may ask about.
    public let goals: [String]
    /// Whether the pack has `render` and `setup`.
    public let hasRender: Bool
    public let hasSetup: Bool
    /// The pack's description, if it gives one.
    public let description: String?

    /// Action names in sorted order.
    public var actionNames: [String] { actions.keys.sorted() }

    /// The pack's name as one safe file-name component, for files and
    /// folders named after the pack (the fuzzer's default corpus folder).
    public var fileName: String { PackInfo.fileName(for: name) }

    /// `name` made one safe file-name component: letters, digits, `-`, `_`
    /// and `.` are kept, anything else (`/`, spaces, other characters)
    /// becomes `_`, and so does a `.` that comes first or after another `.`
    /// (no `..`, no hidden file); at most 100 characters; never empty.
    ///
    /// A pack's `name` is any string pack.lua gives, and a pack may come from
    /// anyone: `name = "../../../tmp/x"` used as a path would reach outside
    /// the folder the user named. Names are made safe here rather than
    /// refused at load, so every pack that loads today still does.
    public static func fileName(for name: String) -> String {
        var safe = ""
        for character in name.unicodeScalars.prefix(100) {
            let plain = character.isASCII && (CharacterSet.alphanumerics.contains(character) || character == "-" || character == "_")
            if plain || (character == "." && !safe.isEmpty && !safe.hasSuffix(".")) {
                safe.unicodeScalars.append(character)
            } else {
                safe += "_"
            }
        }
        return safe.isEmpty ? "_" : safe
    }
}

/// What an action file declares.
public struct ActionInfo: Sendable {
    public let name: String
    /// Declared params: name to type ("string", "integer?", ...). Empty when undeclared.
    public let params: [String: String]
    /// Whether the file declares `params` at all.
    public let declaresParams: Bool
    /// The action file.
    public let file: String
    public let hasLegal: Bool
    public let hasCheck: Bool
    public let hasUndo: Bool
    public let hasAnimate: Bool
    public let isCheckpoint: Bool
    public let description: String?
    /// `internal = true`: it runs only as a subaction (never listed as legal, refused at top level).
    public var isInternal: Bool = false
}

/// Finds pack folders and reads their files for the kernel.
final class PackFiles: LuaHost {
    private var directories: [String: URL] = [:]
    /// The pack folders registered, in load order: the pack asked for, then each base it extends.
    private(set) var folders: [URL] = []
    /// Where `print` from rules goes.
    var printHandler: (@Sendable (String) -> Void)?

    /// Resolves a pack given by name (a folder under `rulesDirectory`) or by path.
    static func locate(_ reference: String, rulesDirectory: URL?, relativeTo base: URL?) throws(RulebenchError) -> URL {
        let fm = FileManager.default
        let cwd = URL(fileURLWithPath: fm.currentDirectoryPath)
        var candidates: [URL] = []
        if reference.hasPrefix("/") {
            candidates.append(URL(fileURLWithPath: reference))
        } else {
            if let base { candidates.append(base.appendingPathComponent(reference)) }
            if !reference.contains("/") {
                if let rulesDirectory { candidates.append(rulesDirectory.appendingPathComponent(reference)) }
                // A scenario names its pack; the rules/ folder is beside one of its ancestors.
                var folder = base?.standardizedFileURL
                while let current = folder, current.path != "/" {
                    candidates.append(current.appendingPathComponent("rules").appendingPathComponent(reference))
                    folder = current.deletingLastPathComponent()
                }
                candidates.append(cwd.appendingPathComponent("rules").appendingPathComponent(reference))
            }
            candidates.append(cwd.appendingPathComponent(reference))
            if reference.contains("/"), !reference.hasPrefix("."), let base {
                // A path from the project's root (`Benchmarks/packs/chess`, as
                // fuzz writes it): found from any folder of the project.
                var folder = base.standardizedFileURL.deletingLastPathComponent()
                while folder.path != "/" {
                    candidates.append(folder.appendingPathComponent(reference))
                    folder = folder.deletingLastPathComponent()
                }
            }
        }
        for candidate in candidates where fm.fileExists(atPath: candidate.appendingPathComponent("pack.lua").path) {
            return candidate.standardizedFileURL
        }
        let looked = candidates.map { display($0.appendingPathComponent("pack.lua")) }.joined(separator: ", ")
        let rules = candidates.lazy.map { $0.deletingLastPathComponent() }
            .first { ($0.lastPathComponent == "rules" || $0 == rulesDirectory) && fm.fileExists(atPath: $0.path) }
        let available = rules.map(packs(in:)) ?? []
        var message = "unknown rule pack '\(reference)': no \(looked) (a pack is a folder with pack.lua and actions/*.lua)"
            + Suggestion.hint(for: reference, in: available)
        if let rules, !available.isEmpty { message += " (packs in \(display(rules)): \(available.joined(separator: ", ")))" }
        throw .badInput(InputProblem(message, subject: .unknownPack(reference, available: available)))
    }

    /// The names of the packs in a rules folder (its folders with a pack.lua), sorted.
    static func packs(in rules: URL) -> [String] {
        let fm = FileManager.default
        let entries = (try? fm.contentsOfDirectory(atPath: rules.path)) ?? []
        return entries.filter { fm.fileExists(atPath: rules.appendingPathComponent($0).appendingPathComponent("pack.lua").path) }.sorted()
    }

    /// A path as messages show it: relative to the working directory when inside it.
    static func display(_ url: URL) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        let path = url.standardizedFileURL.path
        if path.hasPrefix(cwd + "/") { return String(path.dropFirst(cwd.count + 1)) }
        return path
    }

    private var chunknames: [String] = []

    /// Lua shortens long chunk names in its own messages to "...tail";
    /// this puts the full file name back.
    func expandingTruncatedNames(_ failure: LuaFailure) -> LuaFailure {
        guard failure.message.contains("...") || failure.traceback.contains("...")
                || failure.fields.values.contains(where: { $0.contains("...") }) else { return failure }
        func expand(_ text: String) -> String {
            var text = text
            for name in chunknames where name.count > 50 {
                for cut in stride(from: name.count - 1, to: 40, by: -1) {
                    let tail = String(name.suffix(cut))
                    if text.contains("..." + tail + ":") {
                        text = text.replacingOccurrences(of: "..." + tail + ":", with: name + ":")
                        break
                    }
                }
            }
            return text
        }
        return LuaFailure(cause: failure.cause, message: expand(failure.message), traceback: expand(failure.traceback),
                          fields: failure.fields.mapValues(expand))
    }

    /// Remembers a file name handed to Lua as a chunk name.
    func noteChunk(_ name: String) { chunknames.append(name) }

    /// Registers a pack folder under the id the kernel knows it by.
    func register(_ directory: URL) -> String {
        let id = PackFiles.display(directory)
        if directories[id] == nil { folders.append(directory) }
        directories[id] = directory
        return id
    }

    /// Refuses a file of the pack that resolves, through symbolic links,
    /// to a place outside the pack's folder: a pack reads only its own
    /// files, never the host's. Links that stay inside the pack are fine.
    static func confine(_ url: URL, to pack: URL) throws(RulebenchError) {
        let folder = pack.resolvingSymlinksInPath().standardizedFileURL.path
        let file = url.resolvingSymlinksInPath().standardizedFileURL.path
        guard !file.hasPrefix(folder + "/") else { return }
        throw .packLoad(InputProblem("this file leads, through a symbolic link, to \(file), outside the pack's folder "
                                     + "\(display(pack)); a pack reads only its own files: copy the file into the pack",
                                     file: display(url)))
    }

    /// Reads a file of a pack as text (see `confine`).
    static func read(_ url: URL, of pack: URL) throws(RulebenchError) -> String {
        try confine(url, to: pack)
        do {
            return String(decoding: try InputFile.bytes(url, display: display(url)), as: UTF8.self)
        } catch {
            guard case .badInput(let problem) = error else { throw error }
            throw .packLoad(problem)
        }
    }

    /// The action files of a pack, sorted by name.
    ///
    /// Two files whose names differ only in case (`Move.lua`, `move.lua`) are
    /// duplicate actions: on a case-insensitive file system (macOS, Windows)
    /// they are one file, so the pack would mean different things on
    /// different machines. That is a load error naming both files.
    static func actionFiles(in directory: URL) throws(RulebenchError) -> [(name: String, url: URL)] {
        let folder = directory.appendingPathComponent("actions")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        var files: [(String, URL)] = []
        var seen: [String: String] = [:]
        for file in names.sorted() where file.hasSuffix(".lua") {
            let name = String(file.dropLast(4))
            guard name.isLuaIdentifier else {
                throw .packLoad(InputProblem("an action file name must be a plain name (letters, digits, _), the action's name",
                                             file: display(folder.appendingPathComponent(file))))
            }
            if let other = seen[name.lowercased()] {
                throw .packLoad(InputProblem("duplicate action: '\(name)' and '\(other)' differ only in case (\(other).lua is the same file on a case-insensitive file system)",
                                             file: display(folder.appendingPathComponent(file))))
            }
            seen[name.lowercased()] = name
            files.append((name, folder.appendingPathComponent(file)))
        }
        return files
    }

    func moduleSource(packDirectory: String, name: String) throws -> (chunkname: String, source: String)? {
        guard let directory = directories[packDirectory] else { return nil }
        let relative = name.split(separator: ".").joined(separator: "/") + ".lua"
        if relative == "pack.lua" || relative.hasPrefix("actions/") { return nil }
        let url = directory.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        try PackFiles.confine(url, to: directory)
        let data: Data
        do {
            data = try InputFile.bytes(url, display: PackFiles.display(url))
        } catch {
            guard case .badInput(let problem) = error else { throw InputProblem("cannot read \(PackFiles.display(url))") }
            throw problem
        }
        noteChunk(PackFiles.display(url))
        return (PackFiles.display(url), String(decoding: data, as: UTF8.self))
    }

    func print(_ text: String) {
        if let printHandler { printHandler(text) } else { FileHandle.standardError.write(Data((text + "\n").utf8)) }
    }
}

extension InputProblem: Error {}
