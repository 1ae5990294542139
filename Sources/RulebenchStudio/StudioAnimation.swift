import Rulebench

/// The animation of the last step a page saw crossed (or the opening): what
/// the page plays on the board (the library's poses, `PoseReel`: the page
/// draws the sample of each frame's time and computes no pose) and draws as
/// a timeline chart with a playhead.
///
/// Its JSON is built once, when the step is crossed, not again for every
/// position sent: a plan of 20k tweens is charted once.
struct StudioAnimation {
    /// What is animated: the call, `undo of CALL`, or `the opening`.
    let label: String
    /// "do" or "undo" (an undo plays the mirrored plan).
    let direction: String
    /// The animation as the page reads it: its length in seconds, its SVG chart
    /// and its poses (every node's pose sampled at a fixed rate, sounds and cues at their times).
    let json: JSONValue

    /// - Parameters:
    ///   - animation: the plan as the library built it.
    ///   - keyframes: the plan as keyframes per node of the view's scene (nil: the pack has no view).
    init(label: String, direction: String, animation: ActionAnimation, keyframes: PlanKeyframes?) {
        self.label = label
        self.direction = direction
        let timeline = animation.timeline()
        json = .object([
            ("label", .string(label)), ("direction", .string(direction)), ("duration", .double(timeline.duration)),
            ("chart", .string(timeline.svg(title: label, undo: direction == "undo"))),
            ("poses", keyframes.flatMap { try? JSONValue.parse(PoseReel($0).json()) } ?? .null),
        ])
    }
}
