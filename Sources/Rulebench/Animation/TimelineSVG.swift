// The SVG picture of a timeline: a Gantt chart a person reads at a glance.
//
// Layout rules, which TimelineChartGeometryTests checks on every chart the
// repository's scenarios produce: no two labels overlap and nothing leaves
// the canvas. Text widths are estimated from the font size and the number
// of characters (TimelineSVG.textWidth), a little wider than most fonts draw
// them. Instants at one time (sounds, cues) stack in lanes; runs that
// overlap on one property (conflicts) get lanes of their own, so both bars
// show; long titles wrap and long labels are shortened, with the full text
// in a `<title>` a viewer shows on hover. This file holds the chart's
// measures, the text helpers and the order things are drawn in.

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

/// Lays out and writes the SVG picture of a timeline: the layout
/// (`TimelineSVGLayout`), then the header here, the axes (`+Axis`), the
/// lanes' bars and markers (`+Lanes`) and the legend (`+Legend`).
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

    func render() -> String {
        let layout = TimelineSVGLayout(self)
        var out = SVGWriter()
        // Where time runs across the chart, for a viewer that draws a playhead over it (the studio).
        out.empty("g", [("id", "plot"), ("data-left", svgNumber(layout.left)), ("data-width", svgNumber(chartWidth)),
                        ("data-span", svgNumber(layout.scale.span))])
        let top = drawHeader(layout, into: &out) + 34
        let (rowTops, bottom) = drawRows(layout, top: top, into: &out)
        drawTimeAxis(layout, top: top, bottom: bottom, into: &out)
        let (colours, legend) = actionColours()
        drawBars(layout, rowTops: rowTops, colours: colours, into: &out)
        drawMarkers(layout, rowTops: rowTops, into: &out)
        var y = drawConflictList(layout, from: bottom + 8, into: &out)
        y = drawLegend(layout, actions: legend, from: y, into: &out)
        return out.document(width: layout.width, height: y + margin)
    }

    /// The title (wrapped; the whole of it on hover when shortened), the
    /// summary line and, for an undo, its mark; returns the summary's (or
    /// the mark's) baseline.
    private func drawHeader(_ layout: TimelineSVGLayout, into out: inout SVGWriter) -> Double {
        let size = Self.fontSize, width = layout.width
        var y = margin
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
        return y
    }
}

private func n(_ value: Double) -> String { svgNumber(value) }
