// Flattening an animation plan into timed events, finding conflicts, and
// sampling what a presentation layer would show at a given time.

/// One timed thing in a flattened plan: a tween, a frame run, a sound or a cue.
///
/// For tweens and frame runs `start` is when the motion begins (after the
/// leaf's delay) and `end` when its last run finishes. Sounds and cues are
/// instants: `start == end`.
public struct TimelineEvent: Hashable, Sendable {
    /// What kind of leaf produced the event.
    public enum Kind: String, Hashable, Sendable {
        /// From `anim.tween`.
        case tween
        /// From `anim.frames`.
        case frames
        /// From `anim.sound` or an action's `sound`.
        case sound
        /// From `anim.cue`.
        case cue
    }

    /// The leaf that produced the event, with all its fields.
    public enum Leaf: Hashable, Sendable {
        /// A tween.
        case tween(AnimationPlan.Tween)
        /// A frame run.
        case frames(AnimationPlan.Frames)
        /// A sound.
        case sound(AnimationPlan.Sound)
        /// A cue.
        case cue(AnimationPlan.Cue)
    }

    /// TimelineSeconds from the start of the timeline.
    public var start: Double
    /// TimelineSeconds from the start of the timeline; equal to `start` for sounds and cues.
    public var end: Double
    /// The leaf, for the fields this struct does not lift out.
    public var leaf: Leaf
    /// The action that produced it: names from the performed action down,
    /// joined by `" > "`, with `#n` when a subaction name repeats among siblings.
    public var actionPath: String
    /// The Lua `file:line` that built the leaf, or the action's `animate` line.
    public var source: SourceLocation?

    /// A timed event.
    public init(start: Double, end: Double, leaf: Leaf, actionPath: String, source: SourceLocation?) {
        self.start = start
        self.end = end
        self.leaf = leaf
        self.actionPath = actionPath
        self.source = source
    }

    /// The kind of leaf.
    public var kind: Kind {
        switch leaf {
        case .tween: return .tween
        case .frames: return .frames
        case .sound: return .sound
        case .cue: return .cue
        }
    }

    /// The animated target; nil for sounds and cues.
    public var target: String? {
        switch leaf {
        case .tween(let t): return t.target
        case .frames(let f): return f.target
        case .sound, .cue: return nil
        }
    }

    /// The animated property; nil for sounds and cues.
    public var property: String? {
        switch leaf {
        case .tween(let t): return t.property
        case .frames(let f): return f.property
        case .sound, .cue: return nil
        }
    }

    /// `"target.property"` for tweens and frame runs, the row a chart draws it on.
    public var key: String? {
        guard let target, let property else { return nil }
        return target + "." + property
    }

    /// A tween's `from`, or a frame run's first frame.
    public var from: StateValue? {
        switch leaf {
        case .tween(let t): return t.from
        case .frames(let f): return f.frames.first
        case .sound, .cue: return nil
        }
    }

    /// A tween's `to`, or a frame run's last frame.
    public var to: StateValue? {
        switch leaf {
        case .tween(let t): return t.to
        case .frames(let f): return f.frames.last
        case .sound, .cue: return nil
        }
    }

    /// A tween's easing; nil for other kinds.
    public var easing: Easing? {
        if case .tween(let t) = leaf { return t.easing }
        return nil
    }

    /// The sound's or cue's name; nil for tweens and frame runs.
    public var name: String? {
        switch leaf {
        case .sound(let s): return s.name
        case .cue(let c): return c.name
        case .tween, .frames: return nil
        }
    }

    /// Whether the event animates a property (a tween or a frame run).
    public var isAnimated: Bool { key != nil }

