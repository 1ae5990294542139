// Pictures of a timeline: a text chart for terminals and an SVG Gantt chart.
// Both draw one row per animated target.property, bars over a time axis in
// seconds, and a row each for sounds and cues.

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

    /// A standalone SVG Gantt chart of the timeline.
    public func svg() -> String { svg(title: nil) }

    /// A standalone SVG Gantt chart: a time axis in seconds along the top, a
    /// labelled row per `target.property` with a bar per run (tweens blue,
    /// frame runs green, conflicting overlaps red), and rows marking sounds
    /// and cues with their names. Hovering a bar shows its details and source.
    public func svg(title: String?) -> String {
        SVGChart(timeline: self, title: title).render()
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

/// Lays out and writes the SVG picture of a timeline.
private struct SVGChart {
    let timeline: Timeline
    let title: String?

    let chartWidth = 720.0
    let rowHeight = 26.0
    let barHeight = 14.0

    func render() -> String {
        let scale = TimelineChartScale(timeline)
        let sounds = timeline.events.filter { $0.kind == .sound }
        let cues = timeline.events.filter { $0.kind == .cue }
        var rows: [(label: String, kind: String)] = []
        if !sounds.isEmpty { rows.append(("sounds", "sound")) }
        if !cues.isEmpty { rows.append(("cues", "cue")) }
        rows += timeline.keys.map { ($0, "key") }

        let longest = rows.map(\.label.count).max() ?? 0
        let left = 16 + 7.2 * Double(min(max(longest, 6), 48))
        let top = title == nil ? 44.0 : 68.0
        let width = left + chartWidth + 40
        let height = top + rowHeight * Double(max(rows.count, 1)) + 24 + (timeline.conflicts.isEmpty ? 0 : 18 * Double(timeline.conflicts.count))
        func x(_ time: Double) -> Double { left + scale.fraction(time) * chartWidth }
        func rowTop(_ index: Int) -> Double { top + rowHeight * Double(index) }

        var out: [String] = []
        out.append(##"<?xml version="1.0" encoding="UTF-8"?>"##)
        out.append(##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(n(width))" height="\##(n(height))" viewBox="0 0 \##(n(width)) \##(n(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">"##)
        out.append(##"<rect x="0" y="0" width="\##(n(width))" height="\##(n(height))" fill="#ffffff"/>"##)
        var headerY = 18.0
        if let title {
            out.append(##"<text x="16" y="\##(n(headerY))" font-size="15" font-weight="bold">\##(SVGChart.escape(title))</text>"##)
            headerY += 22
        }
        let summary = "duration \(TimelineSeconds.text(timeline.duration))s · \(timeline.events.count) events · \(timeline.conflicts.count) conflicts"
        out.append(##"<text x="16" y="\##(n(headerY))" fill="#555555">\##(SVGChart.escape(summary))</text>"##)

        // Row bands and labels.
        for (index, row) in rows.enumerated() {
            let y = rowTop(index)
            if index % 2 == 0 {
                out.append(##"<rect x="\##(n(left))" y="\##(n(y))" width="\##(n(chartWidth))" height="\##(n(rowHeight))" fill="#f4f6f8"/>"##)
            }
            let style = row.kind == "key" ? "" : ##" font-style="italic" fill="#555555""##
            out.append(##"<text x="\##(n(left - 8))" y="\##(n(y + rowHeight / 2 + 4))" text-anchor="end"\##(style)>\##(SVGChart.escape(row.label))</text>"##)
        }

        // Time axis: grid lines with a label each, in seconds.
        let bottom = rowTop(max(rows.count, 1))
        for tick in scale.ticks {
            out.append(##"<line x1="\##(n(x(tick)))" y1="\##(n(top - 6))" x2="\##(n(x(tick)))" y2="\##(n(bottom))" stroke="#d0d4d9" stroke-width="1"/>"##)
            out.append(##"<text x="\##(n(x(tick)))" y="\##(n(top - 10))" text-anchor="middle" fill="#333333">\##(SVGChart.escape(TimelineSeconds.text(tick)))s</text>"##)
        }

        // Bars, then conflict overlays on top of them.
        for (index, row) in rows.enumerated() where row.kind == "key" {
            let y = rowTop(index) + (rowHeight - barHeight) / 2
            for event in timeline.events where event.key == row.label {
                let x0 = x(event.start), w = max(2, x(event.end) - x0)
                let fill = event.kind == .frames ? "#3a9d5d" : "#3b7dd8"
                // A white outline keeps runs that touch end to start apart.
                out.append(##"<rect x="\##(n(x0))" y="\##(n(y))" width="\##(n(w))" height="\##(n(barHeight))" rx="3" fill="\##(fill)" fill-opacity="0.85" stroke="#ffffff" stroke-width="1"><title>\##(SVGChart.escape(tooltip(event)))</title></rect>"##)
                // Name the action on the bar when it fits (about 6 px a character at 10 px).
                let name = event.actionPath.components(separatedBy: " > ").last ?? ""
                if !name.isEmpty && Double(name.count) * 6 + 8 <= w {
                    out.append(##"<text x="\##(n(x0 + 4))" y="\##(n(y + barHeight - 3.5))" font-size="10" fill="#ffffff">\##(SVGChart.escape(name))</text>"##)
                }
            }
            for conflict in timeline.conflicts where conflict.key == row.label {
                let x0 = x(conflict.overlapStart), w = max(2, x(conflict.overlapEnd) - x0)
                out.append(##"<rect x="\##(n(x0))" y="\##(n(y - 3))" width="\##(n(w))" height="\##(n(barHeight + 6))" fill="#d9342b" fill-opacity="0.55"><title>\##(SVGChart.escape("conflict: \(conflict)"))</title></rect>"##)
            }
        }

        // Sounds and cues: a marker at their instant, their name beside it.
        for (index, row) in rows.enumerated() where row.kind != "key" {
            let instants = row.kind == "sound" ? sounds : cues
            let middle = rowTop(index) + rowHeight / 2
            for event in instants {
                let cx = x(event.start)
                let color = row.kind == "sound" ? "#8a4fc7" : "#d98a1f"
                out.append(##"<polygon points="\##(n(cx)),\##(n(middle - 6)) \##(n(cx + 6)),\##(n(middle)) \##(n(cx)),\##(n(middle + 6)) \##(n(cx - 6)),\##(n(middle))" fill="\##(color)"><title>\##(SVGChart.escape(tooltip(event)))</title></polygon>"##)
                out.append(##"<text x="\##(n(cx + 9))" y="\##(n(middle + 4))" fill="\##(color)">\##(SVGChart.escape(event.name ?? ""))</text>"##)
            }
        }

        // Conflicts spelled out under the chart.
        for (index, conflict) in timeline.conflicts.enumerated() {
            out.append(##"<text x="16" y="\##(n(bottom + 20 + 18 * Double(index)))" fill="#d9342b">\##(SVGChart.escape("conflict: \(conflict)"))</text>"##)
        }
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    private func tooltip(_ event: TimelineEvent) -> String {
        var parts = ["\(event.kind.rawValue) \(TimelineSeconds.text(event.start))–\(TimelineSeconds.text(event.end))s"]
        switch event.leaf {
        case .tween(let t):
            parts.append("\(t.from.map(\.description) ?? "nil") → \(t.to.map(\.description) ?? "nil"), \(t.easing.rawValue)")
            if t.repeatCount > 1 || t.autoreverse { parts.append("×\(t.repeatCount)\(t.autoreverse ? " there and back" : "")") }
        case .frames(let f):
            parts.append("\(f.frames.count) frames" + (f.repeatCount > 1 ? " ×\(f.repeatCount)" : ""))
        case .sound(let s):
            parts.append("\(s.name), volume \(s.volume)")
        case .cue(let c):
            parts.append("\(c.name) \(c.args)")
        }
        parts.append(event.actionPath)
        if let source = event.source { parts.append(source) }
        return parts.joined(separator: " · ")
    }

    /// A coordinate with at most two decimals, so the output is stable and compact.
    private func n(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let hundredths = (value * 100).rounded()
        let whole = Int64(hundredths)
        let sign = whole < 0 ? "-" : ""
        let magnitude = whole.magnitude
        let fraction = magnitude % 100
        if fraction == 0 { return sign + String(magnitude / 100) }
        var digits = fraction < 10 ? "0" + String(fraction) : String(fraction)
        if digits.hasSuffix("0") { digits.removeLast() }
        return sign + String(magnitude / 100) + "." + digits
    }
}

extension SVGChart {
/// Text made safe for XML content and attribute values.
static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&apos;"
        default:
            // Control characters other than tab and newlines are not allowed in XML 1.0 at all.
            if scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r" {
                out += "?"
            } else if (0xFFFE...0xFFFF).contains(scalar.value) {
                out += "?"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out
}
}
