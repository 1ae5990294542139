// What the chart's lanes hold: a bar per run (coloured by its action, frame
// runs ticked at each frame, the most telling label that fits), a red
// outline around each conflict across the lanes of both runs, and a marker
// per sound and cue with its name. Invariant: every bar and marker carries
// a `<title>` with the whole of its details, so nothing shortened is lost;
// a bar names its node (`data-node`), for a viewer that links the two.

private func n(_ value: Double) -> String { svgNumber(value) }

extension TimelineSVG {
    /// The bars of every property row, and the outlines of its conflicts.
    func drawBars(_ layout: TimelineSVGLayout, rowTops: [Double], colours: [String: String], into out: inout SVGWriter) {
        for (index, row) in layout.rows.enumerated() where row.kind == .key {
            for (event, lane) in zip(row.events, row.lanes) {
                let barY = rowTops[index] + 4 + Double(lane) * (barHeight + laneGap)
                drawBar(event, layout, y: barY, fill: colours[Self.colourKey(event)] ?? Self.palette[0], into: &out)
            }
            for conflict in timeline.conflicts where conflict.key == row.label {
                drawConflict(conflict, row, layout, rowTop: rowTops[index], into: &out)
            }
        }
    }

    /// One run's bar at `y`, its frame ticks and its label.
    private func drawBar(_ event: TimelineEvent, _ layout: TimelineSVGLayout, y barY: Double, fill: String,
                         into out: inout SVGWriter) {
        let x0 = layout.x(event.start), w = max(2, layout.x(event.end) - x0)
        var attributes = [("x", n(x0)), ("y", n(barY)), ("width", n(w)), ("height", n(barHeight)), ("rx", "3"),
                          ("fill", fill), ("fill-opacity", "0.9"), ("stroke", "#ffffff"), ("stroke-width", "1")]
        if undo { attributes += [("stroke-dasharray", "3 2")] }
        // The node it moves, so a viewer links the bar to the board (the studio lights one when the other is hovered).
        if let target = event.target { attributes += [("data-node", target)] }
        out.open("rect", attributes)
        out.element("title", text: tooltip(event))
        out.close("rect")
        if case .frames(let frames) = event.leaf {
            // A tick at each frame change along the bar's top edge (above
            // its label): a sprite run reads as frames, not a slide.
            let count = frames.frames.count * frames.repeatCount
            let step = (layout.x(event.end) - x0) / Double(max(count, 1))
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

    /// A conflict: a red outline around the overlap, across the lanes of both runs.
    private func drawConflict(_ conflict: AnimationConflict, _ row: TimelineSVGLayout.Row, _ layout: TimelineSVGLayout,
                              rowTop: Double, into out: inout SVGWriter) {
        let lanes = [conflict.first, conflict.second].compactMap { event in
            zip(row.events, row.lanes).first { $0.0 == event }?.1
        }
        let low = lanes.min() ?? 0, high = lanes.max() ?? 0
        let x0 = layout.x(conflict.overlapStart), w = max(3, layout.x(conflict.overlapEnd) - x0)
        let y0 = rowTop + 4 + Double(low) * (barHeight + laneGap) - 2
        let h = Double(high - low) * (barHeight + laneGap) + barHeight + 4
        out.open("rect", [("x", n(x0 - 1)), ("y", n(y0)), ("width", n(w + 2)), ("height", n(h)), ("fill", "none"),
                          ("stroke", "#d9342b"), ("stroke-width", "2")])
        out.element("title", text: "conflict: \(conflict)")
        out.close("rect")
    }

    /// Sounds and cues: a marker at the instant in the label's lane, the name beside it.
    func drawMarkers(_ layout: TimelineSVGLayout, rowTops: [Double], into out: inout SVGWriter) {
        for (index, row) in layout.rows.enumerated() where row.kind != .key {
            let colour = row.kind == .sound ? "#8a4fc7" : "#c46f00"
            for ((event, lane), label) in zip(zip(row.events, row.lanes), row.markerLabels) {
                let cx = layout.x(event.start)
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
