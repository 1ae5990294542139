import Rulebench

/// The animation of the last step a page saw crossed (or the opening): what
/// the page plays on the board (the library's keyframes: the page only
/// interpolates them) and draws as a timeline chart with a playhead.
struct StudioAnimation {
    /// What is animated: the call, `undo of CALL`, or `the opening`.
    var label: String
    /// "do" or "undo" (an undo plays the mirrored plan).
    var direction: String
    /// The plan as the library built it.
    var animation: ActionAnimation
    /// The plan as keyframes per node of the view's scene (nil: the pack has no view).
    var keyframes: PlanKeyframes?

    /// The animation as the page reads it: its length in seconds, the timeline
    /// (runs of target.property, sounds, cues, at their times) and its SVG chart.
    var json: JSONValue {
        let timeline = animation.timeline()
        return .object([
            ("label", .string(label)), ("direction", .string(direction)), ("duration", .double(timeline.duration)),
            ("chart", .string(timeline.svg(title: label, undo: direction == "undo"))),
            ("keyframes", keyframes.flatMap { try? JSONValue.parse($0.json()) } ?? .null),
        ])
    }
}