    /// The property's value at `time`, for a tween or frame run that has started.
    ///
    /// At `start` it is the first value (`from`, the first frame); at and
    /// after `end` it is the final one (`to`, or `from` after an autoreverse;
    /// the last frame). Numbers and equally long lists of numbers are
    /// interpolated with the easing; other values hold the value a leg starts
    /// from until that leg ends. A repeated run restarts from its first value.
    /// Nil before `start`, for sounds and cues, and when the value is absent.
    public func value(at time: Double) -> StateValue? {
        guard time >= start else { return nil }
        switch leaf {
        case .tween(let t):
            if time >= end || t.duration <= 0 { return t.finalValue }
            let position = (time - start).truncatingRemainder(dividingBy: t.cycle)
            if position < t.duration {
                return TimelineInterpolation.value(t.from, t.to, fraction: t.easing.apply(position / t.duration), holding: t.from)
            }
            // The way back plays the way there mirrored in time.
            let back = (position - t.duration) / t.duration
            return TimelineInterpolation.value(t.from, t.to, fraction: t.easing.apply(1 - back), holding: t.to)
        case .frames(let f):
            guard !f.frames.isEmpty else { return nil }
            let cycle = f.cycle
            // `!(cycle > 0)` also catches a NaN length from a hand-built plan.
            if time >= end || !(cycle > 0) { return f.frames.last }
            let position = (time - start).truncatingRemainder(dividingBy: cycle)
            let scaled = (position / cycle * Double(f.frames.count)).rounded(.down)
            let index = scaled.isFinite ? Int(max(0, min(scaled, Double(f.frames.count - 1)))) : 0
            return f.frames[index]
        case .sound, .cue:
            return nil
        }
    }
}

/// TimelineInterpolation of state values between a tween's endpoints.
enum TimelineInterpolation {
    /// `from` at fraction 0 and `to` at fraction 1, exactly; numbers and lists
    /// of numbers in between are blended as floats; anything else shows `held`.
    static func value(_ from: StateValue?, _ to: StateValue?, fraction: Double, holding held: StateValue?) -> StateValue? {
        if fraction <= 0, let from { return from }
        if fraction >= 1, let to { return to }
        if let a = from?.numberValue, let b = to?.numberValue { return .double(a + (b - a) * fraction) }
        if let a = from?.listItems, let b = to?.listItems, a.count == b.count, !a.isEmpty {
            var blended: [StateValue] = []
            for (x, y) in zip(a, b) {
                guard let p = x.numberValue, let q = y.numberValue else { return held ?? to }
                blended.append(.double(p + (q - p) * fraction))
            }
            return .list(blended)
        }
        return held ?? to
    }
}

/// Two tweens or frame runs on the same target and property whose times overlap.
///
/// Intervals that only touch (one ends when the other starts) do not
/// overlap. Two instantaneous runs at the same instant do, and so does an
/// instantaneous run strictly inside a longer one: which value shows is then
/// up to the order the host happens to apply them in.
public struct AnimationConflict: Hashable, Sendable, CustomStringConvertible {
    /// `"target.property"`.
    public var key: String
    /// The event that starts first (in timeline order).
    public var first: TimelineEvent
    /// The event that starts later (or equally early, later in timeline order).
    public var second: TimelineEvent
    /// Start of the overlap, in seconds.
    public var overlapStart: Double
    /// End of the overlap.
    public var overlapEnd: Double

    /// A conflict between two events on `key`.
    public init(key: String, first: TimelineEvent, second: TimelineEvent) {
        self.key = key
        self.first = first
        self.second = second
        overlapStart = max(first.start, second.start)
        overlapEnd = min(first.end, second.end)
    }

    /// `token:p1.square: tween 0–0.25s (dash > step#1, step.lua:30) overlaps tween 0.1–0.35s (dash > step#2, step.lua:30)`.
    public var description: String {
        func describe(_ e: TimelineEvent) -> String {
            "\(e.kind.rawValue) \(TimelineSeconds.text(e.start))–\(TimelineSeconds.text(e.end))s (\(e.actionPath), \(e.source?.description ?? "unknown source"))"
        }
        return "\(key): \(describe(first)) overlaps \(describe(second))"
    }
}

