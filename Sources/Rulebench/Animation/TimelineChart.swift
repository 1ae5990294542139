// The text picture of a timeline, for terminals, and the time scale both
// pictures share (the SVG chart is TimelineSVG.swift). One row per animated
// target.property, bars over a time axis in seconds, and a row each for
// sounds and cues.

extension Timeline {
    /// A text chart about `width` columns wide (taken within 20...1000).
    ///
    /// Each `target.property` row shows its runs as bars, `[===]` for tweens
    /// and `[###]` for frame runs (`|` when a run fits one column, or where
    /// short runs meet), with `!` where runs conflict.
    /// The `(sounds)` and `(cues)` rows mark instants with `*` and `^`; the
    /// lines below the chart name them with their times, then list conflicts.
    public func textChart(width: Int = 80) -> String {
        let width = min(max(width, 20), 1000)   // a sane picture whatever is asked
        let rowLabels = ["(sounds)", "(cues)"] + keys
        let labelWidth = min(max(rowLabels.map(\.count).max() ?? 0, 6), max(6, width / 3))
        let columns = max(10, width - labelWidth - 2)
        // At least eight columns between ticks leaves room for their labels.
        let scale = TimelineChartScale(self, maxTicks: max(1, columns / 8))
        func column(_ time: Double) -> Int {
            min(columns - 1, max(0, Int((scale.fraction(time) * Double(columns)).rounded(.down))))
        }
        // A run covers the columns its time span starts in, up to the one
        // before its end's column, so runs that touch never share a column.
        func lastColumn(_ time: Double) -> Int {
            min(columns - 1, max(0, Int((scale.fraction(time) * Double(columns)).rounded(.down)) - 1))
        }
        func row(_ label: String, _ cells: [Character]) -> String {
            let shown = label.count > labelWidth ? String(label.prefix(labelWidth - 1)) + "…" : label
            let line = shown.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + "  " + String(cells)
            return String(line.reversed().drop { $0 == " " }.reversed())
        }

        var lines: [String] = []
        lines.append("duration \(TimelineSeconds.text(duration))s, \(events.count) event\(events.count == 1 ? "" : "s"), "
                     + "\(conflicts.count) conflict\(conflicts.count == 1 ? "" : "s")")

        // Time axis: tick marks and their labels, skipping labels that would collide.
        var marks = [Character](repeating: "-", count: columns)
        var labels = [Character](repeating: " ", count: columns + 12)
        var free = 0
        for tick in scale.ticks {
            let c = column(tick)
            marks[c] = "|"
            let text = Array(TimelineSeconds.text(tick))
            if c >= free && c + text.count <= labels.count {
                for (i, ch) in text.enumerated() { labels[c + i] = ch }
                free = c + text.count + 1
            }
        }
        lines.append(row("time (s)", labels))
        lines.append(row("", marks))

        let sounds = events.filter { $0.kind == .sound }
        let cues = events.filter { $0.kind == .cue }
        for (label, instants, mark) in [("(sounds)", sounds, Character("*")), ("(cues)", cues, Character("^"))] where !instants.isEmpty {
            var cells = [Character](repeating: " ", count: columns)
            for event in instants { cells[column(event.start)] = mark }
            lines.append(row(label, cells))
        }
        for key in keys {
            var cells = [Character](repeating: " ", count: columns)
            var used = [Bool](repeating: false, count: columns)
            for event in events where event.key == key {
                let first = column(event.start)
                let instant = event.end <= event.start
                let last = instant ? first : max(first, lastColumn(event.end))
                let fill: Character = event.kind == .frames ? "#" : "="
                for c in first...last {
                    // Brackets mark each run's ends, so runs that touch stay apart.
                    let mark: Character = first == last ? "|" : (c == first ? "[" : (c == last ? "]" : fill))
                    cells[c] = used[c] ? "!" : mark
                    used[c] = true
                }
            }
            // Runs shorter than a column can share one without overlapping in
            // time; only real conflicts keep a `!`.
            let clashes = conflicts.filter { $0.key == key }
            for c in cells.indices where cells[c] == "!" {
                if !clashes.contains(where: { column($0.overlapStart) <= c && c <= max(column($0.overlapStart), lastColumn($0.overlapEnd)) }) {
                    cells[c] = "|"
                }
            }
            lines.append(row(key, cells))
        }

        for event in sounds { lines.append("  * \(TimelineSeconds.text(event.start))s sound \(event.name ?? "") (\(event.actionPath))") }
        for event in cues { lines.append("  ^ \(TimelineSeconds.text(event.start))s cue \(event.name ?? "") (\(event.actionPath))") }
        for conflict in conflicts { lines.append("  ! conflict: \(conflict)") }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The time range a chart spans, and its tick marks.
struct TimelineChartScale {
    /// TimelineSeconds at the right edge; never zero, so instants at 0 still draw.
    let span: Double
    /// Tick times: 0, step, 2·step, ... up to `span`.
    let ticks: [Double]

    init(_ timeline: Timeline, maxTicks: Int = 10) {
        let ends = ([timeline.duration] + timeline.events.map(\.end)).filter(\.isFinite)
        let latest = ends.max() ?? 0
        span = latest > 0 ? latest : 1
        // The smallest 1-2-5 step giving at most about `maxTicks` intervals.
        let raw = span / Double(max(1, maxTicks))
        let magnitude = pow10(floorLog10(raw))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        var ticks: [Double] = []
        var k = 0.0
        while k * step <= span * (1 + 1e-9) && ticks.count < 100 {
            ticks.append(k * step)
            k += 1
        }
        self.ticks = ticks
    }

    /// Where `time` lies across the chart, 0...1 (clamped; non-finite times go to an edge).
    func fraction(_ time: Double) -> Double {
        if time.isNaN { return 0 }
        return min(1, max(0, time / span))
    }
}

/// 10 to an integer power, without Foundation.
private func pow10(_ exponent: Int) -> Double {
    var value = 1.0
    if exponent >= 0 { for _ in 0..<exponent { value *= 10 } } else { for _ in 0..<(-exponent) { value /= 10 } }
    return value
}

/// The largest integer n with 10^n <= x, for positive finite x.
private func floorLog10(_ x: Double) -> Int {
    guard x > 0, x.isFinite else { return 0 }
    var n = 0
    var value = 1.0
    while value > x && n > -300 { value /= 10; n -= 1 }
    while value * 10 <= x && n < 300 { value *= 10; n += 1 }
    return n
}
