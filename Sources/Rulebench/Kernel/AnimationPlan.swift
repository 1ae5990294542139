// The animation plan of an action, as Swift value types.
//
// The `anim` builder (Kernel/anim.lua) produces plain Lua tables; the kernel wraps
// them in a tree of action nodes. This file turns that tree into typed values
// a host app can walk without reading Lua, and derives undo plans by reversal.
// Timing lives in Timeline.swift; drawing in TimelineChart.swift.

/// How a tween's progress (0...1 in time) maps to progress in value (0...1).
///
/// Every curve starts at 0 and ends at 1. They are quadratic, so an easeIn
/// run played backwards is exactly an easeOut run.
public enum Easing: String, CaseIterable, Hashable, Sendable {
    /// Constant speed: `t`.
    case linear
    /// Starts slowly and speeds up: `t²`.
    case easeIn
    /// Starts fast and slows down: `1 - (1 - t)²`.
    case easeOut
    /// Slow, fast, slow: `2t²` for the first half, `1 - 2(1 - t)²` for the second.
    case easeInOut

    /// The value progress at time progress `t`; `t` is clamped to 0...1.
    public func apply(_ t: Double) -> Double {
        let t = t.isNaN ? 0 : min(max(t, 0), 1)
        switch self {
        case .linear: return t
        case .easeIn: return t * t
        case .easeOut: return 1 - (1 - t) * (1 - t)
        case .easeInOut: return t < 0.5 ? 2 * t * t : 1 - 2 * (1 - t) * (1 - t)
        }
    }

    /// The curve that plays this one backwards in time: easeIn and easeOut swap.
    public var reversed: Easing {
        switch self {
        case .easeIn: return .easeOut
        case .easeOut: return .easeIn
        case .linear, .easeInOut: return self
        }
    }
}

