// One node's keyframes in a step, and how to read them at a time.
//
// Reading rules:
// - A channel's keys are in time order. Between key i and key i + 1 the
//   value goes from key i's to key i + 1's along key i + 1's easing (the
//   curve of the segment arriving at a key); keys at one time jump.
// - `place` holds its first key's point before it and its last key's after.
// - `opacity`, `rotation` and `scale` apply from their first key's time to
//   their last key's; outside that span the look's own value shows.
// - `frame` keys step: from a key's time the node shows that frame of its
//   sprite's atlas, or its look's own frame where the key has none.
// - The look (text, colour, image, size, ...) is `before` until `change`,
//   `after` from then; the node is shown from `appear` (if any) and hidden
//   from `vanish` (if any). A node that comes or goes in a step whose plan
//   does not animate it fades in (or out) over the whole step: opacity keys
//   from 0 (or to 0).
//
// These rules are read here only: a host draws the poses this computes
// (PoseReel: every node's pose sampled at a fixed rate), never the keys.

/// A point at a time.
public struct PointKey: Hashable, Sendable, Codable {
    /// Seconds from the start.
    public var time: Double
    /// Pixels across.
    public var x: Double
    /// Pixels down.
    public var y: Double
    /// The curve of the segment arriving here.
    public var easing: Easing
}

/// A number at a time.
public struct NumberKey: Hashable, Sendable, Codable {
    /// Seconds from the start.
    public var time: Double
    /// The value.
    public var value: Double
    /// The curve of the segment arriving here.
    public var easing: Easing
}

/// A sprite frame from a time on.
public struct FrameKey: Hashable, Sendable, Codable {
    /// Seconds from the start.
    public var time: Double
    /// The 1-based frame of the node's atlas; nil: the look's own frame.
    public var frame: Int?
}

/// One node's keyframes in a step.
public struct NodeTrack: Hashable, Sendable, Codable {
    /// The node's id.
    public var id: String
    /// How it looks before the step (nil: it is not in the scene before).
    public var before: SceneNode?
    /// How it looks after the step (nil: it is not in the scene after).
    public var after: SceneNode?
    /// When `after`'s look replaces `before`'s: the end of the last run the
    /// plan gives the node, or the end of the plan for a node it does not animate.
    public var change: Double
    /// When it is first shown (nil: from the start).
    public var appear: Double?
    /// When it is hidden (nil: never).
    public var vanish: Double?
    /// Its centre over time (empty: the look's place).
    public var place: [PointKey]
    /// Opacity runs.
    public var opacity: [NumberKey]
    /// Rotation runs, in degrees.
    public var rotation: [NumberKey]
    /// Scale runs.
    public var scale: [NumberKey]
    /// Sprite frames over time.
    public var frame: [FrameKey]

    /// The node as shown at `time`; nil when it is not shown then.
    public func pose(at time: Double) -> SceneNode? {
        if let appear, time < appear { return nil }
        if let vanish, time >= vanish { return nil }
        guard var node = look(at: time) else { return nil }
        if let point = Self.point(place, at: time) {
            node.x = point.x
            node.y = point.y
        }
        node.opacity = Self.number(opacity, at: time) ?? node.opacity
        node.rotation = Self.number(rotation, at: time) ?? node.rotation
        node.scale = Self.number(scale, at: time) ?? node.scale
        if let key = frame.last(where: { $0.time <= time }), let shown = key.frame { node.sprite?.frame = shown }
        return node
    }

    /// The look (`before` or `after`) the node shows at `time`, before its
    /// channels place and turn it; nil when it has neither.
    func look(at time: Double) -> SceneNode? {
        time < change ? (before ?? after) : (after ?? before)
    }

    /// Where a segment between two keys is at `time`: the earlier key, the
    /// later one and the eased fraction between them; nil outside the keys.
    static func segment<Key>(_ keys: [Key], at time: Double, time keyTime: (Key) -> Double,
                             easing: (Key) -> Easing) -> (Key, Key, Double)? {
        guard let index = keys.lastIndex(where: { keyTime($0) <= time }) else { return nil }
        let key = keys[index]
        guard index + 1 < keys.count else { return (key, key, 0) }
        let next = keys[index + 1]
        let span = keyTime(next) - keyTime(key)
        let fraction = span > 0 ? easing(next).apply((time - keyTime(key)) / span) : 1
        return (key, next, fraction)
    }