/// A flattened animation plan: every event at its time, with conflicts found.
public struct Timeline: Hashable, Sendable {
    /// TimelineSeconds from the start to the end of the plan, waits included.
    public private(set) var duration: Double
    /// Every event, ordered by start, then target, property and source
    /// (sounds and cues, which have no target, come first at their instant,
    /// in plan order), then plan order.
    public private(set) var events: [TimelineEvent]
    /// Overlapping tweens or frame runs on the same target and property, in event order.
    public private(set) var conflicts: [AnimationConflict]

    /// A timeline of `events` (in plan order) lasting `duration`.
    public init(events: [TimelineEvent], duration: Double) {
        self.duration = duration
        self.events = Timeline.ordered(events)
        self.conflicts = Timeline.findConflicts(in: self.events)
    }

    /// The timeline of a bare plan, its events attributed to `actionPath`.
    public init(plan: AnimationPlan, actionPath: String = "") {
        var builder = TimelineBuilder()
        let end = builder.schedule(plan, at: 0, path: actionPath)
        self.init(events: builder.events, duration: end)
    }

    /// The names of the sounds, in the order they play.
    public var soundNames: [String] {
        events.compactMap { if case .sound(let s) = $0.leaf { return s.name } else { return nil } }
    }

    /// The `target.property` keys animated, in the order they first start.
    public var keys: [String] {
        var seen = Set<String>()
        return events.compactMap(\.key).filter { seen.insert($0).inserted }
    }

    /// What a presentation layer shows at `time`: `"target.property"` → value.
    ///
    /// A property appears once one of its events has started (`start <= time`);
    /// before that the timeline does not know its value, so it is left out.
    /// When several of its events have started, a running one wins over a
    /// finished one (running means `start <= time < end`), and among those the
    /// latest to start (later in event order on a tie); among finished ones the
    /// latest to end. So at the instant one tween ends and the next starts, the
    /// next one's `from` shows; at a tween's `end` its final value shows.
    /// Values come from `TimelineEvent.value(at:)`; absent values are left out.
    public func sample(at time: Double) -> [String: StateValue] {
        var owner: [String: (event: TimelineEvent, running: Bool)] = [:]
        for event in events where event.isAnimated && event.start <= time {
            let key = event.key!
            let running = time < event.end
            guard let current = owner[key] else { owner[key] = (event, running); continue }
            let wins: Bool
            if running != current.running {
                wins = running
            } else if running {
                wins = event.start >= current.event.start
            } else {
                wins = event.end >= current.event.end
            }
            if wins { owner[key] = (event, running) }
        }
        var values: [String: StateValue] = [:]
        for (key, entry) in owner {
            if let value = entry.event.value(at: time) { values[key] = value }
        }
        return values
    }

    // MARK: Ordering and conflicts