/// A node of an animation plan, as built by `anim.*` in Lua.
///
/// Leaves carry `source`, the Lua `file:line` that built them (or, when the
/// builder was called in tail position, the line of the action's `animate`).
public indirect enum AnimationPlan: Hashable, Sendable {
    /// A property of a target changing from one value to another over time.
    case tween(Tween)
    /// A property stepping through a list of values (sprite frames).
    case frames(Frames)
    /// Nothing happens for this many seconds.
    case wait(Double)
    /// A sound is played.
    case sound(Sound)
    /// A named host callback is invoked.
    case cue(Cue)
    /// The items one after the other.
    case sequence([AnimationPlan])
    /// The items all starting together.
    case parallel([AnimationPlan])
    /// Item `i` starts `i * interval` seconds after the first (counting from 0).
    case stagger(interval: Double, items: [AnimationPlan])

    /// `anim.tween`: `delay`, then `repeatCount` runs from `from` to `to`
    /// (there and back when `autoreverse`), each lasting `duration` per leg.
    public struct Tween: Hashable, Sendable {
        /// What is animated, e.g. `"player:p1"`.
        public var target: String
        /// Which property of it, e.g. `"position"`.
        public var property: String
        /// The value at the start of a run (a number, a list of numbers, or any other state value).
        public var from: StateValue?
        /// The value at the end of a run.
        public var to: StateValue?
        /// Seconds of one leg (from → to).
        public var duration: Double
        /// Seconds before the first run starts; it is not repeated.
        public var delay: Double
        /// The curve of each leg.
        public var easing: Easing
        /// How many runs; at least 1.
        public var repeatCount: Int
        /// Whether each run goes there and back (doubling its length).
        public var autoreverse: Bool
        /// The Lua `file:line` that built it.
        public var source: SourceLocation?

        /// A tween; the defaults are those of `anim.tween`.
        public init(target: String, property: String, from: StateValue?, to: StateValue?, duration: Double,
                    delay: Double = 0, easing: Easing = .linear, repeatCount: Int = 1, autoreverse: Bool = false,
                    source: SourceLocation? = nil) {
            self.target = target
            self.property = property
            self.from = from
            self.to = to
            self.duration = duration
            self.delay = delay
            self.easing = easing
            self.repeatCount = max(1, repeatCount)
            self.autoreverse = autoreverse
            self.source = source
        }

        /// Seconds of one run: `duration`, twice that when `autoreverse`.
        public var cycle: Double { autoreverse ? 2 * duration : duration }
        /// Seconds from the first run's start to the last run's end.
        public var activeDuration: Double { Double(repeatCount) * cycle }
        /// The value once every run is over: back at `from` when `autoreverse`.
        public var finalValue: StateValue? { autoreverse ? from : to }

        /// The same motion played backwards: `from` and `to` swapped, the easing mirrored.
        public var reversed: Tween {
            var copy = self
            copy.from = to
            copy.to = from
            copy.easing = easing.reversed
            return copy
        }
    }

    /// `anim.frames`: `delay`, then `repeatCount` runs through `frames`, at
    /// `fps` frames a second or in `duration` seconds a run.
    public struct Frames: Hashable, Sendable {
        /// What is animated.
        public var target: String
        /// Which property steps through the frames (`"frame"` by default in Lua).
        public var property: String
        /// The values shown in turn, each for an equal share of a run.
        public var frames: [StateValue]
        /// Frames per second; when nil, `duration` gives a run's length.
        public var fps: Double?
        /// Seconds of one run, when `fps` is nil.
        public var duration: Double?
        /// Seconds before the first run; it is not repeated.
        public var delay: Double
        /// How many runs; at least 1.
        public var repeatCount: Int
        /// The Lua `file:line` that built it.
        public var source: SourceLocation?

        /// A frame run; give `fps` or `duration`.
        public init(target: String, property: String = "frame", frames: [StateValue], fps: Double? = nil,
                    duration: Double? = nil, delay: Double = 0, repeatCount: Int = 1, source: SourceLocation? = nil) {
            self.target = target
            self.property = property
            self.frames = frames
            self.fps = fps
            self.duration = duration
            self.delay = delay
            self.repeatCount = max(1, repeatCount)
            self.source = source
        }

        /// Seconds of one run: the frame count over `fps`, else `duration` (0 when neither is usable).
        public var cycle: Double {
            if let fps, fps > 0 { return Double(frames.count) / fps }
            return duration ?? 0
        }
        /// Seconds from the first run's start to the last run's end.
        public var activeDuration: Double { Double(repeatCount) * cycle }

        /// The frames in reverse order.
        public var reversed: Frames {
            var copy = self
            copy.frames = frames.reversed()
            return copy
        }
    }

    /// `anim.sound`: a sound played `delay` seconds after the plan starts.
    public struct Sound: Hashable, Sendable {
        /// The sound's name; the host maps it to a file.
        public var name: String
        /// 0...1 in practice; 1 by default.
        public var volume: Double
        /// Seconds after the node starts.
        public var delay: Double
        /// The Lua `file:line` that built it (for an action's `sound` field: its `animate` line, if any).
        public var source: SourceLocation?
        /// `do_only = true`: it belongs to the do (a win's fanfare); the mirrored undo plan is silent there.
        public var doOnly: Bool

        /// A sound.
        public init(name: String, volume: Double = 1, delay: Double = 0, source: SourceLocation? = nil, doOnly: Bool = false) {
            self.name = name
            self.volume = volume
            self.delay = delay
            self.source = source
            self.doOnly = doOnly
        }
    }

    /// `anim.cue`: a named host callback with arguments, `delay` seconds after the plan starts.
    public struct Cue: Hashable, Sendable {
        /// The callback's name, e.g. `"shake_screen"`.
        public var name: String
        /// Its arguments (a table, possibly empty).
        public var args: StateValue
        /// Seconds after the node starts.
        public var delay: Double
        /// The Lua `file:line` that built it.
        public var source: SourceLocation?
        /// `do_only = true`: it belongs to the do (a win's cue); the mirrored undo plan does not fire it.
        public var doOnly: Bool

        /// A cue.
        public init(name: String, args: StateValue = .emptyTable, delay: Double = 0, source: SourceLocation? = nil, doOnly: Bool = false) {
            self.name = name
            self.args = args
            self.delay = delay
            self.source = source
            self.doOnly = doOnly
        }
    }

    /// Seconds from the plan's start to its end.
    ///
    /// A sound or cue takes its `delay` (it happens at the end of it), so in a
    /// sequence the next item starts once it has been played.
    public var duration: Double {
        switch self {
        case .tween(let t): return t.delay + t.activeDuration
        case .frames(let f): return f.delay + f.activeDuration
        case .wait(let seconds): return seconds
        case .sound(let s): return s.delay
        case .cue(let c): return c.delay
        case .sequence(let items): return items.reduce(0) { $0 + $1.duration }
        case .parallel(let items): return items.map(\.duration).max() ?? 0
        case .stagger(let interval, let items):
            return items.enumerated().map { Double($0.offset) * interval + $0.element.duration }.max() ?? 0
        }
    }

    /// The plan played backwards in time, as the undo of an action that gives no undo plan.
    ///
    /// The time-mirror: whatever ran from `s` to `e` in a plan lasting `D`
    /// runs from `D - e` to `D - s`. Tweens swap `from` and `to` (and mirror
    /// their easing; a run there and back stays as it is), frame runs reverse
    /// their frames, sequences and staggers run their items in reverse order.
    /// A delay in front of a leaf becomes a wait after it, and an item of a
    /// parallel or stagger that ends before the others starts that much later,
    /// so the last thing to finish on do is the first to start on undo. The
    /// shape stays the same where no such wait is needed. A sound or cue marked
    /// `doOnly` becomes a wait as long as its delay: the undo keeps the time and
    /// plays nothing there (undoing a win plays no fanfare).
    public var reversed: AnimationPlan {
        switch self {
        case .tween(let t):
            var back = t.autoreverse ? t : t.reversed
            back.delay = 0
            return Self.followed(.tween(back), by: t.delay)
        case .frames(let f):
            var back = f.reversed
            back.delay = 0
            return Self.followed(.frames(back), by: f.delay)
        case .wait: return self
        case .sound(let s) where s.doOnly: return .wait(s.delay)
        case .cue(let c) where c.doOnly: return .wait(c.delay)
        case .sound(var s):
            let delay = s.delay
            s.delay = 0
            return Self.followed(.sound(s), by: delay)
        case .cue(var c):
            let delay = c.delay
            c.delay = 0
            return Self.followed(.cue(c), by: delay)
        case .sequence(let items): return .sequence(items.reversed().map(\.reversed))
        case .parallel(let items):
            let total = duration
            return .parallel(items.map { Self.preceded($0.reversed, by: total - $0.duration) })
        case .stagger(let interval, let items):
            // Equally long items mirror to the same stagger, last item first.
            if Set(items.map(\.duration)).count <= 1 {
                return .stagger(interval: interval, items: items.reversed().map(\.reversed))
            }
            let total = duration
            return .parallel(items.enumerated().reversed().map { index, item in
                Self.preceded(item.reversed, by: total - (Double(index) * interval + item.duration))
            })
        }
    }

    /// `plan`, then `seconds` of waiting (just `plan` when there is none to wait).
    private static func followed(_ plan: AnimationPlan, by seconds: Double) -> AnimationPlan {
        seconds > 0 ? .sequence([plan, .wait(seconds)]) : plan
    }

    /// `seconds` of waiting, then `plan` (just `plan` when there is none to wait).
    private static func preceded(_ plan: AnimationPlan, by seconds: Double) -> AnimationPlan {
        seconds > 0 ? .sequence([.wait(seconds), plan]) : plan
    }

    /// Every leaf in plan order (not time order), for hosts that preload sounds or sprites.
    public var leaves: [AnimationPlan] {
        switch self {
        case .tween, .frames, .wait, .sound, .cue: return [self]
        case .sequence(let items), .parallel(let items), .stagger(_, let items): return items.flatMap(\.leaves)
        }
    }
}

