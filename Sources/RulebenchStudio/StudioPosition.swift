import Rulebench

/// What every page shows of the game at its current history position, as
/// one JSON message (`"type": "position"`): the history with each step's
/// verified undo and redo and its failure marks, the state hash, the state
/// and the slots this step changed (before and after), the legal calls as
/// `play` prints them, the pack's render text, the animation of the step
/// just crossed, a finding's header, the last reload's outcome and the steps
/// it could not replay (`pending`, kept until the file is fixed) and, with a
/// level file open, the level set up and how far its stored solution is played.
///
/// With a seat chosen (`seat`), the message holds only what that seat may
/// see (`seated`): its view of the state and its hash, its scene, the calls
/// it may make, the changes of a step it just made as it sees them; nothing
/// derived from the whole state (the state hash, the steps' hashes and
/// checks, the render text, the author's animation, findings, reloads).
struct StudioPosition {
    let json: JSONValue

    init(session: isolated StudioSession) {
        let game = session.game
        let history = game.history
        let cursor = history.cursor
        var members: [(String, JSONValue)] = [
            ("type", .string("position")),
            ("source", .object([("kind", .string(session.source.kind)), ("name", .string(session.source.name))])),
            ("pack", .object([("name", .string(game.pack.name)), ("version", .string(game.pack.version))])),
            ("savePath", .string(session.proposedSavePath)),
            ("step", .int(Int64(cursor))), ("count", .int(Int64(history.count))),
            ("seats", .array(((try? game.seats()) ?? []).map(JSONValue.string))),
            ("seat", session.seat.map(JSONValue.string) ?? .null),
            ("levels", session.levels?.json(game, seated: session.seat != nil) ?? .null),
            ("bots", .object(session.botSeats.bots.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value.description)) })),
            ("botSeed", .string(String(session.botSeats.seed))),
        ]
        if let seat = session.seat {
            json = .object(members + StudioPosition.seated(seat, session))
            return
        }
        members += [
            ("hash", .string((try? game.liveStateHash().hex) ?? history.currentHash.hex)),
            ("entries", .array((0..<history.count).map { StudioPosition.entry($0 + 1, session) })),
            ("pending", .array(session.pending.enumerated().map { index, step in
                .object([("step", .int(Int64(history.count + index + 1))), ("call", .string(StudioPosition.label(step.call))),
                         ("hash", .string(step.hash.hex)), ("problem", .string(step.problem))])
            })),
            ("setupMarks", .array((session.marks[0] ?? []).map(JSONValue.string))),
            ("scenarioSteps", .array(session.scenarioSteps.map { .int(Int64($0)) })),
        ]
        let state = session.memory.states[cursor] ?? (try? game.state())
        members.append(("state", JSONValue(state)))
        let changes = cursor > 0 ? StateDiff.changes(from: session.memory.states[cursor - 1], to: state, limit: 200) : []
        members.append(("changes", .array(changes.map {
            .object([("path", .string($0.path)), ("before", .string(StudioPosition.shown($0.before))), ("after", .string(StudioPosition.shown($0.after)))])
        })))
        members.append(("render", .string((try? game.render()) ?? "")))
        let scene = session.memory.scenes[cursor] ?? nil
        members.append(("scene", scene.flatMap { try? JSONValue.parse($0.json()) } ?? .null))
        members += StudioPosition.calls(game, scene: scene)
        members.append(("viewError", session.memory.viewError.map(JSONValue.string) ?? .null))
        members.append(("animation", session.animation?.json ?? .null))
        members.append(("story", session.story?.json ?? .null))
        members.append(("finding", session.finding?.json ?? .null))
        members.append(("reload", session.reload?.json ?? .null))
        json = .object(members)
    }

    /// What `seat` may see at the current position (see the type's comment).
    private static func seated(_ seat: String, _ session: isolated StudioSession) -> [(String, JSONValue)] {
        let game = session.game
        let cursor = game.history.cursor
        let view = try? game.view(as: seat)
        let scene = (try? game.scene(as: seat)) ?? nil
        let changes = session.seatChanges.flatMap { $0.position == cursor ? $0.changes : nil } ?? []
        let entries = (0..<game.history.count).map { index -> JSONValue in
            let step = index + 1
            return .object([
                ("step", .int(Int64(step))), ("call", .string(session.label(of: step))), ("hash", .string("")),
                ("checkpoint", .bool(game.history.entry(at: index).isCheckpoint)), ("applied", .bool(step <= cursor)),
                ("undo", .null), ("redo", .null), ("marks", .array([])),
            ])
        }
        var members: [(String, JSONValue)] = [
            ("hash", .string(view?.hash ?? "")),
            ("entries", .array(entries)), ("setupMarks", .array([])),
            ("scenarioSteps", .array(session.scenarioSteps.map { .int(Int64($0)) })),
            ("state", view.map { JSONValue($0.state) } ?? .null),
            ("changes", .array(changes.map { change in
                .object([("path", .string(change.path)), ("before", .string(StudioPosition.shown(change.before?.description ?? StateChange.absent))),
                         ("after", .string(StudioPosition.shown(change.after?.description ?? StateChange.absent)))])
            })),
            ("render", .string("")),
            ("scene", scene.flatMap { try? JSONValue.parse($0.json()) } ?? .null),
        ]
        members += StudioPosition.calls(game, scene: scene, as: seat)
        members += [("viewError", .null), ("animation", .null), ("finding", .null), ("reload", .null), ("story", .null)]
        return members
    }

    /// The most bytes of a text the page shows as it is (a call's label, a changed value).
    static let shownBytes = 4_096

    /// `text` as the page shows it: whole up to `shownBytes`, else its start
    /// and its size, so a 12 MiB call is not sent again in every message.
    /// (The state itself, and the legal calls a page sends back, go whole.)
    static func shown(_ text: String) -> String {
        guard text.utf8.count > shownBytes else { return text }
        return String(text.prefix(shownBytes / 4)) + "… (\(text.utf8.count) bytes in all)"
    }

    /// A call as the page shows it in the history and the animation: as `play`
    /// prints it, a string param longer than `shownBytes` cut first (typing a
    /// 12 MiB param whole only to cut its text would cost as much as the call).
    static func label(_ call: ActionCall) -> String {
        var shortened = call
        var cut = false
        for (key, value) in call.params {
            if case .string(let text) = value, text.utf8.count > shownBytes {
                shortened.params[key] = .string(String(text.prefix(shownBytes / 4)))
                cut = true
            }
        }
        let typed = TypedCall.typed(shortened)
        return cut ? shown(typed) + " … (a param cut to its first \(shownBytes / 4) characters)" : shown(typed)
    }

    /// Step `step` of the history: its call, hash, whether it is applied, what its
    /// last undo and redo proved (null: not run yet), and the failures marked there.
    private static func entry(_ step: Int, _ session: isolated StudioSession) -> JSONValue {
        let entry = session.game.history.entry(at: step - 1)
        func check(_ check: Game.StepCheck?) -> JSONValue {
            guard let check else { return .null }
            return check.problem.map(JSONValue.string) ?? .bool(true)
        }
        return .object([
            ("step", .int(Int64(step))), ("call", .string(session.label(of: step))), ("hash", .string(entry.hash.hex)),
            ("checkpoint", .bool(entry.isCheckpoint)), ("applied", .bool(step <= session.game.history.cursor)),
            ("undo", check(session.memory.undoChecks[step])), ("redo", check(session.memory.redoChecks[step])),
            ("marks", .array((session.marks[step] ?? []).map(JSONValue.string))),
        ])
    }

    /// The legal calls (`label` as one types them to `play`; `nodes` the ids
    /// of the scene's nodes each names, which a click on a node narrows by),
    /// or why listing them failed; with a seat, the calls it may make.
    private static func calls(_ game: Game, scene: Scene?, as seat: String? = nil) -> [(String, JSONValue)] {
        do {
            let legal: [ActionCall]
            if let seat { legal = try game.legalActions(as: seat) } else { legal = try game.legalActions() }
            return [("legal", .array(legal.map { call in
                let nodes = scene?.nodes.filter { $0.isNamed(by: call) }.map { JSONValue.string($0.id) } ?? []
                return .object([("label", .string(TypedCall.typed(call))), ("action", .string(call.name)), ("nodes", .array(nodes))])
            })), ("legalError", .null)]
        } catch {
            return [("legal", .array([])), ("legalError", .string("\(error)"))]
        }
    }
}