    static func point(_ keys: [PointKey], at time: Double) -> ScenePoint? {
        guard let first = keys.first else { return nil }
        guard let (a, b, f) = segment(keys, at: time, time: \.time, easing: \.easing) else {
            return ScenePoint(x: first.x, y: first.y)
        }
        return ScenePoint(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f)
    }

    static func number(_ keys: [NumberKey], at time: Double) -> Double? {
        guard let last = keys.last, time <= last.time,
              let (a, b, f) = segment(keys, at: time, time: \.time, easing: \.easing) else { return nil }
        return a.value + (b.value - a.value) * f
    }
}

// MARK: - Building a track

extension NodeTrack {
    /// The track of node `id` in a step (see PlanKeyframes.init).
    init(id: String, before: SceneNode?, after: SceneNode?, atlases: [SceneAtlas], context: TrackContext,
         budget: inout KeyBudget) {
        let events = context.events(of: id)
        let look = after ?? before
        self.id = id
        self.before = before
        self.after = after
        let firstStart = events.map(\.start).min(), lastEnd = events.map(\.end).max()
        let untouched = context.opening ? 0 : context.timeline.duration
        change = lastEnd ?? untouched
        appear = before == nil && !context.opening ? (firstStart ?? untouched) : (context.opening ? firstStart : nil)
        vanish = after == nil ? (lastEnd ?? untouched) : nil
        var builder = KeyBuilder(budget: budget)
        place = builder.placeKeys(id: id, events: events.filter { context.placeProperties.contains($0.property ?? "") },
                                  from: before?.point, to: after?.point, context: context)
        opacity = builder.numberKeys(events, property: "opacity", look: look?.opacity ?? 1)
        // A node that comes or goes in a step whose plan does not animate it (a desert tile's new sand)
        // fades in from invisible, or out to invisible, over the whole step: never its final look from
        // the start, never a pop at the end.
        let duration = context.timeline.duration
        if events.isEmpty, !context.opening, duration > 0, (before == nil) != (after == nil), let look {
            appear = nil
            opacity = builder.fadeKeys(duration: duration, opacity: look.opacity, in: before == nil)
        }
        rotation = builder.numberKeys(events, property: "rotation", look: look?.rotation ?? 0)
        scale = builder.numberKeys(events, property: "scale", look: look?.scale ?? 1)
        let atlas = look?.sprite.flatMap { sprite in atlases.first { $0.name == sprite.atlas } }
        frame = atlas.map { builder.frameKeys(events, atlas: $0) } ?? []
        budget = builder.budget
    }
}

/// Turns runs into keys, within the step's key budget.
struct KeyBuilder {
    var budget: KeyBudget

    /// One run of a tween: its legs in time order, each from one end to the
    /// other (`forward` false: from `to` back to `from`).
    private func legs(_ event: TimelineEvent, _ t: AnimationPlan.Tween) -> [(start: Double, end: Double, forward: Bool, easing: Easing)] {
        var out: [(Double, Double, Bool, Easing)] = []
        for run in 0..<t.repeatCount {
            let base = event.start + Double(run) * t.cycle
            out.append((base, base + t.duration, true, t.easing))
            if t.autoreverse { out.append((base + t.duration, base + 2 * t.duration, false, t.easing.reversed)) }
            if out.count * 2 > KeyBudget.limit { break }
        }
        return out
    }

    /// The node's route: from where it is before, through the places of the
    /// values in between, to where it is after. Tween `j` of `k` runs from
    /// boundary `j - 1` to boundary `j`; the first boundary is the node's
    /// place before (or its first `from`'s place, or its place after), the
    /// last its place after (or its last value's place, or its place
    /// before), and one in between is the place of the value the tween
    /// before it ends at (or the next one starts from), else a point that
    /// far along the straight line.
    mutating func placeKeys(id: String, events: [TimelineEvent], from before: ScenePoint?, to after: ScenePoint?,
                            context: TrackContext) -> [PointKey] {
        let tweens = events.compactMap { event -> (TimelineEvent, AnimationPlan.Tween)? in
            if case .tween(let t) = event.leaf { return (event, t) } else { return nil }
        }
        guard let first = tweens.first, let last = tweens.last else { return [] }
        func place(_ t: AnimationPlan.Tween, _ value: StateValue?) -> ScenePoint? { context.place(id, t.property, value) }
        guard let start = before ?? place(first.1, first.1.from) ?? after,
              let end = after ?? place(last.1, last.1.finalValue) ?? before else { return [] }
        let k = tweens.count
        var bounds = [start]
        for j in 1..<k {
            let f = Double(j) / Double(k)
            bounds.append(place(tweens[j - 1].1, tweens[j - 1].1.finalValue) ?? place(tweens[j].1, tweens[j].1.from)
                          ?? ScenePoint(x: start.x + (end.x - start.x) * f, y: start.y + (end.y - start.y) * f))
        }
        bounds.append(end)
        var keys: [PointKey] = []
        for (j, (event, t)) in tweens.enumerated() {
            let a = bounds[j], b = t.autoreverse ? (place(t, t.to) ?? a) : bounds[j + 1]
            for leg in legs(event, t) {
                guard budget.take(2) else { return keys }
                let (p, q) = leg.forward ? (a, b) : (b, a)
                keys.append(PointKey(time: leg.start, x: p.x, y: p.y, easing: .linear))
                keys.append(PointKey(time: leg.end, x: q.x, y: q.y, easing: leg.easing))
            }
        }
        return keys
    }

