// Below the chart: each conflict spelled out, then the legend (a swatch per
// action's colour, then what the marks mean). Invariant: colours go to
// actions in the order they first appear, the same in the bars and the
// legend, and red is never an action's (it marks conflicts).

private func n(_ value: Double) -> String { svgNumber(value) }

extension TimelineSVG {
    /// The colour of each action path (`colourKey`), and the legend's
    /// entries for them, in order of first appearance.
    func actionColours() -> (colours: [String: String], legend: [(String, String)]) {
        var colours: [String: String] = [:]
        var legend: [(String, String)] = []
        for event in timeline.events where event.isAnimated {
            let key = Self.colourKey(event)
            if colours[key] == nil {
                colours[key] = Self.palette[legend.count % Self.palette.count]
                legend.append((key, colours[key]!))
            }
        }
        return (colours, legend)
    }

    /// The conflicts, wrapped, from `y` on; returns the baseline of the last line.
    func drawConflictList(_ layout: TimelineSVGLayout, from y: Double, into out: inout SVGWriter) -> Double {
        var y = y
        let size = Self.fontSize
        for conflict in timeline.conflicts {
            for line in Self.wrap("conflict: \(conflict)", width: layout.width - 2 * margin, size: size, limit: 6) {
                y += size + 6
                out.text(line, x: margin, y: y, attributes: [("fill", "#d9342b")])
            }
        }
        return y
    }

    /// The legend after `y`, its entries wrapped at the right edge; returns
    /// the baseline of its last line (`y` when there is nothing to explain).
    func drawLegend(_ layout: TimelineSVGLayout, actions: [(String, String)], from y: Double,
                    into out: inout SVGWriter) -> Double {
        var entries: [(text: String, swatch: String)] = actions.map { ($0.0, $0.1) }
        if timeline.events.contains(where: { $0.kind == .sound }) { entries.append(("◆ sound", "")) }
        if timeline.events.contains(where: { $0.kind == .cue }) { entries.append(("▲ cue", "")) }
        if timeline.events.contains(where: { $0.kind == .frames }) { entries.append(("frame run: a tick per frame", "")) }
        if !timeline.conflicts.isEmpty { entries.append(("red outline: conflict", "")) }
        guard !entries.isEmpty else { return y }
        let size = Self.fontSize, right = layout.right
        var y = y + size + 12
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
                out.empty("rect", [("x", n(ex)), ("y", n(y - 10)), ("width", "10"), ("height", "10"), ("rx", "2"),
                                   ("fill", entry.swatch)])
            }
            out.text(text, x: ex + (entry.swatch.isEmpty ? 0 : 14), y: y, attributes: [("fill", "#333333")])
            ex += w + 16
        }
        return y
    }
}
