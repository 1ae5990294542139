import Foundation

// What `check` says about a pack's view: it must draw every sampled state
// and place every tween value of the plan that led there (an error at the
// view's line when it fails, writes, or adds a bad node), and the files it
// names must be in the pack (warnings). A pack without a view: nothing.

extension PackChecker {
    /// Runs the view on the current state, and its places on the plan of
    /// the last action performed (or the opening, before any).
    func lintView(_ game: Game, context: String, report: (PackProblem) -> Void) {
        do {
            guard let scene = try game.scene() else { return }
            let animation = game.history.performed.last?.animation ?? game.openingAnimation
            _ = try game.keyframes(of: animation?.timeline() ?? Timeline(events: [], duration: 0), from: nil, to: scene)
            for problem in Self.missingFiles(scene, game: game) { report(problem) }
            // A `legal` that fails is reported where check lists the calls, not here.
            if let problem = Self.lastPartNaming(scene, legal: (try? game.legalActions()) ?? [], game: game) { report(problem) }
        } catch {
            report(failureProblem(error, game: game, during: "the view", context: context))
        }
    }

    /// The first node a call named by the rule before `names` (the part
    /// of its id after its last `:`) and names no more: a warning saying
    /// what to declare, at the line of pack.lua that builds such ids.
    static func lastPartNaming(_ scene: Scene, legal: [ActionCall], game: Game) -> PackProblem? {
        for node in scene.nodes {
            guard let call = node.namedOnlyByLastPart(among: legal).first else { continue }
            let manifest = game.pack.directory + "/pack.lua"
            let kind = String(node.id.prefix { $0 != ":" }) + ":"
            let last = String(node.id[node.id.index(after: node.id.lastIndex(of: ":") ?? node.id.startIndex)...])
            return PackProblem(.warning, file: manifest, line: ViewSourceLine.of("id", kind, in: manifest),
                               "view: node \(node.id) is no longer named by \(TypedCall.typed(call)) through the last part of its id "
                                + "('\(last)'): a call names a node by its id, the part after its first ':' and its aliases, or by "
                                + "the params its names give. Say which calls name it: names = { param = value } (a disc of column 3: "
                                + "names = { column = 3 }), or aliases = { \"\(last)\" } to keep the old match")
        }
        return nil
    }

    /// The image, atlas and sound files the scene names that the pack folder does not have.
    static func missingFiles(_ scene: Scene, game: Game) -> [PackProblem] {
        let manifest = game.pack.directory + "/pack.lua"
        let folder = URL(fileURLWithPath: game.pack.directory)
        func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path) }
        var problems: [PackProblem] = []
        for atlas in scene.atlases where !exists(atlas.image) {
            problems.append(PackProblem(.warning, file: manifest, line: ViewSourceLine.of("image", atlas.image, in: manifest),
                                        "view: atlas '\(atlas.name)' names \(atlas.image), which is not in the pack"))
        }
        var seen = Set<String>()
        for node in scene.nodes {
            guard let image = node.image, !exists(image), seen.insert(image).inserted else { continue }
            problems.append(PackProblem(.warning, file: manifest, line: ViewSourceLine.of("image", image, in: manifest),
                                        "view: node \(node.id) shows \(image), which is not in the pack"))
        }
        if let sounds = scene.sounds, !exists(sounds) {
            problems.append(PackProblem(.warning, file: manifest, line: ViewSourceLine.of("sounds", sounds, in: manifest),
                                        "view: the sounds folder \(sounds) is not in the pack"))
        }
        return problems
    }
}

/// The line of pack.lua that names a file, for a warning about it.
enum ViewSourceLine {
    static func of(_ field: String, _ value: String, in file: String) -> Int? {
        guard let data = try? InputFile.bytes(URL(fileURLWithPath: file), display: file) else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        return lines.firstIndex { $0.contains(field) && $0.contains("\"" + value + "\"") }.map { $0 + 1 }
            ?? lines.firstIndex { $0.contains("\"" + value) }.map { $0 + 1 }
    }
}