// MARK: - Reading plans from the kernel's tables

extension AnimationPlan {
    /// Reads a plan table built by `anim.*`.
    ///
    /// A leaf with no `src` takes the nearest enclosing one, and at the top
    /// `fallbackSource` (the action's `animate` line). Plans built by hand in
    /// Lua reach here checked only for their `kind`, so missing fields take the
    /// builder's defaults and items that are not plans are left out; numbers
    /// are kept as given, so a non-finite duration stays visible to checks.
    /// Returns nil when `value` is not a plan at all.
    public init?(_ value: StateValue, fallbackSource: SourceLocation? = nil) {
        guard let kind = value["kind"]?.stringValue else { return nil }
        let source = SourceLocation(value["src"]?.stringValue) ?? fallbackSource
        func number(_ key: String, _ fallback: Double) -> Double { value[key]?.numberValue ?? fallback }
        func text(_ key: String) -> String { value[key]?.stringValue ?? "" }
        func count(_ key: String) -> Int {
            guard let n = value[key]?.numberValue, n.isFinite, n >= 1 else { return 1 }
            return n < Double(Int32.max) ? Int(n) : Int(Int32.max)
        }
        func children() -> [AnimationPlan] {
            (value["items"]?.listItems ?? []).compactMap { AnimationPlan($0, fallbackSource: source) }
        }
        switch kind {
        case "tween":
            self = .tween(Tween(target: text("target"), property: text("property"), from: value["from"], to: value["to"],
                                duration: number("duration", 0), delay: number("delay", 0),
                                easing: value["easing"]?.stringValue.flatMap(Easing.init(rawValue:)) ?? .linear,
                                repeatCount: count("repeat"), autoreverse: value["autoreverse"]?.boolValue ?? false,
                                source: source))
        case "frames":
            self = .frames(Frames(target: text("target"), property: value["property"]?.stringValue ?? "frame",
                                  frames: value["frames"]?.listItems ?? [], fps: value["fps"]?.numberValue,
                                  duration: value["duration"]?.numberValue, delay: number("delay", 0),
                                  repeatCount: count("repeat"), source: source))
        case "wait": self = .wait(number("duration", 0))
        case "sound":
            self = .sound(Sound(name: text("name"), volume: number("volume", 1), delay: number("delay", 0), source: source,
                                doOnly: value["do_only"]?.boolValue ?? false))
        case "cue":
            self = .cue(Cue(name: text("name"), args: value["args"] ?? .emptyTable, delay: number("delay", 0), source: source,
                            doOnly: value["do_only"]?.boolValue ?? false))
        case "sequence": self = .sequence(children())
        case "parallel": self = .parallel(children())
        case "stagger": self = .stagger(interval: number("interval", 0), items: children())
        default: return nil
        }
    }
}

