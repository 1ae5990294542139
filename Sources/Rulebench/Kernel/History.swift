/// A canonical hash of the whole game state: 64 bits as 16 hex digits.
///
/// It is the same on every run and machine for the same state: it is a sum
/// of one term per slot (so key order cannot matter), and numbers enter it
/// by their exact integer value or IEEE bits. The engine keeps it up to date
/// incrementally, so reading it costs nothing.
public struct StateHash: Hashable, Sendable, CustomStringConvertible, Codable {
    /// The 16 lower-case hex digits.
    public let hex: String

    /// A hash from its hex digits.
    public init(hex: String) { self.hex = hex }

    public var description: String { hex }
}

/// An action name and its params: what a player chooses, what history saves.
public struct ActionCall: Hashable, Sendable, CustomStringConvertible {
    /// The action's name (its file name in `actions/`).
    public var name: String
    /// Its params, as given.
    public var params: [String: StateValue]

    public init(_ name: String, _ params: [String: StateValue] = [:]) {
        self.name = name
        self.params = params
    }

    /// `move player="p1" to="b2"`: the name and params in key order.
    public var description: String {
        ([name] + params.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
    }
}

/// An action and the subactions it queued, recursively, in execution order.
public struct SubactionTree: Hashable, Sendable {
    /// The action's name.
    public var name: String
    /// Its params.
    public var params: [String: StateValue]
    /// Its subactions in the order they ran.
    public var subactions: [SubactionTree]

    init(name: String, params: [String: StateValue], subactions: [SubactionTree]) {
        self.name = name
        self.params = params
        self.subactions = subactions
    }

    /// The names of the direct subactions.
    public var subactionNames: [String] { subactions.map(\.name) }
}

extension ActionCall {
    static func params(from value: StateValue?) -> [String: StateValue] {
        guard case .table(let table)? = value else { return [:] }
        var params: [String: StateValue] = Dictionary(minimumCapacity: table.count)
        for (key, item) in table { params[key.description] = item }
        return params
    }
}

/// One performed action in the history.
public struct HistoryEntry: Sendable {
    /// What was performed.
    public let call: ActionCall
    /// The state hash right after it.
    public let hash: StateHash
    /// Whether the action is a checkpoint (`checkpoint = true`).
    public let isCheckpoint: Bool
    /// The subaction tree as the kernel encoded it (decoded on demand).
    let tree: [UInt8]
    /// The animation plan as the kernel encoded it (decoded on demand).
    let plan: [UInt8]

    /// The action with its subactions, in execution order.
    public var subactions: SubactionTree { Kernel.subactionTree(kept: tree, of: call) }

    /// The animation plan of the action (do direction) as the kernel built it:
    /// a tree of action nodes (`action`, `mode`, `sound`, `own`, `subs`).
    public var animationPlanValue: StateValue? { Kernel.plan(kept: plan, from: .perform) }
}

/// What an undo did.
public struct UndoOutcome: Sendable {
    /// The entry that was undone (it stays available to redo).
    public let entry: HistoryEntry
    /// The state hash after the undo.
    public let hash: StateHash
    let plan: [UInt8]

    /// The animation plan of the undo as the kernel built it. Nodes with no
    /// `own` plan play their do plan reversed.
    public var animationPlanValue: StateValue? { Kernel.plan(kept: plan, from: .undo) }
}

/// The performed actions of a game, with an undo/redo cursor.
///
/// A view of the kernel's history (`Kernel/history.lua`), which owns the
/// records (one per entry, the engine's own record of the action), the
/// cursor and every rule about them: where the cursor goes, which entries a
/// new action drops, how many undos a turn is. This holds where the history
/// stands as each reply gives it (the cursor, the count, the turn counts and
/// the history's version) and no entries of its own: an entry is read from
/// the kernel when it is read (one call for a range of them), and kept only
/// while the kernel's version stays the one it was read at (`HistoryView`).
/// Copies of a `History` are views of the same game's history, as it is now.
public struct History: Sendable {
    /// Where the entries are read and kept.
    let view: HistoryView

