/// What a guided fuzz run found that the rest of its session should know:
/// the edges of the pack's Lua it reached first and the kinds of move it
/// played. The workers of a parallel guided session tell each other these
/// (`DiscoveryLog`, owned by `FuzzWorkerLink`), so that an edge one worker
/// reached is not new to another and a kind one played is not "never
/// played" to another: N workers judge novelty as one session does.
///
/// The same value goes both ways: in a run's request, what the other
/// workers found (the kernel marks their edges as seen and counts their
/// plays, `Kernel/fuzz.lua`); in its reply, what this worker's Lua state found.
struct Discoveries: Sendable, Equatable {
    /// A kind of move (the site that emitted it, `Kernel/choose.lua`) and
    /// how often it was played.
    struct KindPlays: Sendable, Equatable {
        var site: Int64
        var plays: Int
    }

    /// Edges (indices in the kernel's edge table) reached first by the run.
    var edges: [Int] = []
    /// Edges reached first before the run (the game's setup, a probe's walk
    /// since the last run): told to the others, not counted as the run's.
    var earlier: [Int] = []
    /// Kinds of move played, in the order first played.
    var kinds: [KindPlays] = []

    /// Nothing to tell.
    var isEmpty: Bool { edges.isEmpty && earlier.isEmpty && kinds.isEmpty }

    /// Adds what `other` found.
    mutating func add(_ other: Discoveries) {
        edges += other.earlier + other.edges
        kinds += other.kinds
    }
}
