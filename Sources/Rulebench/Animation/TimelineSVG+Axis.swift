// The chart's axes: down the left, a band per row with its label (the whole
// label on hover when shortened); along the top, the time in seconds with a
// grid line at each tick. Invariant: a tick label that would touch the one
// before it, or pass the canvas, is left out (its grid line stays).

private func n(_ value: Double) -> String { svgNumber(value) }

extension TimelineSVG {
    /// The rows' bands (every other one shaded) and labels, from `top` down;
    /// returns each row's top and the chart's bottom.
    func drawRows(_ layout: TimelineSVGLayout, top: Double, into out: inout SVGWriter) -> (tops: [Double], bottom: Double) {
        var rowTops: [Double] = []
        var cursor = top
        for (index, row) in layout.rows.enumerated() {
            rowTops.append(cursor)
            let height = layout.rowHeight(row)
            if index % 2 == 0 {
                out.empty("rect", [("x", n(layout.left)), ("y", n(cursor)), ("width", n(chartWidth)), ("height", n(height)),
                                   ("fill", "#f4f6f8")])
            }
            var attributes = [("text-anchor", "end")]
            if row.kind != .key { attributes += [("font-style", "italic"), ("fill", "#555555")] }
            let firstLane = row.kind == .key ? cursor + 4 + barHeight / 2 + 4 : cursor + 4 + markerLane / 2 + 4
            out.open("g")
            if layout.shownLabels[index] != row.label { out.element("title", text: row.label) }
            out.text(layout.shownLabels[index], x: layout.left - 8, y: firstLane, attributes: attributes)
            out.close("g")
            cursor += height
        }
        return (rowTops, max(cursor, top + 20))
    }

    /// The time axis: grid lines from `top` to `bottom`, with a label each.
    func drawTimeAxis(_ layout: TimelineSVGLayout, top: Double, bottom: Double, into out: inout SVGWriter) {
        var freeFrom = -Double.infinity
        for tick in layout.scale.ticks {
            let tx = layout.x(tick)
            out.empty("line", [("x1", n(tx)), ("y1", n(top - 6)), ("x2", n(tx)), ("y2", n(bottom)), ("stroke", "#d0d4d9"),
                               ("stroke-width", "1")])
            let label = TimelineSeconds.text(tick) + "s"
            let w = Self.textWidth(label, size: Self.fontSize)
            if tx - w / 2 >= freeFrom && tx + w / 2 <= layout.width - 2 {
                out.text(label, x: tx, y: top - 10, attributes: [("text-anchor", "middle"), ("fill", "#333333")])
                freeFrom = tx + w / 2 + 6
            }
        }
    }
}
