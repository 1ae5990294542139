// The SVG picture of a timeline: a Gantt chart a person reads at a glance.
//
// Layout rules, which TimelineChartGeometryTests checks on every chart the
// repository's scenarios produce: no two labels overlap and nothing leaves
// the canvas. Text widths are estimated from the font size and the number
// of characters (TimelineSVG.textWidth), a little wider than most fonts draw
// them. Instants at one time (sounds, cues) stack in lanes; runs that
// overlap on one property (conflicts) get lanes of their own, so both bars
// show; long titles wrap and long labels are shortened, with the full text
// in a `<title>` a viewer shows on hover.

extension Timeline {
    /// A standalone SVG Gantt chart of the timeline.
    public func svg() -> String { svg(title: nil) }

    /// A standalone SVG Gantt chart: a time axis in seconds along the top, a
    /// row per `target.property` with a bar per run, coloured by the action
    /// or subaction that made it (a legend below names the colours), from →
    /// to written on a bar when it fits, frame runs ticked at each frame,
    /// conflicting runs in lanes of their own outlined in red, and rows of
    /// sound and cue markers with their names. `undo` marks the chart as an
    /// undo, played backwards. Hovering shows each run's details and source.
    public func svg(title: String?, undo: Bool = false) -> String {
        TimelineSVG(timeline: self, title: title, undo: undo).render()
    }
}

/// Lays out and writes the SVG picture of a timeline.
struct TimelineSVG {
    let timeline: Timeline
    let title: String?
    let undo: Bool

    static let fontSize = 12.0
    static let barFontSize = 10.0
    static let titleFontSize = 15.0
    let chartWidth = 720.0
    let margin = 16.0
    let barHeight = 16.0
    let laneGap = 4.0
    let markerLane = 18.0

    /// Colours for actions, in the order actions first appear; red is kept for conflicts.
    static let palette = ["#3b7dd8", "#e07b39", "#3a9d5d", "#9467bd", "#8c564b", "#d45b9e", "#5f6b7a", "#a6a132", "#17a2b8", "#6b4fd8"]

    /// Estimated width of `text` at `size` px: 0.62 em a character.
    static func textWidth(_ text: String, size: Double) -> Double { Double(text.count) * size * 0.62 }

    /// `text` shortened with "…" to at most `width` px at `size`.
    static func fit(_ text: String, width: Double, size: Double) -> String {
        let most = Int(width / (size * 0.62))
        if text.count <= most { return text }
        if most <= 1 { return "" }
        return String(text.prefix(most - 1)) + "…"
    }