    /// Keys of the tweens on `property` (a number the node shows as it is).
    mutating func numberKeys(_ events: [TimelineEvent], property: String, look: Double) -> [NumberKey] {
        var keys: [NumberKey] = []
        for event in events where event.property == property {
            guard case .tween(let t) = event.leaf else { continue }
            let from = t.from?.numberValue ?? look, to = t.to?.numberValue ?? look
            for leg in legs(event, t) {
                guard budget.take(2) else { return keys }
                keys.append(NumberKey(time: leg.start, value: leg.forward ? from : to, easing: .linear))
                keys.append(NumberKey(time: leg.end, value: leg.forward ? to : from, easing: leg.easing))
            }
        }
        return Self.inTimeOrder(keys, time: \.time)
    }

    /// A fade over a whole step of `duration`: from 0 to the look's `opacity`
    /// (`in`), or from it to 0; no keys when the budget is spent.
    mutating func fadeKeys(duration: Double, opacity: Double, in fadesIn: Bool) -> [NumberKey] {
        guard budget.take(2) else { return [] }
        return [NumberKey(time: 0, value: fadesIn ? 0 : opacity, easing: .linear),
                NumberKey(time: duration, value: fadesIn ? opacity : 0, easing: .linear)]
    }

    /// Keys sorted by time; keys at one time keep the order they were made in.
    static func inTimeOrder<Key>(_ keys: [Key], time: (Key) -> Double) -> [Key] {
        keys.enumerated().sorted { (time($0.element), $0.offset) < (time($1.element), $1.offset) }.map(\.element)
    }

    /// Keys of the frame runs on the node: each frame at its time, and the
    /// look's own frame again once a run is over.
    mutating func frameKeys(_ events: [TimelineEvent], atlas: SceneAtlas) -> [FrameKey] {
        var keys: [FrameKey] = []
        for event in events {
            guard case .frames(let f) = event.leaf, !f.frames.isEmpty else { continue }
            let step = f.cycle / Double(f.frames.count)
            runs: for run in 0..<f.repeatCount {
                for (index, value) in f.frames.enumerated() {
                    guard budget.take() else { break runs }
                    keys.append(FrameKey(time: event.start + Double(run) * f.cycle + Double(index) * step,
                                         frame: atlas.frame(value)))
                }
            }
            if budget.take() { keys.append(FrameKey(time: event.end, frame: nil)) }
        }
        // A run's closing key stays before a later run's first frame at the same time.
        return Self.inTimeOrder(keys, time: \.time)
    }
}

/// A state value as JSON: tables that are lists as arrays, others as
/// objects keyed by their keys' text (in key order); numbers as numbers.
struct CodedStateValue: Codable {
    let value: StateValue

    init(_ value: StateValue) { self.value = value }

    func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch value {
        case .bool(let b): try c.encode(b)
        case .int(let i): try c.encode(i)
        case .double(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .table:
            if let items = value.listItems, !items.isEmpty {
                try c.encode(items.map(CodedStateValue.init))
            } else {
                var fields: [String: CodedStateValue] = [:]
                for entry in value.sortedEntries { fields[entry.key.description] = CodedStateValue(entry.value) }
                try c.encode(fields)
            }
        }
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) { value = .bool(b); return }
        if let i = try? c.decode(Int64.self) { value = .int(i); return }
        if let d = try? c.decode(Double.self) { value = .double(d); return }
        if let s = try? c.decode(String.self) { value = .string(s); return }
        if let items = try? c.decode([CodedStateValue].self) { value = .list(items.map(\.value)); return }
        let fields = try c.decode([String: CodedStateValue].self)
        value = .table(Dictionary(uniqueKeysWithValues: fields.map { (StateKey.string($0.key), $0.value.value) }))
    }
}