    /// An empty history from the state after setup, read from `kernel`
    /// (nil: a fuzz run's reply, which says where the history stands and
    /// carries no entries).
    init(initialHash: StateHash, kernel: Kernel?) {
        view = HistoryView(initialHash: initialHash, kernel: kernel)
    }

    /// The state hash after setup (and any state overrides).
    public internal(set) var initialHash: StateHash {
        get { view.initialHash }
        nonmutating set { view.initialHash = newValue }
    }
    /// How many entries are applied.
    public var cursor: Int { view.position.cursor }
    /// How many entries there are, applied and redoable.
    public var count: Int { view.position.count }
    /// Every entry: `entries[..<cursor]` are applied, the rest can be redone.
    public var entries: [HistoryEntry] { Array(view.entries(through: count)) }
    /// The entry at `index` (from 0, below `count`).
    public func entry(at index: Int) -> HistoryEntry { view.entries(through: index + 1)[index] }

    /// The applied entries, oldest first.
    public var performed: ArraySlice<HistoryEntry> { view.entries(through: cursor) }
    /// The entries that redo would reapply, next first.
    public var redoable: ArraySlice<HistoryEntry> { view.entries(through: count)[cursor...] }
    /// The hash of the current state, as the history recorded it.
    public var currentHash: StateHash {
        if cursor == 0 { return initialHash }
        return view.current ?? entry(at: cursor - 1).hash
    }
    /// True when nothing has been performed.
    public var isAtStart: Bool { cursor == 0 }
    /// How many undos `undo turn` makes: back to the last checkpoint action,
    /// which stays applied (to the start when there is none): the turn under
    /// way. 0 right after a checkpoint. Counted by the kernel.
    public var undosToLastCheckpoint: Int { view.position.undosToLastCheckpoint }

    /// How many undos `undo last turn` makes: the last action and every one
    /// before it back to the checkpoint before it, which stays applied (to
    /// the start when there is none). Right after a checkpoint (in draughts,
    /// chess or a puzzle, where every move is one, always) that is the whole
    /// turn the checkpoint ended; within a turn, the turn under way, as
    /// `undosToLastCheckpoint`. 0 only at the start. Counted by the kernel.
    public var undosToLastTurn: Int { view.position.undosToLastTurn }

    /// `step` when it is a position of this history (`0...count`, 0
    /// after setup), checked before any arithmetic on it: a step from a
    /// message or a file may be any integer, -2^63 included.
    ///
    /// - Throws: `.badInput` naming the step and the positions there are.
    public func position(_ step: Int) throws(RulebenchError) -> Int {
        guard step >= 0, step <= count else {
            throw .badInput(InputProblem("no history position \(step): the history has positions 0 to \(count)"))
        }
        return step
    }

    /// Where the kernel's history stands after an operation: the cursor,
    /// how many entries there are, the two turn counts, and the version
    /// (history.lua: it changes whenever an entry is added, dropped or
    /// replaced, and only then).
    struct Position: Equatable {
        let cursor: Int
        let count: Int
        let undosToLastCheckpoint: Int
        let undosToLastTurn: Int
        let version: Int

        /// The five integers Game's perform, undo and redo end their
        /// replies with (history.lua, `where`; `Kernel.positioned`).
        init(cursor: Int, count: Int, undosToLastCheckpoint: Int, undosToLastTurn: Int, version: Int) {
            self.cursor = cursor
            self.count = count
            self.undosToLastCheckpoint = undosToLastCheckpoint
            self.undosToLastTurn = undosToLastTurn
            self.version = version
        }

        /// A history just set up: no entries, its version not yet read.
        static let start = Position(cursor: 0, count: 0, undosToLastCheckpoint: 0, undosToLastTurn: 0, version: -1)
    }

    /// Takes the kernel's cursor, counts and version; `current`, when the
    /// reply gave it, is the hash the history records at the new cursor.
    func move(to position: Position, current: StateHash? = nil) {
        view.move(to: position, current: current)
    }
}
