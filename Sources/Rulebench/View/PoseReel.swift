// A step's animation as the poses a page draws: every node's pose
// (NodeTrack.pose: where it is and how it looks) sampled at a fixed rate,
// so a host shows exactly what the library computed and computes nothing
// itself: no easing, no interpolation, no reading of keys.
//
// Invariant: sample `i` is `NodeTrack.pose(at: time(ofSample: i))` for every
// track, exactly (the tests compare every sample). A track is stored as runs:
// a run starts at a sample and holds its pose until the next run starts, so
// a node at rest costs one run, however long the step. The samples a reel
// holds are bounded (`limit`): a plan moving many nodes for a long time is
// sampled at a lower rate, never cut.

/// Every node's pose in a step, sampled `rate` times a second.
public struct PoseReel: Hashable, Sendable {
    /// Samples a second when the budget allows: a display's frame rate.
    public static let fullRate = 60.0
    /// Samples at most over all moving stretches of all tracks (`rate` is
    /// lowered to keep within it); the runs of a reel are at most this plus
    /// four for each key and each track.
    public static let limit = 100_000

    /// A node's pose: which look it shows (an index into `looks`), where, and
    /// how it is turned, faded, scaled and which sprite frame it shows.
    public struct Pose: Hashable, Sendable {
        public var look: Int
        public var x: Double
        public var y: Double
        public var opacity: Double
        public var rotation: Double
        public var scale: Double
        /// The sprite frame shown (nil: the look has no sprite).
        public var frame: Int?
    }

    /// One node's poses: each run from its first sample on (nil: hidden), in sample order.
    public struct Track: Hashable, Sendable {
        public var id: String
        public var runs: [(start: Int, pose: Pose?)]

        public static func == (a: Track, b: Track) -> Bool {
            a.id == b.id && a.runs.elementsEqual(b.runs) { $0.start == $1.start && $0.pose == $1.pose }
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(id)
            for run in runs {
                hasher.combine(run.start)
                hasher.combine(run.pose)
            }
        }

        /// The pose at sample `i` (the last run starting at or before it).
        public func pose(atSample i: Int) -> Pose? {
            var low = 0, high = runs.count
            while low < high {
                let middle = (low + high) / 2
                if runs[middle].start <= i { low = middle + 1 } else { high = middle }
            }
            return low == 0 ? nil : runs[low - 1].pose
        }
    }

    /// Samples a second (`fullRate`, or lower for a plan that moves much for long).
    public var rate: Double
    /// Samples: 0 ..< count, the last at the end of the step.
    public var count: Int
    /// Seconds from the start to the end of the animation.
    public var duration: Double
    /// The looks the poses show, each once.
    public var looks: [SceneNode]
    /// A track per node, in the keyframes' order.
    public var tracks: [Track]
    /// The sounds, in the order they play.
    public var sounds: [TimedSound]
    /// The cues, in the order they happen.
    public var cues: [TimedCue]
    /// True when the keyframes left keys out (`PlanKeyframes.truncated`).
    public var truncated: Bool

    /// The time of sample `i`: `i / rate`, the last one at the end of the step.
    public func time(ofSample i: Int) -> Double {
        min(Double(i) / rate, duration)
    }

    /// The sample shown at `time` (seconds from the start): the nearest one.
    /// A host picks its sample so, and draws it.
    public func sample(at time: Double) -> Int {
        max(0, min(count - 1, Int((time * rate).rounded())))
    }

    /// The nodes shown at sample `i`, as shown, in drawing order (layer, then track order).
    public func nodes(atSample i: Int) -> [SceneNode] {
        let shown = tracks.compactMap { track in track.pose(atSample: i).map { node($0) } }
        return shown.enumerated().sorted { ($0.element.layer, $0.offset) < ($1.element.layer, $1.offset) }.map(\.element)
    }

    /// A pose as a node: its look, placed and turned.
    public func node(_ pose: Pose) -> SceneNode {
        var node = looks[pose.look]
        node.x = pose.x
        node.y = pose.y
        node.opacity = pose.opacity
        node.rotation = pose.rotation
        node.scale = pose.scale
        if let frame = pose.frame { node.sprite?.frame = frame }
        return node
    }
}

// MARK: - Sampling keyframes

extension PoseReel {
    /// The reel of `keyframes`: each track's pose at every sample where it may
    /// differ from the sample before (every sample of a stretch where a key
    /// pair moves it, and the samples around each key's time), so the runs
    /// are exact at every sample.
    public init(_ keyframes: PlanKeyframes) {
        duration = keyframes.duration
        sounds = keyframes.sounds
        cues = keyframes.cues
        truncated = keyframes.truncated
        let moving = keyframes.tracks.reduce(0.0) { sum, track in sum + Self.movingSeconds(track) }
        rate = moving * Self.fullRate <= Double(Self.limit) ? Self.fullRate : Double(Self.limit) / moving
        count = Int(min((duration * rate).rounded(.up), Double(Int32.max))) + 1
        var looks = LookIndex()
        var tracks: [Track] = []
        tracks.reserveCapacity(keyframes.tracks.count)
        for track in keyframes.tracks {
            tracks.append(Self.sampled(track, rate: rate, count: count, duration: duration, looks: &looks))
        }
        self.looks = looks.list
        self.tracks = tracks
    }

