/// The typed face of `Kernel/coverage.lua`.
extension Kernel {
    /// What coverage the kernel collected, with the pack's own lines.
    func coverageReport() throws(RulebenchError) -> CoverageReport {
        let value = decode(try engine("coveragereport").first)
        var files: [String: CoverageReport.File] = [:]
        for entry in value?["defined"]?.sortedEntries ?? [] {
            let lines = (entry.value.listItems ?? []).compactMap { $0.intValue.map(Int.init) }
            files[entry.key.description, default: CoverageReport.File()].defined = Set(lines)
        }
        for entry in value?["lines"]?.sortedEntries ?? [] {
            var hits: [Int: Int] = [:]
            for line in entry.value.sortedEntries {
                if case .int(let number) = line.key, let count = line.value.intValue { hits[Int(number)] = Int(count) }
            }
            files[entry.key.description, default: CoverageReport.File()].hits = hits
        }
        var actions: [String: CoverageReport.ActionCounts] = [:]
        for entry in value?["actions"]?.sortedEntries ?? [] {
            func count(_ key: String) -> Int { Int(entry.value[key]?.intValue ?? 0) }
            actions[entry.key.description] = .init(performed: count("performed"), undone: count("undone"), redone: count("redone"))
        }
        return CoverageReport(files: files, actions: actions)
    }
}