    private static func ordered(_ events: [TimelineEvent]) -> [TimelineEvent] {
        // The plan index is the last key, so equal events keep plan order and
        // the result never depends on the sort algorithm.
        events.enumerated().sorted { lhs, rhs in
            let a = lhs.element, b = rhs.element
            if a.start != b.start { return a.start < b.start }
            if (a.target ?? "") != (b.target ?? "") { return (a.target ?? "") < (b.target ?? "") }
            if (a.property ?? "") != (b.property ?? "") { return (a.property ?? "") < (b.property ?? "") }
            // Sounds and cues at one instant keep plan order (an action's sound
            // before its subactions', whatever their files are called), so
            // their source does not take part in the key.
            let sourceA = a.isAnimated ? a.source?.description ?? "" : "", sourceB = b.isAnimated ? b.source?.description ?? "" : ""
            if sourceA != sourceB { return sourceA < sourceB }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// Whether two runs on one property overlap in time; symmetric.
    ///
    /// Runs with a length overlap when each starts before the other ends.
    /// An instant (a zero-length run) clashes with another instant at the
    /// same time, and with a run only strictly inside it: at the run's start
    /// or end it merely touches it.
    static func overlap(_ a: TimelineEvent, _ b: TimelineEvent) -> Bool {
        switch (a.start == a.end, b.start == b.end) {
        case (true, true): return a.start == b.start
        case (true, false): return b.start < a.start && a.start < b.end
        case (false, true): return a.start < b.start && b.start < a.end
        case (false, false): return a.start < b.end && b.start < a.end
        }
    }

    private static func findConflicts(in events: [TimelineEvent]) -> [AnimationConflict] {
        var byKey: [String: [TimelineEvent]] = [:]
        var keyOrder: [String] = []
        for event in events {
            guard let key = event.key else { continue }
            if byKey[key] == nil { keyOrder.append(key) }
            byKey[key, default: []].append(event)
        }
        var conflicts: [AnimationConflict] = []
        for key in keyOrder {
            let runs = byKey[key]!   // already ordered by start
            for i in runs.indices {
                for j in (i + 1)..<runs.count {
                    let a = runs[i], b = runs[j]
                    if b.start > a.end { break }   // nothing later can overlap a
                    if overlap(a, b) { conflicts.append(AnimationConflict(key: key, first: a, second: b)) }
                }
            }
        }
        return conflicts
    }
}

extension ActionAnimation {
    /// The action's animation flattened into timed events from time 0.
    ///
    /// Timing: a tween or frame run starts after its delay and lasts its runs;
    /// a wait occupies its seconds; a sound or cue happens at its delay; a
    /// sequence runs items back to back; a parallel starts them together and
    /// lasts as long as the longest; a stagger starts item `i` at `i * interval`.
    /// The action's sound plays at its start; its own plan and subactions
    /// combine as `mode` and `direction` say (see `composedPlan`).
    public func timeline() -> Timeline {
        var builder = TimelineBuilder()
        let end = builder.schedule(self, at: 0, path: action)
        return Timeline(events: builder.events, duration: end)
    }
}

extension Timeline {
    /// The timeline of several actions' animations played one after the
    /// other (a step that undoes or redoes several actions), each event
    /// attributed to its own action and subaction. When some are undos and
    /// some are not, the undos' paths start with "undo ".
    public init(playing animations: [ActionAnimation]) {
        var builder = TimelineBuilder()
        var end = 0.0
        let mixed = Set(animations.map(\.direction)).count > 1
        for animation in animations {
            let path = mixed && animation.direction == .undo ? "undo " + animation.action : animation.action
            end = builder.schedule(animation, at: end, path: path)
        }
        self.init(events: builder.events, duration: end)
    }
}

extension Timeline {
    /// Why this timeline is not `done` played backwards, or nil when it is.
    ///
    /// Backwards means mirrored in time: the same length, and for every
    /// tween and frame run of `done` that ran from `s` to `e` one here on the
    /// same target and property from `D - e` to `D - s`, from its `to` to its
    /// `from` (a run there and back keeps them). Sounds and cues are not
    /// compared: an action's `sound` plays at its start either way.
    public func mirrorDifference(of done: Timeline) -> String? {
        func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(a), abs(b)) }
        if !close(duration, done.duration) {
            return "it lasts \(TimelineSeconds.text(duration)) s, the do animation \(TimelineSeconds.text(done.duration)) s"
        }
        var left = events.filter(\.isAnimated)
        for event in done.events where event.isAnimated {
            let keeps: Bool
            if case .tween(let t) = event.leaf { keeps = t.autoreverse } else { keeps = false }
            let start = done.duration - event.end, end = done.duration - event.start
            let from = keeps ? event.from : event.to, to = keeps ? event.to : event.from
            guard let index = left.firstIndex(where: { $0.key == event.key && close($0.start, start) && close($0.end, end)
                    && $0.from == from && $0.to == to }) else {
                let shown = { (v: StateValue?) in v.map { "\($0)" } ?? "nil" }
                return "no \(event.kind.rawValue) on \(event.key!) from \(shown(from)) to \(shown(to)) at "
                    + "\(TimelineSeconds.text(start))–\(TimelineSeconds.text(end)) s (mirroring the do run at "
                    + "\(TimelineSeconds.text(event.start))–\(TimelineSeconds.text(event.end)) s"
                    + (event.actionPath.isEmpty ? ")" : " of \(event.actionPath))")
                    + (left.first { $0.key == event.key }.map { ": the undo has one from \(shown($0.from)) to \(shown($0.to)) at \(TimelineSeconds.text($0.start))–\(TimelineSeconds.text($0.end)) s" } ?? "")
            }
            left.remove(at: index)
        }
        if let extra = left.first {
            return "an extra \(extra.kind.rawValue) on \(extra.key!) at \(TimelineSeconds.text(extra.start))–\(TimelineSeconds.text(extra.end)) s"
        }
        return nil
    }
}

