/// What a host showing a game (the studio) knows of each history position
/// and step, learnt from the engine as the game moves: each step's last
/// undo and redo check, and the state and scene near the current position.
///
/// The invariants: everything here was observed at its position (positions
/// are exact: every undo and redo is verified); what belongs to steps a
/// perform replaced, or to rules a reload replaced, is forgotten; and the
/// states and scenes are kept for at most `keptPositions` positions (the
/// current one, the one before it, the one just left), never one per
/// position visited: a 20 MB state costs three copies, not one per move.
/// A position left behind is learnt again from the engine when revisited
/// (its history keeps every position, by real undo and redo).
public struct PositionMemory {
    /// What each step's last undo and redo proved, by step (1-based).
    public private(set) var undoChecks: [Int: Game.StepCheck] = [:]
    public private(set) var redoChecks: [Int: Game.StepCheck] = [:]
    /// The state at the positions kept (see `keptPositions`).
    public private(set) var states: [Int: StateValue] = [:]
    /// The view's scene at the positions kept (nil inside: the pack has no view).
    public private(set) var scenes: [Int: Scene?] = [:]
    /// Why the view failed at the last position observed (nil: it drew, or there is none).
    public private(set) var viewError: String?
    /// The positions whose state and scene are kept, oldest first.
    private var kept: [Int] = []

    /// How many positions' states and scenes are kept at most.
    public static let keptPositions = 3

    /// An empty memory.
    public init() {}

    /// Records what undos and redos proved.
    public mutating func record(_ checks: [Game.StepCheck]) {
        for check in checks {
            if check.direction == .undo { undoChecks[check.step] = check } else { redoChecks[check.step] = check }
        }
    }

    /// Drops what was known of the steps and positions after `position`.
    public mutating func forget(after position: Int) {
        undoChecks = undoChecks.filter { $0.key <= position }
        redoChecks = redoChecks.filter { $0.key <= position }
        kept.removeAll { $0 > position }
        states = states.filter { $0.key <= position }
        scenes = scenes.filter { $0.key <= position }
    }

    /// Keeps the state and scene of the game's position, and of the one before
    /// it (by a real undo and redo when it is not kept), so a host can show
    /// what this step changed and animate from the scene before it.
    public mutating func observe(_ game: Game) throws(RulebenchError) {
        let cursor = game.history.cursor
        if cursor > 0, states[cursor - 1] == nil {
            record(try game.seek(to: cursor - 1))
            keep(cursor - 1, state: try game.state(), scene: scene(of: game))
            record(try game.seek(to: cursor))
        }
        keep(cursor, state: try game.state(), scene: scene(of: game))
    }

    /// Stores a position's state and scene, dropping the oldest kept beyond `keptPositions`.
    private mutating func keep(_ position: Int, state: StateValue, scene: Scene?) {
        kept.removeAll { $0 == position }
        kept.append(position)
        states[position] = state
        scenes[position] = scene
        while kept.count > Self.keptPositions {
            let oldest = kept.removeFirst()
            states[oldest] = nil
            scenes[oldest] = nil
        }
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
