/// What a fuzz session reached in a pack: the lines of its Lua that ran
/// (and how often), the lines it has, and how often each action was
/// performed, undone and redone. `lcov()` writes it as an LCOV tracefile,
/// which `genhtml`, editors and coverage services read.
public struct CoverageReport: Sendable, Equatable {
    /// One Lua file of the pack.
    public struct File: Sendable, Equatable {
        /// Hits by line, for the lines that ran.
        public var hits: [Int: Int] = [:]
        /// The lines the file has (the active lines of the functions the
        /// pack defines; a closure created only at run time adds its lines
        /// once it ran).
        public var defined: Set<Int> = []

        /// Every line known, run or not, in order.
        public var lines: [Int] { defined.union(hits.keys).sorted() }
        /// The known lines that never ran, in order.
        public var unreached: [Int] { lines.filter { (hits[$0] ?? 0) == 0 } }
    }

    /// How often the fuzzer did something with one action.
    public struct ActionCounts: Sendable, Equatable {
        public var performed = 0
        public var undone = 0
        public var redone = 0
        /// Illegal attempts (`try` steps) of it, whatever came of them.
        public var attempted = 0
        /// Of the attempts, those with a param outside the values `legal`
        /// emitted (a column past the last), and those with a param of
        /// another type than the action declares.
        public var outOfRange = 0, wrongType = 0
    }

    /// The pack's files by path, as its chunks name them.
    public var files: [String: File]
    /// The counts by action name.
    public var actions: [String: ActionCounts]

    /// The files none of whose lines ran.
    public var unreachedFiles: [String] {
        files.keys.sorted().filter { files[$0]?.hits.isEmpty ?? true }
    }

    /// The LCOV tracefile: one record per file (in path order) with a `DA`
    /// line per known line (in line order), then the found and hit totals.
    public func lcov(testName: String = "rulebench-fuzz") -> String {
        var text = "TN:\(testName)\n"
        for path in files.keys.sorted() {
            guard let file = files[path] else { continue }
            text += "SF:\(path)\n"
            let lines = file.lines
            for line in lines { text += "DA:\(line),\(file.hits[line] ?? 0)\n" }
            text += "LH:\(lines.count { (file.hits[$0] ?? 0) > 0 })\nLF:\(lines.count)\nend_of_record\n"
        }
        return text
    }

    /// A few lines for the end of a fuzz report: per action, how often it
    /// was performed, undone, redone and attempted illegally, then what never ran.
    public var summary: String {
        var text = "coverage:\n"
        for name in actions.keys.sorted() {
            guard let c = actions[name] else { continue }
            text += "  \(name): performed \(c.performed), undone \(c.undone), redone \(c.redone), "
                + "attempted illegally \(c.attempted) (\(c.outOfRange) out of range, \(c.wrongType) of a wrong type)\n"
        }
        let total = files.values.reduce(0) { $0 + $1.lines.count }
        let hit = files.values.reduce(0) { $0 + $1.lines.count - $1.unreached.count }
        text += "  lines run: \(hit) of \(total)\n"
        for path in files.keys.sorted() {
            guard let file = files[path], !file.unreached.isEmpty else { continue }
            if file.hits.isEmpty {
                text += "  never ran: \(path)\n"
            } else {
                text += "  never ran in \(path): lines \(CoverageReport.ranges(file.unreached))\n"
            }
        }
        return text
    }

    /// "3-5, 9, 12-13" for [3, 4, 5, 9, 12, 13].
    static func ranges(_ lines: [Int]) -> String {
        var parts: [String] = []
        var index = 0
        while index < lines.count {
            var end = index
            while end + 1 < lines.count && lines[end + 1] == lines[end] + 1 { end += 1 }
            parts.append(end == index ? "\(lines[index])" : "\(lines[index])-\(lines[end])")
            index = end + 1
        }
        return parts.joined(separator: ", ")
    }
}
