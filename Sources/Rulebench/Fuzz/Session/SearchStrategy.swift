// How a fuzz session chooses its runs (`--search`). The raw values are the
// option's words and appear in reports and reproduction commands.

/// How the fuzzer chooses its runs.
public enum SearchStrategy: String, Sendable, CaseIterable {
    /// Every run a fresh random game: each step uniform among the legal
    /// actions (with some undo, redo and illegal attempts).
    case uniform
    /// Each step chosen rare kinds first (a kind of move never played is
    /// played when offered), and runs guided by coverage of the pack's Lua:
    /// mutations of kept programs that reached new line-to-line edges,
    /// swarm runs that leave out some of the kinds played so far, and a breadth-first
    /// sweep of the first depths once 5,000 steps are taken.
    case guided
}