// MARK: - Actions

/// The animation of one action: its own plan combined with its subactions'.
///
/// This mirrors the subaction tree. A host app can either walk it (to know
/// which action each part belongs to) or play `composedPlan`, and
/// `timeline()` gives the same thing as timed events.
public struct ActionAnimation: Hashable, Sendable {
    /// How the action's own plan and its subactions' plans combine (`subanimations`).
    public enum Mode: String, Hashable, Sendable, CaseIterable {
        /// Own plan and every subaction's plan start together (the default).
        case parallel
        /// Own plan first, then each subaction's plan in turn (mirrored on undo).
        case sequence
        /// Own plan first, then the subactions starting `step` seconds apart
        /// (`subanimations = "stagger"`, `stagger = step`; mirrored on undo).
        case stagger
    }

    /// Whether the plan animates the action being done or being undone.
    public enum Direction: String, Hashable, Sendable {
        /// The action was performed (or redone).
        case `do`
        /// The action was undone.
        case undo
    }

    /// The action's name.
    public var action: String
    /// How its parts combine.
    public var mode: Mode
    /// Do or undo; on undo a sequence runs the subactions last-first, then the own plan.
    public var direction: Direction
    /// The action's `sound`, played at the start of its plan.
    public var sound: String?
    /// The plan `animate` returned (on undo without an undo plan: the do plan reversed).
    public var own: AnimationPlan?
    /// The subactions' animations, in the order the subactions were queued.
    public var subactions: [ActionAnimation]
    /// The `file:line` of the action's `animate` function, if it has one.
    public var source: SourceLocation?
    /// Seconds between the starts of two subactions in `.stagger` mode (the action's `stagger`).
    public var step: Double
    /// Seconds this subaction starts later than its parent's `mode` places it
    /// (`act:sub(name, params, { delay = ... })`); 0 for a performed action.
    public var delay: Double

    /// An action animation from its parts.
    public init(action: String, mode: Mode = .parallel, direction: Direction = .do, sound: String? = nil,
                own: AnimationPlan? = nil, subactions: [ActionAnimation] = [], source: SourceLocation? = nil,
                step: Double = 0, delay: Double = 0) {
        self.action = action
        self.mode = mode
        self.direction = direction
        self.sound = sound
        self.own = own
        self.subactions = subactions
        self.source = source
        self.step = step
        self.delay = delay
    }

    /// Reads the kernel's action-node tree exactly as it is (no reversal).
    ///
    /// - Parameters:
    ///   - node: `{action, mode, sound, src, own, subs, step, delays}`; nil gives an empty animation.
    ///   - direction: which way the node tree was built.
    ///   - fallbackAction: the name to use when the node has none.
    public init(node: StateValue?, direction: Direction = .do, fallbackAction: String = "?") {
        let source = SourceLocation(node?["src"]?.stringValue)
        self.init(action: node?["action"]?.stringValue ?? fallbackAction,
                  mode: node?["mode"]?.stringValue.flatMap(Mode.init(rawValue:)) ?? .parallel,
                  direction: direction,
                  sound: node?["sound"]?.stringValue,
                  own: node?["own"].flatMap { AnimationPlan($0, fallbackSource: source) },
                  subactions: ActionAnimation.subactions(of: node, direction: direction),
                  source: source, step: node?["step"]?.numberValue ?? 0)
    }