    /// The words of `text` in lines of at most `width` px; at most `limit` lines, the last shortened.
    static func wrap(_ text: String, width: Double, size: Double, limit: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            let candidate = current.isEmpty ? word : current + " " + word
            if textWidth(candidate, size: size) <= width || current.isEmpty {
                current = candidate
            } else {
                lines.append(current)
                current = word
            }
        }
        if !current.isEmpty { lines.append(current) }
        lines = lines.map { fit($0, width: width, size: size) }
        if lines.count > limit {
            var kept = Array(lines.prefix(limit))
            kept[limit - 1] = fit(kept[limit - 1] + " …", width: width, size: size)
            return kept
        }
        return lines
    }

    /// The colour key of an event: its action path without the `#n` that tells repeated subactions apart.
    static func colourKey(_ event: TimelineEvent) -> String {
        event.actionPath.split(separator: " ", omittingEmptySubsequences: false).map { part -> String in
            guard let hash = part.lastIndex(of: "#"), part[part.index(after: hash)...].allSatisfy(\.isNumber),
                  hash != part.startIndex, part.index(after: hash) != part.endIndex else { return String(part) }
            return String(part[..<hash])
        }.joined(separator: " ")
    }

    /// Places intervals in lanes: each goes to the first lane where it
    /// clashes with nothing already there. Returns each one's lane and the lane count.
    static func lanes(_ spans: [(start: Double, end: Double)], clash: ((start: Double, end: Double), (start: Double, end: Double)) -> Bool) -> (lanes: [Int], count: Int) {
        var placed: [[(start: Double, end: Double)]] = []
        var result: [Int] = []
        for span in spans {
            if let lane = placed.indices.first(where: { index in !placed[index].contains { clash($0, span) } }) {
                placed[lane].append(span)
                result.append(lane)
            } else {
                placed.append([span])
                result.append(placed.count - 1)
            }
        }
        return (result, max(placed.count, 1))
    }

    private struct Row {
        enum Kind { case sound, cue, key }
        let label: String
        let kind: Kind
        var events: [TimelineEvent]
        var lanes: [Int] = []
        var laneCount = 1
        /// For marker rows: each label's text, x and anchor.
        var markerLabels: [(text: String, x: Double, anchorEnd: Bool)] = []
    }

    func render() -> String {
        let scale = TimelineChartScale(timeline, maxTicks: max(1, Int(chartWidth / 64)))
        let size = Self.fontSize
        let labelLimit = 40.0 * size * 0.62

        var rows: [Row] = []
        let sounds = timeline.events.filter { $0.kind == .sound }
        let cues = timeline.events.filter { $0.kind == .cue }
        if !sounds.isEmpty { rows.append(Row(label: "sounds", kind: .sound, events: sounds)) }
        if !cues.isEmpty { rows.append(Row(label: "cues", kind: .cue, events: cues)) }
        for key in timeline.keys { rows.append(Row(label: key, kind: .key, events: timeline.events.filter { $0.key == key })) }

        let shownLabels = rows.map { Self.fit($0.label, width: labelLimit, size: size) }
        let longest = shownLabels.map { Self.textWidth($0, size: size) }.max() ?? 0
        let left = margin + max(longest, Self.textWidth("sounds", size: size)) + 12
        let width = left + chartWidth + 48
        let right = width - margin
        func x(_ time: Double) -> Double { left + scale.fraction(time) * chartWidth }

        // Lanes: runs on one property that overlap go one under the other;
        // marker labels at nearby instants stack.
        for index in rows.indices {
            switch rows[index].kind {
            case .key:
                let spans = rows[index].events.map { (start: $0.start, end: $0.end) }
                let placed = Self.lanes(spans) { a, b in
                    // Runs that only touch share a lane; so do instants apart in time.
                    a.start == a.end || b.start == b.end ? (a.start <= b.end && b.start <= a.end) : (a.start < b.end && b.start < a.end)
                }
                rows[index].lanes = placed.lanes
                rows[index].laneCount = placed.count
            case .sound, .cue:
                var boxes: [(start: Double, end: Double)] = []
                for event in rows[index].events {
                    let cx = x(event.start)
                    let name = event.name ?? ""
                    var text = Self.fit(name, width: chartWidth, size: size)
                    var w = Self.textWidth(text, size: size)
                    var anchorEnd = false
                    var labelX = cx + 9
                    if labelX + w > right {
                        if cx - 9 - w >= left {
                            anchorEnd = true
                            labelX = cx - 9
                        } else {
                            text = Self.fit(name, width: right - labelX, size: size)
                            w = Self.textWidth(text, size: size)
                        }
                    }
                    rows[index].markerLabels.append((text, labelX, anchorEnd))
                    boxes.append(anchorEnd ? (labelX - w - 2, cx + 7) : (cx - 7, labelX + w + 2))
                }
                let placed = Self.lanes(boxes) { a, b in a.start < b.end + 4 && b.start < a.end + 4 }
                rows[index].lanes = placed.lanes
                rows[index].laneCount = placed.count
            }
        }
        func rowHeight(_ row: Row) -> Double {
            row.kind == .key ? Double(row.laneCount) * (barHeight + laneGap) + 8 : Double(row.laneCount) * markerLane + 8
        }

        var out = SVGWriter()
        // Where time runs across the chart, for a viewer that draws a playhead over it (the studio).
        out.empty("g", [("id", "plot"), ("data-left", n(left)), ("data-width", n(chartWidth)), ("data-span", n(scale.span))])
        var y = margin
        // Title, wrapped; the whole of it on hover when shortened.
        if let title, !title.isEmpty {
            let lines = Self.wrap(title, width: width - 2 * margin, size: Self.titleFontSize, limit: 3)
            out.open("g")
            if lines.joined(separator: " ") != title { out.element("title", text: title) }
            for line in lines {
                y += Self.titleFontSize + 3
                out.text(line, x: margin, y: y, attributes: [("font-size", n(Self.titleFontSize)), ("font-weight", "bold")])
            }
            out.close("g")
            y += 4
        }
        y += size + 4
        let summary = "duration \(TimelineSeconds.text(timeline.duration))s · \(timeline.events.count) events · \(timeline.conflicts.count) conflicts"
        out.text(Self.fit(summary, width: width - 2 * margin, size: size), x: margin, y: y, attributes: [("fill", "#555555")])
        if undo {
            // The undo mark: a banner under the summary, and dashed bars.
            y += size + 10
            let badge = "◀ undo: played backwards, mirrored in time"
            out.empty("rect", [("x", n(margin)), ("y", n(y - size - 2)), ("width", n(Self.textWidth(badge, size: size) + 12)),
                               ("height", n(size + 8)), ("rx", "4"), ("fill", "#fff1d6"), ("stroke", "#d98a1f")])
            out.text(badge, x: margin + 6, y: y, attributes: [("fill", "#8a5200")])
        }
        let top = y + 34

        // Rows: bands and labels.
        var rowTops: [Double] = []
        var cursor = top
        for (index, row) in rows.enumerated() {
            rowTops.append(cursor)
            let height = rowHeight(row)
            if index % 2 == 0 {
                out.empty("rect", [("x", n(left)), ("y", n(cursor)), ("width", n(chartWidth)), ("height", n(height)), ("fill", "#f4f6f8")])
            }
            var attributes = [("text-anchor", "end")]
            if row.kind != .key { attributes += [("font-style", "italic"), ("fill", "#555555")] }
            let firstLane = row.kind == .key ? cursor + 4 + barHeight / 2 + 4 : cursor + 4 + markerLane / 2 + 4
            out.open("g")
            if shownLabels[index] != row.label { out.element("title", text: row.label) }
            out.text(shownLabels[index], x: left - 8, y: firstLane, attributes: attributes)
            out.close("g")
            cursor += height
        }
        let bottom = max(cursor, top + 20)

        // Time axis: grid lines with a label each (a label that would touch the one before is left out).
        var freeFrom = -Double.infinity
        for tick in scale.ticks {
            let tx = x(tick)
            out.empty("line", [("x1", n(tx)), ("y1", n(top - 6)), ("x2", n(tx)), ("y2", n(bottom)), ("stroke", "#d0d4d9"), ("stroke-width", "1")])
            let label = TimelineSeconds.text(tick) + "s"
            let w = Self.textWidth(label, size: size)
            if tx - w / 2 >= freeFrom && tx + w / 2 <= width - 2 {
                out.text(label, x: tx, y: top - 10, attributes: [("text-anchor", "middle"), ("fill", "#333333")])
                freeFrom = tx + w / 2 + 6
            }
        }

        // Colours by action, in order of first appearance.
        var colours: [String: String] = [:]
        var legend: [(String, String)] = []
        for event in timeline.events where event.isAnimated {
            let key = Self.colourKey(event)
            if colours[key] == nil {
                colours[key] = Self.palette[legend.count % Self.palette.count]
                legend.append((key, colours[key]!))
            }
        }

        // Bars.
        for (index, row) in rows.enumerated() where row.kind == .key {
            for (event, lane) in zip(row.events, row.lanes) {
                let barY = rowTops[index] + 4 + Double(lane) * (barHeight + laneGap)
                let x0 = x(event.start), w = max(2, x(event.end) - x0)
                let fill = colours[Self.colourKey(event)] ?? Self.palette[0]
                var attributes = [("x", n(x0)), ("y", n(barY)), ("width", n(w)), ("height", n(barHeight)), ("rx", "3"),
                                  ("fill", fill), ("fill-opacity", "0.9"), ("stroke", "#ffffff"), ("stroke-width", "1")]
                if undo { attributes += [("stroke-dasharray", "3 2")] }
                out.open("rect", attributes)
                out.element("title", text: tooltip(event))
                out.close("rect")
                if case .frames(let frames) = event.leaf {
                    // A tick at each frame change along the bar's top edge (above
                    // its label): a sprite run reads as frames, not a slide.
                    let count = frames.frames.count * frames.repeatCount
                    let step = (x(event.end) - x0) / Double(max(count, 1))
                    if count > 1 && step >= 3 {
                        for k in 1..<min(count, 200) {
                            let fx = x0 + Double(k) * step
                            out.empty("line", [("x1", n(fx)), ("y1", n(barY)), ("x2", n(fx)), ("y2", n(barY + 4)),
                                               ("stroke", "#ffffff"), ("stroke-width", "1.5")])
                        }
                    }
                }
                if let label = barLabel(event, width: w - 8) {
                    out.text(label, x: x0 + 4, y: barY + barHeight - 4.5, attributes: [("font-size", n(Self.barFontSize)), ("fill", "#ffffff")])
                }
            }
            // Conflicts: a red outline around the overlap, across the lanes of both runs.
            for conflict in timeline.conflicts where conflict.key == row.label {
                let lanes = [conflict.first, conflict.second].compactMap { event in
                    zip(row.events, row.lanes).first { $0.0 == event }?.1
                }
                let low = lanes.min() ?? 0, high = lanes.max() ?? 0
                let x0 = x(conflict.overlapStart), w = max(3, x(conflict.overlapEnd) - x0)
                let y0 = rowTops[index] + 4 + Double(low) * (barHeight + laneGap) - 2
                let h = Double(high - low) * (barHeight + laneGap) + barHeight + 4
                out.open("rect", [("x", n(x0 - 1)), ("y", n(y0)), ("width", n(w + 2)), ("height", n(h)), ("fill", "none"),
                                  ("stroke", "#d9342b"), ("stroke-width", "2")])
                out.element("title", text: "conflict: \(conflict)")
                out.close("rect")
            }
        }

        // Sounds and cues: a marker at the instant in the label's lane, the name beside it.
        for (index, row) in rows.enumerated() where row.kind != .key {
            let colour = row.kind == .sound ? "#8a4fc7" : "#c46f00"
            for ((event, lane), label) in zip(zip(row.events, row.lanes), row.markerLabels) {
                let cx = x(event.start)
                let middle = rowTops[index] + 4 + Double(lane) * markerLane + markerLane / 2
                let points = row.kind == .sound
                    ? "\(n(cx)),\(n(middle - 6)) \(n(cx + 6)),\(n(middle)) \(n(cx)),\(n(middle + 6)) \(n(cx - 6)),\(n(middle))"
                    : "\(n(cx - 6)),\(n(middle + 5)) \(n(cx + 6)),\(n(middle + 5)) \(n(cx)),\(n(middle - 6))"
                out.open("polygon", [("points", points), ("fill", colour)])
                out.element("title", text: tooltip(event))
                out.close("polygon")
                if !label.text.isEmpty {
                    var attributes = [("fill", colour)]
                    if label.anchorEnd { attributes.insert(("text-anchor", "end"), at: 0) }
                    out.text(label.text, x: label.x, y: middle + 4, attributes: attributes)
                }
            }
        }

        // Below the chart: conflicts spelled out (wrapped), then the legend.
        y = bottom + 8
        for conflict in timeline.conflicts {
            for line in Self.wrap("conflict: \(conflict)", width: width - 2 * margin, size: size, limit: 6) {
                y += size + 6
                out.text(line, x: margin, y: y, attributes: [("fill", "#d9342b")])
            }
        }
        var entries: [(text: String, swatch: String)] = legend.map { ($0.0, $0.1) }
        if !sounds.isEmpty { entries.append(("◆ sound", "")) }
        if !cues.isEmpty { entries.append(("▲ cue", "")) }
        if timeline.events.contains(where: { $0.kind == .frames }) { entries.append(("frame run: a tick per frame", "")) }
        if !timeline.conflicts.isEmpty { entries.append(("red outline: conflict", "")) }
        if !entries.isEmpty {
            y += size + 12
            out.text("colours:", x: margin, y: y, attributes: [("fill", "#555555")])
            var ex = margin + Self.textWidth("colours:", size: size) + 12
            for entry in entries {
                let room = right - margin - 14
                let text = Self.fit(entry.text, width: room, size: size)
                let w = Self.textWidth(text, size: size) + (entry.swatch.isEmpty ? 0 : 14)
                if ex + w > right {
                    y += size + 8
                    ex = margin + 14
                }
                if !entry.swatch.isEmpty {
                    out.empty("rect", [("x", n(ex)), ("y", n(y - 10)), ("width", "10"), ("height", "10"), ("rx", "2"), ("fill", entry.swatch)])
                }
                out.text(text, x: ex + (entry.swatch.isEmpty ? 0 : 14), y: y, attributes: [("fill", "#333333")])
                ex += w + 16
            }
        }
        let height = y + margin
        return out.document(width: width, height: height)
    }

    /// The text on a bar, the most telling that fits `width` px: `name: from → to`, `from → to`, the name; nil when none fits.
    private func barLabel(_ event: TimelineEvent, width: Double) -> String? {
        let name = event.actionPath.components(separatedBy: " > ").last ?? ""
        var candidates: [String] = []
        switch event.leaf {
        case .tween(let t):
            let motion = "\(Self.short(t.from)) → \(Self.short(t.to))"
            candidates = [name + ": " + motion, motion, name]
        case .frames(let f):
            candidates = [name + ": \(f.frames.count) frames", "\(f.frames.count) frames", name]
        case .sound, .cue:
            return nil
        }
        return candidates.first { !$0.isEmpty && Self.textWidth($0, size: Self.barFontSize) <= width }
    }

    /// A value in at most 20 characters.
    static func short(_ value: StateValue?) -> String {
        let text = value.map(\.description) ?? "nil"
        return text.count <= 20 ? text : String(text.prefix(19)) + "…"
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
        if let source = event.source { parts.append(source.description) }
        return parts.joined(separator: " · ")
    }
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

