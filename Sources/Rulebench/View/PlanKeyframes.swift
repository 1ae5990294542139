// How a step's animation plays on the board: its timeline (Timeline.swift)
// turned into keyframes per scene node, between the scene before the step
// and the scene after it.
//
// Invariant: everything here is a pure function of the timeline, the two
// scenes and the places the view gave, so a host (the studio page) only
// interpolates between keys and shows exactly what the library computed.
// Tracks follow the after scene's node order, then the nodes only the
// before scene has, in its order.

/// The keyframes of one step's animation: a track per node, and the sounds
/// and cues at their times.
public struct PlanKeyframes: Hashable, Sendable, Codable {
    /// Seconds from the start to the end of the animation.
    public var duration: Double
    /// A track per node of either scene.
    public var tracks: [NodeTrack]
    /// The sounds, in the order they play.
    public var sounds: [TimedSound]
    /// The cues, in the order they happen.
    public var cues: [TimedCue]
    /// True when a plan repeated so often that keys were left out past
    /// `KeyBudget.limit` (the rest of those runs holds still).
    public var truncated: Bool

    /// The keyframes of `timeline` played from `before` to `after`.
    ///
    /// - Parameters:
    ///   - timeline: the step's plan, timed (`Timeline`).
    ///   - before: the scene before the step; nil for an opening (every node
    ///     the plan does not animate is there from the start).
    ///   - after: the scene after the step.
    ///   - places: what the view gave for the requests of `placeRequests`.
    public init(timeline: Timeline, before: Scene?, after: Scene, places: [PlaceRequest: ScenePoint] = [:]) {
        duration = timeline.duration
        var budget = KeyBudget()
        let context = TrackContext(timeline: timeline, opening: before == nil,
                                   placeProperties: Set(after.placeProperties), places: places)
        // Nodes and events are looked up by id (one pass each), never by a walk per node:
        // 20k nodes cost 20k lookups, not 20k walks of 20k nodes.
        let afterNodes = SceneNodeIndex(after), beforeNodes = before.map(SceneNodeIndex.init)
        let ids = after.nodes.map(\.id) + (before?.nodes.map(\.id).filter { afterNodes[$0] == nil } ?? [])
        let atlases = after.atlases + (before?.atlases ?? [])
        tracks = ids.map { id in
            NodeTrack(id: id, before: beforeNodes?[id], after: afterNodes[id], atlases: atlases, context: context, budget: &budget)
        }
        sounds = timeline.events.compactMap { event in
            guard case .sound(let s) = event.leaf else { return nil }
            return TimedSound(time: event.start, name: s.name, volume: s.volume, actionPath: event.actionPath)
        }
        cues = timeline.events.compactMap { event in
            guard case .cue(let c) = event.leaf else { return nil }
            return TimedCue(time: event.start, name: c.name, args: c.args, actionPath: event.actionPath)
        }
        truncated = budget.exceeded
    }

    /// The places to ask the view for: the `from` and `to` of every tween on
    /// a property the view maps, each once, in timeline order.
    public static func placeRequests(timeline: Timeline, scene: Scene) -> [PlaceRequest] {
        let mapped = Set(scene.placeProperties)
        var seen = Set<PlaceRequest>()
        var requests: [PlaceRequest] = []
        for event in timeline.events {
            guard case .tween(let t) = event.leaf, mapped.contains(t.property) else { continue }
            for value in [t.from, t.to] where value != nil {
                let request = PlaceRequest(target: t.target, property: t.property, value: value)
                if seen.insert(request).inserted { requests.append(request) }
            }
        }
        return requests
    }

    /// The track of a node.
    public func track(_ id: String) -> NodeTrack? {
        tracks.first { $0.id == id }
    }

    /// The nodes shown at `time`, as shown, in drawing order (layer, then track order).
    public func nodes(at time: Double) -> [SceneNode] {
        let shown = tracks.compactMap { $0.pose(at: time) }
        return shown.enumerated().sorted { ($0.element.layer, $0.offset) < ($1.element.layer, $1.offset) }.map(\.element)
    }
}

/// A sound at its time.
public struct TimedSound: Hashable, Sendable, Codable {
    /// Seconds from the start.
    public var time: Double
    /// Its name (the file in the view's `sounds` folder).
    public var name: String
    /// 0...1.
    public var volume: Double
    /// The action (and subaction) that played it.
    public var actionPath: String
}

/// A cue (`anim.cue`) at its time.
public struct TimedCue: Hashable, Sendable, Codable {
    /// Seconds from the start.
    public var time: Double
    /// Its name.
    public var name: String
    /// Its arguments (a table; lists encode as JSON arrays).
    public var args: StateValue
    /// The action (and subaction) that gave it.
    public var actionPath: String

    enum CodingKeys: String, CodingKey { case time, name, args, actionPath }

    /// A timed cue.
    public init(time: Double, name: String, args: StateValue, actionPath: String) {
        self.time = time
        self.name = name
        self.args = args
        self.actionPath = actionPath
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        time = try c.decode(Double.self, forKey: .time)
        name = try c.decode(String.self, forKey: .name)
        args = try c.decode(CodedStateValue.self, forKey: .args).value
        actionPath = try c.decode(String.self, forKey: .actionPath)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(time, forKey: .time)
        try c.encode(name, forKey: .name)
        try c.encode(CodedStateValue(args), forKey: .args)
        try c.encode(actionPath, forKey: .actionPath)
    }
}

extension Easing: Codable {}

/// A bound on the keys one step's keyframes hold: a plan may repeat a run
/// millions of times, and a page cannot play more keys than it can hold.
struct KeyBudget {
    /// Keys at most, over all tracks of one step.
    static let limit = 100_000
    private(set) var used = 0
    private(set) var exceeded = false

    /// Takes `count` keys; false (and marks the budget exceeded) when they do not fit.
    mutating func take(_ count: Int = 1) -> Bool {
        guard used + count <= Self.limit else { exceeded = true; return false }
        used += count
        return true
    }
}

/// A scene's nodes by id (the first node of an id, as `Scene.node` finds it).
struct SceneNodeIndex {
    private let nodes: [String: SceneNode]

    init(_ scene: Scene) {
        nodes = Dictionary(scene.nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    subscript(id: String) -> SceneNode? { nodes[id] }
}

/// What every track of one step reads.
struct TrackContext {
    let timeline: Timeline
    /// Keyframes of an opening: no before scene.
    let opening: Bool
    let placeProperties: Set<String>
    let places: [PlaceRequest: ScenePoint]
    /// The animated events by target, in timeline order: grouped once per step.
    let eventsByTarget: [String: [TimelineEvent]]

    init(timeline: Timeline, opening: Bool, placeProperties: Set<String>, places: [PlaceRequest: ScenePoint]) {
        self.timeline = timeline
        self.opening = opening
        self.placeProperties = placeProperties
        self.places = places
        var grouped: [String: [TimelineEvent]] = [:]
        for event in timeline.events where event.isAnimated {
            if let target = event.target { grouped[target, default: []].append(event) }
        }
        eventsByTarget = grouped
    }

    /// The animated events of a node, in timeline order.
    func events(of id: String) -> [TimelineEvent] { eventsByTarget[id] ?? [] }

    /// The place the view gave for a value, if it gave one.
    func place(_ target: String, _ property: String, _ value: StateValue?) -> ScenePoint? {
        places[PlaceRequest(target: target, property: property, value: value)]
    }
}