    /// The subactions of a kernel node, each with its delay from the node's
    /// `delays` list (present only when `act:sub` gave one).
    private static func subactions(of node: StateValue?, direction: Direction) -> [ActionAnimation] {
        let delays = node?["delays"]?.listItems ?? []
        return (node?["subs"]?.listItems ?? []).enumerated().map { index, sub in
            var animation = ActionAnimation(node: sub, direction: direction)
            if index < delays.count, let delay = delays[index].numberValue { animation.delay = delay }
            return animation
        }
    }

    /// The undo animation: the kernel's undo node tree, where each node with
    /// no own plan plays the own plan of the do node at the same position reversed.
    ///
    /// - Parameters:
    ///   - undoNode: the tree built with direction "undo".
    ///   - doNode: the tree built when the action was performed.
    ///   - fallbackAction: the action path to show for a node that names none.
    public static func undo(undoNode: StateValue?, doNode: StateValue?, fallbackAction: String = "?") -> ActionAnimation {
        var result = ActionAnimation(node: undoNode, direction: .undo, fallbackAction: fallbackAction)
        result.fillReversed(from: ActionAnimation(node: doNode, direction: .do, fallbackAction: fallbackAction))
        return result
    }

    private mutating func fillReversed(from done: ActionAnimation) {
        if own == nil { own = done.own?.reversed }
        for index in subactions.indices where index < done.subactions.count {
            subactions[index].fillReversed(from: done.subactions[index])
        }
    }

    /// The subactions in the order their plans play in a sequence:
    /// as queued when doing, last-first when undoing.
    public var playOrder: [ActionAnimation] {
        direction == .undo ? subactions.reversed() : subactions
    }

    /// One part of an action's animation placed in time: its own plan
    /// (`subaction` nil) or the subaction at that index, `offset` seconds
    /// after the action's start.
    public struct Placement: Hashable, Sendable {
        /// The index in `subactions`, or nil for the own plan.
        public var subaction: Int?
        /// Seconds after the action's start.
        public var offset: Double
        /// Seconds the part lasts.
        public var duration: Double
    }

    /// Where the own plan and each subaction start, in play order.
    ///
    /// Doing: the own plan at 0; the subactions at their `delay` (parallel),
    /// back to back after the own plan (sequence), or after the own plan
    /// `step` seconds apart (stagger), each `delay` later still. Undoing: the
    /// same layout mirrored in time, so a part that ended at `e` of `D`
    /// seconds starts at `D - e`: the last to finish is the first to go back.
    public var placements: [Placement] {
        var parts: [Placement] = []
        let ownLength = own?.duration ?? 0
        if own != nil { parts.append(Placement(subaction: nil, offset: 0, duration: ownLength)) }
        var cursor = mode == .parallel ? 0 : ownLength
        for (index, sub) in subactions.enumerated() {
            let length = sub.duration
            let start: Double
            switch mode {
            case .parallel: start = sub.delay
            case .sequence: start = cursor + sub.delay; cursor = start + length
            case .stagger: start = cursor + Double(index) * step + sub.delay
            }
            parts.append(Placement(subaction: index, offset: start, duration: length))
        }
        guard direction == .undo else { return parts }
        let total = parts.map { $0.offset + $0.duration }.max() ?? 0
        return parts.map { Placement(subaction: $0.subaction, offset: max(0, total - $0.offset - $0.duration), duration: $0.duration) }
            .reversed()
    }

    /// The whole animation as one plan: the sound, then (in parallel with it)
    /// the own plan and the subactions' plans, each after a wait of its
    /// placement's offset (see `placements`).
    public var composedPlan: AnimationPlan {
        let soundPlan = sound.map { AnimationPlan.sound(.init(name: $0, source: source)) }
        let parts: [AnimationPlan] = placements.map { part in
            let plan = part.subaction.map { subactions[$0].composedPlan } ?? own ?? .wait(0)
            return part.offset > 0 ? .sequence([.wait(part.offset), plan]) : plan
        }
        return .parallel([soundPlan].compactMap { $0 } + parts)
    }

    /// Seconds from the start of the action's animation to its end.
    public var duration: Double { placements.map { $0.offset + $0.duration }.max() ?? 0 }
}

extension HistoryEntry {
    /// The animation of the performed action (do direction), parsed from `animationPlanValue`.
    public var animation: ActionAnimation {
        ActionAnimation(node: animationPlanValue, direction: .do, fallbackAction: call.name)
    }
}

extension UndoOutcome {
    /// The animation of the undo: the rules' undo plans where `animate`
    /// returned one, and elsewhere the do plan of the undone entry, reversed.
    public var animation: ActionAnimation {
        ActionAnimation.undo(undoNode: animationPlanValue, doNode: entry.animationPlanValue, fallbackAction: entry.call.name)
    }
}
