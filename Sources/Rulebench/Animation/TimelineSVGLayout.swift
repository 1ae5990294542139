// Where everything of a timeline's SVG chart goes: the rows (sounds, cues,
// then one per `target.property`), the left column their labels need, the
// x of a time, and each row's lanes. Invariant (which
// TimelineChartGeometryTests checks): runs on one property that overlap get
// lanes of their own, and marker labels at nearby instants stack, so no two
// labels overlap and nothing leaves the canvas.

/// The chart's geometry, computed before anything is drawn.
struct TimelineSVGLayout {
    /// One row of the chart.
    struct Row {
        enum Kind { case sound, cue, key }
        let label: String
        let kind: Kind
        var events: [TimelineEvent]
        var lanes: [Int] = []
        var laneCount = 1
        /// For marker rows: each label's text, x and anchor.
        var markerLabels: [(text: String, x: Double, anchorEnd: Bool)] = []
    }

    let chart: TimelineSVG
    let scale: TimelineChartScale
    /// The rows, top to bottom, with their lanes placed.
    private(set) var rows: [Row]
    /// Each row's label as shown (shortened when long; the whole on hover).
    let shownLabels: [String]
    /// Where the chart's time 0 is: right of the longest row label.
    let left: Double
    /// The canvas's width.
    let width: Double
    /// The right edge nothing may pass.
    let right: Double

    init(_ chart: TimelineSVG) {
        self.chart = chart
        let timeline = chart.timeline, size = TimelineSVG.fontSize
        scale = TimelineChartScale(timeline, maxTicks: max(1, Int(chart.chartWidth / 64)))
        rows = []
        let sounds = timeline.events.filter { $0.kind == .sound }
        let cues = timeline.events.filter { $0.kind == .cue }
        if !sounds.isEmpty { rows.append(Row(label: "sounds", kind: .sound, events: sounds)) }
        if !cues.isEmpty { rows.append(Row(label: "cues", kind: .cue, events: cues)) }
        // The events grouped by key in one pass (a filter per key was quadratic: 20k tweens, 400M looks).
        var byKey: [String: [TimelineEvent]] = [:]
        for event in timeline.events { if let key = event.key { byKey[key, default: []].append(event) } }
        for key in timeline.keys { rows.append(Row(label: key, kind: .key, events: byKey[key] ?? [])) }

        let labelLimit = 40.0 * size * 0.62
        shownLabels = rows.map { TimelineSVG.fit($0.label, width: labelLimit, size: size) }
        let longest = shownLabels.map { TimelineSVG.textWidth($0, size: size) }.max() ?? 0
        left = chart.margin + max(longest, TimelineSVG.textWidth("sounds", size: size)) + 12
        width = left + chart.chartWidth + 48
        right = width - chart.margin
        // Placed in a copy of the rows: `placeRuns(&rows[i])` on `self` made
        // Swift copy `self`, and so every row, for each row (quadratic).
        var placed = rows
        for index in placed.indices {
            switch placed[index].kind {
            case .key: placeRuns(&placed[index])
            case .sound, .cue: placeMarkers(&placed[index])
            }
        }
        rows = placed
    }

    /// The x of a time on the chart.
    func x(_ time: Double) -> Double { left + scale.fraction(time) * chart.chartWidth }

    /// A row's height: its lanes and a margin.
    func rowHeight(_ row: Row) -> Double {
        row.kind == .key ? Double(row.laneCount) * (chart.barHeight + chart.laneGap) + 8
            : Double(row.laneCount) * chart.markerLane + 8
    }

    /// Runs on one property that overlap go one under the other.
    private func placeRuns(_ row: inout Row) {
        let spans = row.events.map { (start: $0.start, end: $0.end) }
        let placed = TimelineSVG.lanes(spans) { a, b in
            // Runs that only touch share a lane; so do instants apart in time.
            a.start == a.end || b.start == b.end ? (a.start <= b.end && b.start <= a.end) : (a.start < b.end && b.start < a.end)
        }
        row.lanes = placed.lanes
        row.laneCount = placed.count
    }

    /// Each marker's label goes right of it, or left when it would pass the
    /// right edge (shortened when neither fits); labels at nearby instants stack.
    private func placeMarkers(_ row: inout Row) {
        let size = TimelineSVG.fontSize
        var boxes: [(start: Double, end: Double)] = []
        for event in row.events {
            let cx = x(event.start)
            let name = event.name ?? ""
            var text = TimelineSVG.fit(name, width: chart.chartWidth, size: size)
            var w = TimelineSVG.textWidth(text, size: size)
            var anchorEnd = false
            var labelX = cx + 9
            if labelX + w > right {
                if cx - 9 - w >= left {
                    anchorEnd = true
                    labelX = cx - 9
                } else {
                    text = TimelineSVG.fit(name, width: right - labelX, size: size)
                    w = TimelineSVG.textWidth(text, size: size)
                }
            }
            row.markerLabels.append((text, labelX, anchorEnd))
            boxes.append(anchorEnd ? (labelX - w - 2, cx + 7) : (cx - 7, labelX + w + 2))
        }
        let placed = TimelineSVG.lanes(boxes) { a, b in a.start < b.end + 4 && b.start < a.end + 4 }
        row.lanes = placed.lanes
        row.laneCount = placed.count
    }
}
