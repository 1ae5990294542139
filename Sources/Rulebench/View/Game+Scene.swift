import Foundation

// The view of a running game: its scene, and the keyframes of a step's
// animation between the scene before it and the scene now. The view's
// functions run read-only under the budget, as `render` does.

extension Game {
    /// The scene of the current state, as the pack's `view` draws it; nil
    /// when the pack declares no view.
    public func scene() throws(RulebenchError) -> Scene? {
        try kernel.scene()
    }

    /// The keyframes of an animation that brought the game from `before` to
    /// the current state: the animation of the entry just performed or redone,
    /// of the undo just made (`UndoOutcome.animation`: the mirrored plan), or
    /// the opening (`before` nil). Nil when the pack declares no view.
    public func keyframes(of animation: ActionAnimation?, from before: Scene?) throws(RulebenchError) -> PlanKeyframes? {
        try keyframes(of: animation.map { $0.timeline() } ?? Timeline(events: [], duration: 0), from: before)
    }

    /// The keyframes of a timeline (several actions played in turn, say)
    /// that brought the game from `before` to the current state.
    public func keyframes(of timeline: Timeline, from before: Scene?) throws(RulebenchError) -> PlanKeyframes? {
        guard let after = try scene() else { return nil }
        return try keyframes(of: timeline, from: before, to: after)
    }

    /// The keyframes of `timeline` from `before` to `after`, the scene of the current state.
    func keyframes(of timeline: Timeline, from before: Scene?, to after: Scene) throws(RulebenchError) -> PlanKeyframes {
        let requests = PlanKeyframes.placeRequests(timeline: timeline, scene: after)
        var places: [PlaceRequest: ScenePoint] = [:]
        for (request, place) in zip(requests, try kernel.places(requests)) {
            if let point = after.point(place) { places[request] = point }
        }
        return PlanKeyframes(timeline: timeline, before: before, after: after, places: places)
    }
}

extension Game {
    /// A file of the pack a scene names (an image, an atlas), if it is there:
    /// looked for in the pack's folder, then in each base pack's it extends
    /// (an extending pack inherits its base's art and sounds). Nil for a path
    /// that is absolute, climbs out with `..`, names no file, or leads through
    /// a symbolic link out of the folder it was found in. A host serves files
    /// through this, so nothing outside the pack's folders leaks.
    public func packFile(_ relativePath: String) -> URL? {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard !relativePath.isEmpty, !relativePath.hasPrefix("/"), !relativePath.contains("\\"),
              !parts.contains(where: { $0 == ".." || $0.isEmpty }) else { return nil }
        for folder in packFolders {
            let url = folder.appendingPathComponent(relativePath)
            var directory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &directory) else { continue }
            let root = folder.resolvingSymlinksInPath().path + "/"
            guard !directory.boolValue, url.resolvingSymlinksInPath().path.hasPrefix(root) else { return nil }
            return url
        }
        return nil
    }

    /// The file of a sound in the view's sounds folder (`NAME.wav`, `.ogg`
    /// or `.mp3`, looked for in that order); nil when the pack has no view,
    /// no sounds folder or no such file (a host shows the sound as missing).
    public func soundFile(named name: String, in scene: Scene) -> URL? {
        guard let folder = scene.sounds else { return nil }
        return ["wav", "ogg", "mp3"].lazy.compactMap { self.packFile(folder + "/" + name + "." + $0) }.first
    }
}

extension Scene {
    /// The scene as JSON text, keys sorted (the same scene gives the same text).
    public func json() throws -> String { try ViewJSON.text(self) }
}

extension PlanKeyframes {
    /// The keyframes as JSON text, keys sorted (the same keyframes give the same text).
    public func json() throws -> String { try ViewJSON.text(self) }
}

/// The one JSON encoder of the view's values: sorted keys, so output is deterministic.
enum ViewJSON {
    static func text<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