/// Walks plans, placing each leaf at its time; events come out in plan order.
struct TimelineBuilder {
    private(set) var events: [TimelineEvent] = []

    /// Places an action's sound, own plan and subactions from `start`; returns their end.
    mutating func schedule(_ action: ActionAnimation, at start: Double, path: String) -> Double {
        if let sound = action.sound {
            events.append(TimelineEvent(start: start, end: start,
                                        leaf: .sound(.init(name: sound, source: action.source)),
                                        actionPath: path, source: action.source))
        }
        let paths = Self.subactionPaths(of: action, under: path)
        var end = start
        for part in action.placements {
            let at = start + part.offset
            if let index = part.subaction {
                end = max(end, schedule(action.subactions[index], at: at, path: paths[index]))
            } else if let own = action.own {
                end = max(end, schedule(own, at: at, path: path))
            }
        }
        return end
    }

    /// Places a plan from `start`; returns its end.
    mutating func schedule(_ plan: AnimationPlan, at start: Double, path: String) -> Double {
        switch plan {
        case .tween(let t):
            let begin = start + t.delay
            events.append(TimelineEvent(start: begin, end: begin + t.activeDuration, leaf: .tween(t),
                                        actionPath: path, source: t.source))
            return begin + t.activeDuration
        case .frames(let f):
            let begin = start + f.delay
            events.append(TimelineEvent(start: begin, end: begin + f.activeDuration, leaf: .frames(f),
                                        actionPath: path, source: f.source))
            return begin + f.activeDuration
        case .wait(let seconds):
            return start + seconds
        case .sound(let s):
            events.append(TimelineEvent(start: start + s.delay, end: start + s.delay, leaf: .sound(s),
                                        actionPath: path, source: s.source))
            return start + s.delay
        case .cue(let c):
            events.append(TimelineEvent(start: start + c.delay, end: start + c.delay, leaf: .cue(c),
                                        actionPath: path, source: c.source))
            return start + c.delay
        case .sequence(let items):
            return items.reduce(start) { schedule($1, at: $0, path: path) }
        case .parallel(let items):
            return items.reduce(start) { max($0, schedule($1, at: start, path: path)) }
        case .stagger(let interval, let items):
            var end = start
            for (index, item) in items.enumerated() {
                end = max(end, schedule(item, at: start + Double(index) * interval, path: path))
            }
            return end
        }
    }

    /// `parent > name`, with `#n` added when `name` occurs more than once among the siblings.
    static func subactionPaths(of action: ActionAnimation, under path: String) -> [String] {
        var totals: [String: Int] = [:]
        for sub in action.subactions { totals[sub.action, default: 0] += 1 }
        var seen: [String: Int] = [:]
        return action.subactions.map { sub in
            seen[sub.action, default: 0] += 1
            let suffix = totals[sub.action]! > 1 ? "#\(seen[sub.action]!)" : ""
            return path + " > " + sub.action + suffix
        }
    }
}

/// TimelineSeconds as short text: up to three decimals, no trailing zeros (`0.25`, `1`, `0.333`).
enum TimelineSeconds {
    static func text(_ seconds: Double) -> String {
        guard seconds.isFinite else { return seconds.isNaN ? "nan" : (seconds > 0 ? "inf" : "-inf") }
        let thousandths = (seconds * 1000).rounded()
        guard abs(thousandths) < 1e15 else { return "\(seconds)" }
        let whole = Int64(thousandths)
        let sign = whole < 0 ? "-" : ""
        let magnitude = whole.magnitude
        var text = sign + String(magnitude / 1000)
        let fraction = magnitude % 1000
        if fraction != 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: 3 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text
    }
}
