import Foundation

/// A sequence resolved for one state, ready for a host to play with its own
/// views (`Game.sequence(_:)`): texts filled in, images' pack paths, each
/// step's length. Resolving reads the state; it never changes it.
public struct PlayedSequence: Hashable, Sendable {
    /// One step: its events, and how long its animations run.
    public struct Step: Hashable, Sendable {
        public var events: [PlayedEvent]
        /// Seconds until every event of the step has come on screen.
        public var seconds: Double { events.map(\.seconds).max() ?? 0 }
    }

    public var name: String
    /// The sequence's file.
    public var file: String
    public var steps: [Step]
    /// The slots its texts read that the state does not hold (empty when all are there).
    public var missing: [MissingSlot]

    /// `sequence` filled in from `state`; `imageExists` says whether the pack has an image path.
    public init(_ sequence: StorySequence, state: StateValue, imageExists: (String) -> Bool) {
        name = sequence.name
        file = sequence.file
        var missing: [MissingSlot] = []
        steps = sequence.steps.map { step in
            Step(events: step.events.map { event in
                let filled = SequenceText(event.text, state: state)
                missing += filled.missing.map { MissingSlot(path: $0, location: event.textLocation) }
                let choices = event.choices.map { choice in
                    let (resolved, absent) = PlayedSequence.resolved(choice, state: state)
                    missing += absent
                    return resolved
                }
                return PlayedEvent(side: event.side, text: filled.text, image: event.image,
                                   imageFound: event.image.map(imageExists) ?? true, position: event.position,
                                   animation: event.animation, choices: choices)
            })
        }
        self.missing = missing
    }

    /// `choice` with each param written as one `{path}` alone (`player: "{turn.player}"`)
    /// replaced by the state's value there, as it is (a number stays a number).
    static func resolved(_ choice: SequenceChoice, state: StateValue) -> (SequenceChoice, [MissingSlot]) {
        var choice = choice, missing: [MissingSlot] = []
        for (name, value) in choice.call.params {
            guard case .string(let text) = value, let path = SequenceText.paths(in: text).first, text == "{\(path)}" else { continue }
            if let found = (try? StatePath(parsing: path)).flatMap({ state.value(at: $0) }) {
                choice.call.params[name] = found
            } else {
                missing.append(MissingSlot(path: path, location: choice.location))
            }
        }
        return (choice, missing)
    }

    /// The golden transcript: what a player sees and may pick, step by step,
    /// one line each (`rulebench play PACK --sequence NAME` prints it; a
    /// scenario's `transcript:` compares a played sequence with a file of it).
    ///
    ///     sequence storm_rises
    ///     step 1
    ///       left near shake art/storm.svg: The storm picks up.
    ///       choice "Dig in": end_turn
    public var transcript: String {
        var lines = ["sequence \(name)"]
        for (index, step) in steps.enumerated() {
            lines.append("step \(index + 1)")
            for event in step.events {
                let image = event.image.map { " " + $0 } ?? ""
                lines.append("  \(event.side.rawValue) \(event.position.rawValue) \(event.animation.rawValue)\(image): \(event.text)")
                for choice in event.choices { lines.append("  choice \"\(choice.label)\": \(choice.call)") }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The sequence as JSON, for a page or another host: name, steps, each
    /// event's side, text, image (pack-relative), position, animation,
    /// seconds and choices (label, the call as `play` types it: `call`).
    public func json(typed: (ActionCall) -> String) -> JSONValue {
        .object([
            ("name", .string(name)),
            ("file", .string(file)),
            ("steps", .array(steps.map { step in
                .object([("seconds", .double(step.seconds)), ("events", .array(step.events.map { event in
                    .object([
                        ("side", .string(event.side.rawValue)), ("text", .string(event.text)),
                        ("image", event.image.map { .string($0) } ?? .null), ("imageFound", .bool(event.imageFound)),
                        ("position", .string(event.position.rawValue)), ("animation", .string(event.animation.rawValue)),
                        ("seconds", .double(event.seconds)),
                        ("choices", .array(event.choices.map { .object([("label", .string($0.label)), ("call", .string(typed($0.call)))]) })),
                    ])
                }))])
            })),
            ("missing", .array(missing.map { .string($0.description) })),
        ])
    }
}
