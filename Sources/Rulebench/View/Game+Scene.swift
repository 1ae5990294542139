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
        let requests = PlanKeyframes.placeRequests(timeline: timeline, scene: after)
        var places: [PlaceRequest: ScenePoint] = [:]
        for (request, place) in zip(requests, try kernel.places(requests)) {
            if let point = after.point(place) { places[request] = point }
        }
        return PlanKeyframes(timeline: timeline, before: before, after: after, places: places)
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