/// SVG text built element by element, attributes escaped.
struct SVGWriter {
    private var lines: [String] = []

    private static func tag(_ name: String, _ attributes: [(String, String)]) -> String {
        "<" + name + attributes.map { " \($0.0)=\"\(escape($0.1))\"" }.joined()
    }

    /// `<name ...>` (closed later with `close`).
    mutating func open(_ name: String, _ attributes: [(String, String)] = []) { lines.append(Self.tag(name, attributes) + ">") }
    /// `</name>`.
    mutating func close(_ name: String) { lines.append("</\(name)>") }
    /// `<name .../>`.
    mutating func empty(_ name: String, _ attributes: [(String, String)]) { lines.append(Self.tag(name, attributes) + "/>") }
    /// `<name>text</name>`.
    mutating func element(_ name: String, text: String) { lines.append("<\(name)>\(Self.escape(text))</\(name)>") }
    /// A `<text>` at `x`, `y` (its baseline).
    mutating func text(_ text: String, x: Double, y: Double, attributes: [(String, String)] = []) {
        lines.append(Self.tag("text", [("x", n(x)), ("y", n(y))] + attributes) + ">" + Self.escape(text) + "</text>")
    }

    /// The whole document, `width` by `height` px, on white.
    func document(width: Double, height: Double) -> String {
        var out = [##"<?xml version="1.0" encoding="UTF-8"?>"##,
                   ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(n(width))" height="\##(n(height))" viewBox="0 0 \##(n(width)) \##(n(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">"##,
                   ##"<rect x="0" y="0" width="\##(n(width))" height="\##(n(height))" fill="#ffffff"/>"##]
        out += lines
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    /// Text made safe for XML content and attribute values (`XMLText`).
    static func escape(_ text: String) -> String { XMLText.escape(text) }
}
