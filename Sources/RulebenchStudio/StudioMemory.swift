import Rulebench

/// What the studio knows of each history position and step, learnt from
/// the engine as the game moves: each step's last undo and redo check, and
/// the state and scene at each position visited.
///
/// The invariant: everything here was observed at its position (positions
/// are exact: every undo and redo is verified), and what belongs to steps
/// a perform replaced, or to rules a reload replaced, is forgotten.
struct StudioMemory {
    /// What each step's last undo and redo proved, by step (1-based).
    var undoChecks: [Int: Game.StepCheck] = [:]
    var redoChecks: [Int: Game.StepCheck] = [:]
    /// The state at each position visited.
    var states: [Int: StateValue] = [:]
    /// The view's scene at each position visited (nil inside: the pack has no view).
    var scenes: [Int: Scene?] = [:]
    /// Why the view failed at the last position observed (nil: it drew, or there is none).
    var viewError: String?

    mutating func record(_ checks: [Game.StepCheck]) {
        for check in checks {
            if check.direction == .undo { undoChecks[check.step] = check } else { redoChecks[check.step] = check }
        }
    }

    /// Drops what was known of the steps and positions after `position`.
    mutating func forget(after position: Int) {
        undoChecks = undoChecks.filter { $0.key <= position }
        redoChecks = redoChecks.filter { $0.key <= position }
        states = states.filter { $0.key <= position }
        scenes = scenes.filter { $0.key <= position }
    }

    /// Keeps the state and scene of the game's position, and of the one before
    /// it (by a real undo and redo when it was never visited), so the page can
    /// show what this step changed and animate from the scene before it.
    mutating func observe(_ game: Game) throws(RulebenchError) {
        let cursor = game.history.cursor
        let known = cursor == 0 || states[cursor - 1] != nil
        if !known {
            record(try game.seek(to: cursor - 1))
            states[cursor - 1] = try game.state()
            scenes[cursor - 1] = scene(of: game)
            record(try game.seek(to: cursor))
        }
        states[cursor] = try game.state()
        scenes[cursor] = scene(of: game)
    }

    /// The game's scene; a view that fails draws nothing and says why (the game goes on).
    private mutating func scene(of game: Game) -> Scene? {
        do {
            viewError = nil
            return try game.scene()
        } catch {
            viewError = "the view fails: \(error)"
            return nil
        }
    }
}
