/// Coverage reports of several runs' Lua states (the workers of a parallel
/// fuzz session) added into one: what all of them reached.
extension CoverageReport {
    /// Adds `other`'s hits and action counts to this report's; the lines
    /// known are those either knows.
    mutating func add(_ other: CoverageReport) {
        for (path, file) in other.files {
            var mine = files[path] ?? File()
            mine.defined.formUnion(file.defined)
            mine.hits.merge(file.hits, uniquingKeysWith: +)
            files[path] = mine
        }
        for (name, counts) in other.actions {
            var mine = actions[name] ?? ActionCounts()
            mine.performed += counts.performed
            mine.undone += counts.undone
            mine.redone += counts.redone
            mine.attempted += counts.attempted
            mine.outOfRange += counts.outOfRange
            mine.wrongType += counts.wrongType
            actions[name] = mine
        }
    }
}
