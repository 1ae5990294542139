// Fuzzer+Profile.swift: the Lua VM instructions of one `check`, by
// function (`rulebench-bench --profile-kernel PACK`, row (1k)'s step loop).
//
// Invariant: the program is checked exactly as `check` checks it, in the
// game the executor keeps (restarted), so the counts are the loop's own.

extension Fuzzer {
    /// Checks `program` as `check(_:wholeHistory:)` does and returns the
    /// VM instructions it ran, by function (`Game.countInstructions`:
    /// exact). Needs options whose configuration has no instruction budget.
    public func instructions(checking program: FuzzProgram, wholeHistory: Bool = false) throws -> [String: Int] {
        let game = try executor.newGame(program)
        var finding: FuzzFinding?
        let counts = try game.countInstructions { finding = check(program, wholeHistory: wholeHistory) }
        if let finding { throw RulebenchError.badInput(InputProblem("the check found: \(finding)")) }
        return counts
    }
}