    /// The runs of one track.
    private static func sampled(_ track: NodeTrack, rate: Double, count: Int, duration: Double, looks: inout LookIndex) -> Track {
        var runs: [(start: Int, pose: Pose?)] = []
        for i in candidates(track, rate: rate, count: count) {
            let time = min(Double(i) / rate, duration)
            let pose = track.pose(at: time).flatMap { node in
                track.look(at: time).map { look in
                    Pose(look: looks.index(look), x: node.x, y: node.y, opacity: node.opacity, rotation: node.rotation,
                         scale: node.scale, frame: node.sprite?.frame)
                }
            }
            if let last = runs.last, last.pose == pose { continue }
            runs.append((i, pose))
        }
        return Track(id: track.id, runs: runs)
    }

    /// The samples where a track's pose may change, in order: 0, the two
    /// samples around each key's (and appear's, vanish's, change's) time, and
    /// every sample of a stretch between two keys of different values.
    private static func candidates(_ track: NodeTrack, rate: Double, count: Int) -> [Int] {
        var out: [Int] = [0]
        func around(_ time: Double) {
            let at = Int(min(max(0, (time * rate).rounded(.down)), Double(count - 1)))
            out.append(at)
            if at + 1 < count { out.append(at + 1) }
        }
        func stretch(_ from: Double, _ to: Double) {
            let first = Int(min(max(0, (from * rate).rounded(.down)), Double(count - 1)))
            let last = Int(min(max(0, (to * rate).rounded(.up)), Double(count - 1)))
            if first <= last { out.append(contentsOf: first...last) }
        }
        for time in [track.appear, track.vanish, track.change].compactMap({ $0 }) { around(time) }
        for key in track.frame { around(key.time) }
        for (a, b) in zip(track.place, track.place.dropFirst()) {
            around(b.time)
            if a.x != b.x || a.y != b.y { stretch(a.time, b.time) }
        }
        if let first = track.place.first { around(first.time) }
        for keys in [track.opacity, track.rotation, track.scale] {
            if let first = keys.first { around(first.time) }
            for (a, b) in zip(keys, keys.dropFirst()) {
                around(b.time)
                if a.value != b.value { stretch(a.time, b.time) }
            }
        }
        return Array(Set(out)).sorted()
    }

    /// Seconds over which a track's keys move it (stretches between two keys of different values).
    private static func movingSeconds(_ track: NodeTrack) -> Double {
        var seconds = 0.0
        for (a, b) in zip(track.place, track.place.dropFirst()) where a.x != b.x || a.y != b.y { seconds += b.time - a.time }
        for keys in [track.opacity, track.rotation, track.scale] {
            for (a, b) in zip(keys, keys.dropFirst()) where a.value != b.value { seconds += b.time - a.time }
        }
        return seconds
    }
}

/// The distinct looks of a reel, each with its index.
private struct LookIndex {
    private(set) var list: [SceneNode] = []
    private var indices: [SceneNode: Int] = [:]

    mutating func index(_ look: SceneNode) -> Int {
        if let known = indices[look] { return known }
        indices[look] = list.count
        list.append(look)
        return list.count - 1
    }
}

// MARK: - JSON

extension PoseReel: Encodable {
    enum CodingKeys: String, CodingKey { case rate, count, duration, looks, tracks, sounds, cues, truncated }

    /// `{rate, count, duration, looks, tracks: [{id, runs}], sounds, cues, truncated}`: a run is
    /// `[start]` (hidden) or `[start, look, x, y, opacity, rotation, scale, frame or null]`.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rate, forKey: .rate)
        try c.encode(count, forKey: .count)
        try c.encode(duration, forKey: .duration)
        try c.encode(looks, forKey: .looks)
        try c.encode(tracks.map(EncodedTrack.init), forKey: .tracks)
        try c.encode(sounds, forKey: .sounds)
        try c.encode(cues, forKey: .cues)
        try c.encode(truncated, forKey: .truncated)
    }

    /// The reel as JSON text, keys sorted (the same reel gives the same text).
    public func json() throws -> String { try ViewJSON.text(self) }

    private struct EncodedTrack: Encodable {
        let track: Track
        init(_ track: Track) { self.track = track }

        enum CodingKeys: String, CodingKey { case id, runs }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(track.id, forKey: .id)
            var runs = c.nestedUnkeyedContainer(forKey: .runs)
            for run in track.runs {
                var r = runs.nestedUnkeyedContainer()
                try r.encode(run.start)
                guard let p = run.pose else { continue }
                try r.encode(p.look)
                try r.encode(p.x)
                try r.encode(p.y)
                try r.encode(p.opacity)
                try r.encode(p.rotation)
                try r.encode(p.scale)
                if let frame = p.frame { try r.encode(frame) } else { try r.encodeNil() }
            }
        }
    }
}
